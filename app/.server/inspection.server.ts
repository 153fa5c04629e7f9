// Crack detection on inspection photos (docs/crack-detection.md "Runs, results and getResults"). A
// run detects every photo of a dataset through the sidecar's Inspection service, one photo per
// call, as a queue job: each photo's mask is written under the storage root before its row, and the
// (run, picture) pair is unique, so a run interrupted anywhere (restart, sidecar gone) continues
// where it stopped. Who may see a run is who may see its dataset (datasets.server.ts visibleWhere).
import fs from "node:fs/promises";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { ForeignKeyConstraintError, Op, UniqueConstraintError } from "sequelize";
import sharp, { type Metadata, type OutputInfo } from "sharp";
import { CrackDetection, Dataset, InspectionRun, InspectionSkippedPhoto, Picture, User, type InspectionState } from "../../models/index.ts";
import type { DetectorInfoReply__Output } from "../../proto/generated/metarank/v1/DetectorInfoReply.ts";
import { PICTURE_LIMITS } from "~/lib/rules/datasets.ts";
import { messageRef, translateMessage, type MessageRef } from "~/lib/forms/messages.ts";
import { DETECTABLE_FORMATS, INSPECTION_LIMITS, INSPECTION_MSG, SKIP_MSG } from "~/lib/rules/inspection.ts";
import { visibleWhere, type Viewer } from "./datasets.server.ts";
import { inWriteTransaction } from "./db.server.ts";
import { i18nFor } from "./i18n.server.ts";
import { logger } from "./logger.server.ts";
import { readStored, removeStored, sniffImageType, storedFile } from "./pictures.server.ts";
import { RetryableJobError, isRetryable, untilSidecarServes, type JobContext, type JobQueue } from "./queue.server.ts";
import { rpc, SidecarCallError, unary } from "./sidecar.server.ts";
import { timedCache } from "./timedCache.server.ts";

const log = logger("inspection");

export const RESULTS_PER_PAGE = 6; // result grid 6, 3 a row
export const PLATFORM_INSPECTION_SLUG = "concrete-inspection";

// ---------------------------------------------------------------------------------------------
// The detector's own description and measured accuracy, as the sidecar reports it.

const info = timedCache(60_000, () => unary(rpc().inspection.DetectorInfo, {}, { deadlineMs: 5_000 }));
/** DetectorInfo, cached for a minute; the last one read, or null, when no sidecar answers (the page says so). */
export async function detectorInfo(): Promise<DetectorInfoReply__Output | null> {
  try {
    return await info.get();
  } catch (err) {
    log.warn({ err: (err as Error).message }, "DetectorInfo failed");
    return info.last();
  }
}

// ---------------------------------------------------------------------------------------------
// Reading runs and results (what the page and getResults show).

export interface RunView {
  id: number;
  datasetId: number;
  datasetName: string;
  modelName: string;
  mmPerPixel: number;
  state: InspectionState;
  photosTotal: number;
  photosDone: number;
  cracksFound: number;
  /** Photos the run could not detect; each has its reason (skippedPhotos). */
  photosSkipped: number;
  error: string | null;
  mine: boolean;
  platform: boolean;
  createdAt: string;
  finishedAt: string | null;
}

/** A detection result row: id, index, type, size, address, isCrack, length, width, number, time. */
export interface DetectionRow {
  id: number;
  index: number;
  type: string;
  size: string;
  address: string;
  isCrack: boolean;
  /** mm */
  length: number;
  /** mm, the widest point */
  width: number;
  /** mm */
  meanWidth: number;
  number: string;
  time: string;
  /** The picture's label in its dataset (the platform's photos: "crack" / "no crack", from the generator's ground truth). */
  label: string | null;
  pictureId: number;
  thumbUrl: string;
  maskUrl: string;
  pixels: { width: number; height: number; bytes: number };
}

async function visibleDatasets(viewer: Viewer): Promise<Map<number, Dataset>> {
  const ds = await Dataset.findAll({ where: visibleWhere(viewer), attributes: ["id", "name", "ownerId", "isPublic"] });
  return new Map(ds.map((d) => [d.id, d]));
}

function runView(r: InspectionRun, dataset: Dataset, viewer: Viewer): RunView {
  return {
    id: r.id,
    datasetId: r.datasetId,
    datasetName: dataset.name,
    modelName: r.modelName,
    mmPerPixel: r.mmPerPixel,
    state: r.state,
    photosTotal: r.photosTotal,
    photosDone: r.photosDone,
    cracksFound: r.cracksFound,
    photosSkipped: r.photosSkipped ?? 0,
    error: r.error ?? null,
    mine: viewer != null && r.userId === viewer.id,
    platform: r.userId == null,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt ? r.finishedAt.toISOString() : null,
  };
}

/** The runs the viewer may see, newest first (at most 50: the select lists them). */
export async function listRuns(viewer: Viewer): Promise<RunView[]> {
  const datasets = await visibleDatasets(viewer);
  if (!datasets.size) return [];
  const runs = await InspectionRun.findAll({ where: { datasetId: [...datasets.keys()] }, order: [["id", "DESC"]], limit: 50 });
  return runs.map((r) => runView(r, datasets.get(r.datasetId)!, viewer));
}

/** A run the viewer may see, else null (callers answer 404, as for a run that does not exist). */
export async function findVisibleRun(id: unknown, viewer: Viewer): Promise<{ run: InspectionRun; dataset: Dataset } | null> {
  const n = Number(id);
  if (!Number.isSafeInteger(n) || n <= 0) return null;
  const run = await InspectionRun.findByPk(n);
  if (!run) return null;
  const dataset = await Dataset.findOne({ where: { [Op.and]: [{ id: run.datasetId }, visibleWhere(viewer)] } });
  return dataset ? { run, dataset } : null;
}

export function runViewOf(found: { run: InspectionRun; dataset: Dataset }, viewer: Viewer): RunView {
  return runView(found.run, found.dataset, viewer);
}

const kb = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`);

function detectionRow(d: CrackDetection, picture: Picture | undefined): DetectionRow {
  return {
    id: d.id,
    index: d.position,
    type: d.format.toUpperCase(),
    size: `${d.width} × ${d.height} px, ${kb(d.fileSize)}`,
    address: `/picture/${d.pictureId}`,
    isCrack: d.isCrack,
    length: d.lengthMm,
    width: d.maxWidthMm,
    meanWidth: d.meanWidthMm,
    number: picture?.displayName || `#${d.pictureId}`,
    label: picture?.label ?? null,
    time: d.detectedAt.toISOString(),
    pictureId: d.pictureId,
    thumbUrl: `/picture/${d.pictureId}?size=thumb`,
    maskUrl: `/inspection/mask/${d.id}`,
    pixels: { width: d.width, height: d.height, bytes: d.fileSize },
  };
}

/** Every detection query loads the photo's name and label with it (models/index.ts). */
const WITH_PICTURE = { include: [{ association: "picture", attributes: ["id", "displayName", "label"] }] };

function rowsOf(detections: CrackDetection[]): DetectionRow[] {
  return detections.map((d) => detectionRow(d, d.picture ?? undefined));
}

export interface ResultsPage {
  rows: DetectionRow[];
  page: number;
  pages: number;
  total: number;
}

/** One page of a run's detections in photo order (6 a page). */
export async function resultsPage(runId: number, page: number): Promise<ResultsPage> {
  const total = await CrackDetection.count({ where: { runId } });
  const pages = Math.max(1, Math.ceil(total / RESULTS_PER_PAGE));
  const p = Math.min(Math.max(1, page), pages);
  const detections = await CrackDetection.findAll({
    ...WITH_PICTURE,
    where: { runId },
    order: [["position", "ASC"]],
    offset: (p - 1) * RESULTS_PER_PAGE,
    limit: RESULTS_PER_PAGE,
  });
  return { rows: rowsOf(detections), page: p, pages, total };
}

/** The first `limit` detections of a run in photo order (the dam viewer maps them onto its panels). */
export async function runDetections(runId: number, limit: number): Promise<DetectionRow[]> {
  const detections = await CrackDetection.findAll({ ...WITH_PICTURE, where: { runId }, order: [["position", "ASC"]], limit });
  return rowsOf(detections);
}

/** A photo of a run that was not detected, and why. */
export interface SkippedPhotoRow {
  index: number;
  pictureId: number;
  number: string;
  address: string;
  thumbUrl: string;
  /** A message ref of the `inspection` namespace (app/lib/rules/inspection.ts SKIP_MSG). */
  reason: MessageRef;
}

/** The page lists at most this many of a run's photos that were not detected (and says how many more). */
export const SKIPPED_SHOWN = 100;

/** The first `limit` photos of a run that were not detected, in photo order, each with its reason. */
export async function skippedPhotos(runId: number, limit = SKIPPED_SHOWN): Promise<SkippedPhotoRow[]> {
  const rows = await InspectionSkippedPhoto.findAll({ ...WITH_PICTURE, where: { runId }, order: [["position", "ASC"]], limit });
  return rows.map((s) => ({
    index: s.position,
    pictureId: s.pictureId,
    number: s.picture?.displayName || `#${s.pictureId}`,
    address: `/picture/${s.pictureId}`,
    thumbUrl: `/picture/${s.pictureId}?size=thumb`,
    reason: s.reason,
  }));
}

/** One detection of a run the viewer may see (the details dialog), else null. */
export async function findDetection(runId: number, detectionId: unknown): Promise<DetectionRow | null> {
  const n = Number(detectionId);
  if (!Number.isSafeInteger(n) || n <= 0) return null;
  const d = await CrackDetection.findOne({ ...WITH_PICTURE, where: { id: n, runId } });
  return d ? rowsOf([d])[0] : null;
}

/** A detection's mask file, if the viewer may see its run's dataset. */
export async function visibleMask(detectionId: unknown, viewer: Viewer): Promise<Buffer | null> {
  const n = Number(detectionId);
  if (!Number.isSafeInteger(n) || n <= 0) return null;
  const d = await CrackDetection.findByPk(n);
  if (!d || !(await findVisibleRun(d.runId, viewer))) return null;
  return readStored(d.maskPath);
}

/**
 * getResults (docs/crack-detection.md "Runs, results and getResults"): the detection rows of the
 * newest completed run of the model named (among runs the viewer may see), at most
 * `INSPECTION_LIMITS.resultsPerCall` of them.
 */
export async function getResults(
  modelName: string,
  viewer: Viewer,
): Promise<{ run: RunView | null; rows: DetectionRow[]; skipped: Array<Omit<SkippedPhotoRow, "reason"> & { reason: string; reasonKey: string }> }> {
  const datasets = await visibleDatasets(viewer);
  if (!datasets.size) return { run: null, rows: [], skipped: [] };
  const run = await InspectionRun.findOne({
    where: { modelName, state: "completed", datasetId: [...datasets.keys()] },
    order: [["id", "DESC"]],
  });
  if (!run) return { run: null, rows: [], skipped: [] };
  const detections = await CrackDetection.findAll({
    ...WITH_PICTURE,
    where: { runId: run.id },
    order: [["position", "ASC"]],
    limit: INSPECTION_LIMITS.resultsPerCall,
  });
  // The photos not detected, each with its reason in English (and the reason's key, for programs).
  const en = (await i18nFor("en")).getFixedT("en", "inspection");
  const skipped = (await skippedPhotos(run.id, INSPECTION_LIMITS.resultsPerCall)).map((p) => ({
    ...p,
    reason: translateMessage(en, p.reason),
    reasonKey: p.reason.split("|")[0].replace(/^inspection:skipped\./, ""),
  }));
  return { run: runView(run, datasets.get(run.datasetId)!, viewer), rows: rowsOf(detections), skipped };
}

// ---------------------------------------------------------------------------------------------
// Starting runs.

export class InspectionRefused extends Error {}

const ACTIVE: InspectionState[] = ["queued", "running"];

/**
 * A signed-in user starts a run over a dataset they may see. Refused (with the message a person
 * can act on): a dataset they cannot see, one without photos or with more than the limit, a
 * scale outside the range, or a run of theirs still going (one at a time per user).
 */
export async function startRun(queue: JobQueue, user: NonNullable<Viewer>, datasetId: unknown, mmPerPixel: number): Promise<InspectionRun> {
  const n = Number(datasetId);
  const dataset = Number.isSafeInteger(n) && n > 0 ? await Dataset.findOne({ where: { [Op.and]: [{ id: n }, visibleWhere(user)] } }) : null;
  if (!dataset) throw new InspectionRefused(INSPECTION_MSG.noDataset);
  if (!(mmPerPixel >= INSPECTION_LIMITS.mmPerPixel.min && mmPerPixel <= INSPECTION_LIMITS.mmPerPixel.max)) throw new InspectionRefused(INSPECTION_MSG.badScale);
  const photos = await Picture.count({ where: { datasetId: dataset.id } });
  if (!photos) throw new InspectionRefused(INSPECTION_MSG.emptyDataset);
  if (photos > INSPECTION_LIMITS.photosPerRun) throw new InspectionRefused(INSPECTION_MSG.tooManyPhotos);
  const info = await detectorInfo();
  // One active run per user: checked and inserted in one write transaction holding the user's
  // row, so two simultaneous starts cannot both pass. The job is queued after the commit.
  const run = await inWriteTransaction(async (transaction) => {
    await User.findByPk(user.id, { transaction, lock: transaction.LOCK.UPDATE });
    if (await InspectionRun.count({ where: { userId: user.id, state: ACTIVE }, transaction })) throw new InspectionRefused(INSPECTION_MSG.oneAtATime);
    return InspectionRun.create(
      { userId: user.id, datasetId: dataset.id, modelName: info?.modelName || "ridge-frangi-v1", mmPerPixel, photosTotal: photos },
      { transaction },
    );
  });
  await enqueueRun(queue, run);
  return run;
}

async function enqueueRun(queue: JobQueue, run: InspectionRun): Promise<void> {
  const job = await queue.enqueueJob(
    "inspection",
    { runId: run.id },
    { id: run.userId ?? 0, username: run.userId == null ? "platform" : `user-${run.userId}` },
  );
  await InspectionRun.update({ jobId: job.id }, { where: { id: run.id } });
}

/** The owner cancels their own queued or running run (the job notices before its next photo). */
export async function cancelRun(user: NonNullable<Viewer>, runId: unknown): Promise<boolean> {
  const n = Number(runId);
  if (!Number.isSafeInteger(n) || n <= 0) return false;
  const [moved] = await InspectionRun.update({ state: "cancelled", finishedAt: new Date() }, { where: { id: n, userId: user.id, state: ACTIVE } });
  return moved > 0;
}

// ---------------------------------------------------------------------------------------------
// The job.

const maskDir = (runId: number) => path.posix.join("inspection", `run-${runId}`);

async function writeAtomically(relative: string, bytes: Uint8Array): Promise<void> {
  const full = storedFile(relative);
  await fs.mkdir(path.dirname(full), { recursive: true });
  const tmp = `${full}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await fs.writeFile(tmp, bytes);
  await fs.rename(tmp, full);
}

/** The detector's own bound when no sidecar describes itself (sidecar/inspection/photo.ts). */
const DEFAULT_MAX_PIXELS = 4_000_000;

export interface PhotoForDetection {
  image: Uint8Array;
  mmPerPixel: number;
  /** The photo as a viewer sees it (EXIF orientation applied), when it had to be scaled down or converted. */
  original: { width: number; height: number; format: string } | null;
}

/** A photo the detector cannot be given, and why (a message ref of SKIP_MSG). */
export interface NotDetectable {
  notDetectable: MessageRef;
}

const DETECTABLE = new Set<string>(DETECTABLE_FORMATS);
/** What the sidecar decodes itself (sidecar/inspection/photo.ts); the others are converted here. */
const SENT_AS_IS = new Set(["png", "jpeg"]);

/**
 * The photo as the detector can take it, or why it cannot. A photo larger than the detector
 * accepts (a phone's 12 megapixels against its 4) is scaled down for detection only: the stored
 * original stays what the pages show. Each detected pixel then covers more of the wall, so the
 * scale grows by the same factor and lengths and widths stay in millimetres. It is turned upright
 * first (EXIF orientation), as browsers show it, so the mask lies over the photo on the results
 * page. A GIF or WebP (a dataset takes them; the detector reads PNG and JPEG) is converted to PNG
 * the same way. Not detectable: a photo of more than PICTURE_LIMITS.maxPixels (even scaling it
 * down would decode all of it), another format, a file no decoder reads. A PNG or JPEG whose
 * header sharp cannot read goes to the detector as it is: it may still decode it, or say why not.
 */
export async function fitForDetection(bytes: Uint8Array, mmPerPixel: number, maxPixels: number): Promise<PhotoForDetection | NotDetectable> {
  const unchanged = { image: bytes, mmPerPixel, original: null };
  if (!bytes.length) return { notDetectable: SKIP_MSG.unreadable };
  let meta: Metadata;
  try {
    // The header only (no pixels are decoded), read without the pixel limit so a photo over it is
    // told as such: sharp's metadata() refuses one over limitInputPixels like a damaged file.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    const sniffed = sniffImageType(bytes);
    if (sniffed === "image/png" || sniffed === "image/jpeg") return unchanged;
    return { notDetectable: sniffed ? SKIP_MSG.unreadable : SKIP_MSG.notAnImage };
  }
  const format = meta.format ?? "";
  if (!DETECTABLE.has(format)) return { notDetectable: format ? SKIP_MSG.unsupportedFormat(format) : SKIP_MSG.notAnImage };
  if (!meta.width || !meta.height) return { notDetectable: SKIP_MSG.unreadable };
  const sideways = (meta.orientation ?? 1) >= 5;
  const [width, height] = sideways ? [meta.height, meta.width] : [meta.width, meta.height];
  if (width * height > PICTURE_LIMITS.maxPixels) return { notDetectable: SKIP_MSG.tooManyPixels(width, height, PICTURE_LIMITS.maxPixels) };
  const tooLarge = width * height > maxPixels;
  if (!tooLarge && SENT_AS_IS.has(format)) return unchanged;
  const factor = tooLarge ? Math.sqrt(maxPixels / (width * height)) : 1;
  const box = { width: Math.max(1, Math.floor(width * factor)), height: Math.max(1, Math.floor(height * factor)) };
  let converted: { data: Buffer; info: OutputInfo };
  try {
    // A GIF's first frame (sharp reads one page unless told otherwise).
    const img = sharp(bytes, { limitInputPixels: PICTURE_LIMITS.maxPixels }).rotate();
    const upright = (tooLarge ? img.resize({ ...box, fit: "inside" }) : img).removeAlpha();
    converted = await (tooLarge ? upright.jpeg({ quality: 95 }) : upright.png()).toBuffer({ resolveWithObject: true });
  } catch {
    // A header that promises more than the file holds (cut short, damaged).
    return { notDetectable: SKIP_MSG.unreadable };
  }
  const { data, info } = converted;
  return { image: data, mmPerPixel: mmPerPixel * (width / info.width), original: { width, height, format } };
}

/**
 * Why the detector refused a photo (a user error of DetectCracks): a file no decoder reads is
 * damaged; otherwise the detector's own words (`detail`, English), which the page quotes.
 */
export async function whyRefused(bytes: Uint8Array, detail: string): Promise<MessageRef> {
  try {
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (meta.width && meta.height && meta.width * meta.height > PICTURE_LIMITS.maxPixels)
      return SKIP_MSG.tooManyPixels(meta.width, meta.height, PICTURE_LIMITS.maxPixels);
    // Decoding all of it is what tells a damaged file (a PNG or JPEG cut short fails).
    await sharp(bytes, { limitInputPixels: PICTURE_LIMITS.maxPixels }).raw().toBuffer();
  } catch {
    return SKIP_MSG.unreadable;
  }
  return SKIP_MSG.refused(detail);
}

/**
 * Records that a photo of the run was not detected, and why (one row per photo: a run continued
 * later does not repeat it), and counts it on the run. False when the run is gone meanwhile.
 */
async function recordSkipped(runId: number, pictureId: number, position: number, reason: MessageRef): Promise<boolean> {
  try {
    await InspectionSkippedPhoto.create({ runId, pictureId, position, reason, skippedAt: new Date() });
  } catch (err) {
    if (err instanceof UniqueConstraintError) return true; // another attempt got there first
    if (!(err instanceof ForeignKeyConstraintError)) throw err;
    // The run or the photo was deleted meanwhile: a deleted photo needs no reason.
    return (await InspectionRun.findByPk(runId, { attributes: ["id"] })) != null;
  }
  await InspectionRun.update({ photosSkipped: await InspectionSkippedPhoto.count({ where: { runId } }) }, { where: { id: runId } });
  return true;
}

export async function runInspectionJob(job: JobContext<{ runId: number }>): Promise<unknown> {
  const id = Number(job.payload.runId);
  // Claim: queued (or running, when an earlier attempt died) → running; finished runs stay finished.
  const [claimed] = await InspectionRun.update({ state: "running", startedAt: new Date(), error: null }, { where: { id, state: ACTIVE } });
  if (!claimed) return { runId: id, state: (await InspectionRun.findByPk(id))?.state ?? "missing" };
  const run = (await InspectionRun.findByPk(id))!;
  const pictures = await Picture.findAll({ where: { datasetId: run.datasetId }, order: [["id", "ASC"]], attributes: ["id", "filePath", "size"] });
  // Photos detected or found not detectable by an earlier attempt of this run.
  const done = new Set(
    [
      ...(await CrackDetection.findAll({ where: { runId: id }, attributes: ["pictureId"] })),
      ...(await InspectionSkippedPhoto.findAll({ where: { runId: id }, attributes: ["pictureId"] })),
    ].map((d) => d.pictureId),
  );
  await InspectionRun.update({ photosTotal: pictures.length }, { where: { id } });
  const info = await detectorInfo();
  const maxPixels = info?.maxPixels || DEFAULT_MAX_PIXELS;
  // 0 asks the detector for its own scale; a photo scaled down needs the number itself.
  const mmPerPixel = run.mmPerPixel || info?.defaultMmPerPixel || INSPECTION_LIMITS.mmPerPixel.default;
  let position = 0;
  for (const picture of pictures) {
    position++;
    if (done.has(picture.id)) continue;
    const current = await InspectionRun.findByPk(id, { attributes: ["state"] });
    if (current?.state !== "running") return { runId: id, state: current?.state ?? "missing" };
    // A photo that cannot be detected is not skipped silently: its reason is stored with the run
    // and shown per photo on the run's page; the run goes on.
    const skip = async (reason: MessageRef, detail?: string) => {
      log.warn({ runId: id, pictureId: picture.id, reason, detail }, "photo not detected");
      return recordSkipped(id, picture.id, position, reason);
    };
    const bytes = await readStored(picture.filePath);
    if (!bytes) {
      // The row is there but its file is not (deleted meanwhile, or lost from the storage).
      if (!(await skip(SKIP_MSG.missing))) return { runId: id, state: "missing" };
      continue;
    }
    let reply;
    let fitted: PhotoForDetection | NotDetectable;
    try {
      fitted = await fitForDetection(bytes, mmPerPixel, maxPixels);
    } catch (err) {
      throw new RetryableJobError((err as Error).message);
    }
    if ("notDetectable" in fitted) {
      if (!(await skip(fitted.notDetectable))) return { runId: id, state: "missing" };
      continue;
    }
    const photo = fitted;
    if (photo.original) log.info({ runId: id, pictureId: picture.id, ...photo.original }, "photo scaled down or converted for detection");
    try {
      reply = await unary(
        rpc().inspection.DetectCracks,
        { image: photo.image, mmPerPixel: photo.original ? photo.mmPerPixel : run.mmPerPixel },
        { deadlineMs: 90_000 },
      );
    } catch (err) {
      if (err instanceof SidecarCallError && err.kind === "user") {
        // The detector cannot use this photo: say why, per photo, on the run's page.
        if (!(await skip(await whyRefused(bytes, err.details || err.message), err.details))) return { runId: id, state: "missing" };
        continue;
      }
      throw err instanceof SidecarCallError ? err : new RetryableJobError((err as Error).message);
    }
    const maskPath = `${maskDir(id)}/${picture.id}.mask.png`;
    await writeAtomically(maskPath, reply.maskPng);
    try {
      await CrackDetection.create({
        runId: id,
        pictureId: picture.id,
        position,
        // The row describes the photo as uploaded, not the copy the detector saw.
        format: photo.original?.format ?? reply.format,
        width: photo.original?.width ?? reply.width,
        height: photo.original?.height ?? reply.height,
        fileSize: bytes.length,
        isCrack: reply.hasCrack,
        lengthMm: reply.lengthMm,
        maxWidthMm: reply.maxWidthMm,
        meanWidthMm: reply.meanWidthMm,
        pieces: reply.pieces,
        maskPath,
        elapsedMs: reply.elapsedMs,
        detectedAt: new Date(),
      });
    } catch (err) {
      // A unique clash: another attempt got there first, and its row owns the same mask path.
      if (!(err instanceof UniqueConstraintError)) {
        // No row owns the mask (the run or its dataset was deleted meanwhile): the file goes too.
        await removeStored([maskPath]);
        if (err instanceof ForeignKeyConstraintError || !(await InspectionRun.findByPk(id, { attributes: ["id"] }))) return { runId: id, state: "missing" };
        throw err;
      }
    }
    const [doneCount, cracks] = await Promise.all([
      CrackDetection.count({ where: { runId: id } }),
      CrackDetection.count({ where: { runId: id, isCrack: true } }),
    ]);
    await InspectionRun.update({ photosDone: doneCount, cracksFound: cracks }, { where: { id } });
    await job.progress(Math.round((100 * position) / pictures.length));
  }
  await InspectionRun.update({ state: "completed", finishedAt: new Date() }, { where: { id, state: "running" } });
  return { runId: id, state: "completed" };
}

/**
 * Start-up: register the job, and hand every run that has no live job to the queue again:
 * the platform run the seeding step queued (npm run -s seed; no job yet) and, in-process, runs the last process left
 * queued or running (they continue from their last detected photo).
 */
export async function registerInspectionJobs(queue: JobQueue): Promise<void> {
  queue.registerJobHandler(
    "inspection",
    async (job) => {
      try {
        // No compute server online or answering (or all busy): the run waits as queued and asks
        // again, without spending an attempt (app/.server/queue.server.ts untilSidecarServes); it
        // continues from its last detected photo. A cancel meanwhile is seen at the next claim.
        return await untilSidecarServes(() => runInspectionJob(job), {
          onWait: async () => void (await InspectionRun.update({ state: "queued" }, { where: { id: job.payload.runId, state: "running" } })),
        });
      } catch (err) {
        // A failure the queue will not retry (bad input, a bug), or the last attempt: say why on
        // the run. Otherwise the queue tries again, and the run waits for it as queued.
        if (!isRetryable(err) || job.attempt >= job.maxAttempts)
          await InspectionRun.update(
            {
              state: "failed",
              // A compute server's failure: its status, translated on the page; never its raw text
              // (which may name its internal address: the log has it, sidecar.server.ts).
              error:
                err instanceof SidecarCallError && err.kind !== "user"
                  ? messageRef("inspection:runs.computeFailed", { status: grpc.status[err.code] ?? String(err.code) })
                  : (err as Error).message,
              finishedAt: new Date(),
            },
            { where: { id: job.payload.runId, state: ACTIVE } },
          );
        else await InspectionRun.update({ state: "queued" }, { where: { id: job.payload.runId, state: "running" } });
        throw err;
      }
    },
    { concurrency: 1 },
  );
  const stranded = await InspectionRun.findAll({
    where: queue.backend === "memory" ? { state: ACTIVE } : { state: "queued", jobId: null },
  }).catch(() => [] as InspectionRun[]);
  for (const run of stranded) {
    if (queue.backend === "memory") await InspectionRun.update({ state: "queued" }, { where: { id: run.id, state: ACTIVE } });
    await enqueueRun(queue, run).catch((err) => log.warn({ err: (err as Error).message, runId: run.id }, "could not queue an inspection run"));
  }
}
