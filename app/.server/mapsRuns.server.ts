// Verified evaluations (docs/evaluation.md "Path 2: attribution maps from any framework"): a
// researcher uploads one zip of attribution maps (`<task>.npy` per task of a suite, computed in any
// framework on the suite kit's images); the platform runs MoRF and LeRF with those maps on the
// suite's own models (the sidecar's Evaluation.RunMaps, as a queued job with progress) and the
// result files it writes become the researcher's draft, marked verified.
//
// Everything the app can check without the models is checked here, before a job is queued, so
// most mistakes get a message at once: a readable zip, one `.npy` per task and nothing else,
// NumPy headers with a float dtype, C order, N×H×W or N×H×W×C, N = the split's size, H, W and C
// the task's input where the suite records its network, sizes that match the files. The sidecar
// checks the rest (the same shapes against the models it loads, finite values) and its
// message reaches the run's status. The upload was streamed to disk by the multipart middleware
// (uploads.server.ts MAPS_UPLOAD); it is moved under var/uploads/maps before the row that names
// it is written, and it stays there as the evidence behind the verified numbers.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import yauzl from "yauzl";
import { Op } from "sequelize";
import { EvaluationRun, SubmissionDraft, User, inWriteTransaction, type Suite } from "./db.server.ts";
import type { Transaction } from "sequelize";
import { enqueueJob, type JobUser } from "./queue.server.ts";
import { logger } from "./logger.server.ts";
import { MAPS_DAILY_LIMIT, MAPS_MAX_BYTES, MAPS_MAX_UNPACKED_BYTES, checkMapsShape, mapsMessage, mib } from "~/lib/rules/maps.ts";
import { cleanFileName, mapsDir, storeFile, storedPath } from "./submissionFiles.server.ts";
import { MSG, mapsMethodSchema } from "~/lib/rules/submission.ts";
import { parseForm } from "~/lib/forms/parse.ts";
import { NpyError, NPY_HEADER_PREFIX_BYTES, parseNpyHeader } from "../../sidecar/inference/evaluation/npy.ts";
import type { MessageRef } from "~/lib/forms/messages.ts";
import { parseTaskModels } from "~/lib/taskModels.ts";
import type { EvaluationState } from "../../models/EvaluationRun.ts";
import type { TaskMaps } from "../../proto/generated/metarank/v1/TaskMaps.ts";

const log = logger("maps");

function mapsPath(name: string): string {
  if (!/^[0-9a-f]{32}\.zip$/.test(name)) throw new Error(`not a stored maps file name: ${name}`);
  return path.join(mapsDir(), name);
}

export interface MapsUpload {
  /** The streamed file (under var/uploads/incoming); this module moves or deletes it. */
  path: string;
  originalName: string;
  size: number;
}

export type StartMapsOutcome = { ok: true; id: number } | { ok: false; status: number; message: MessageRef; errors?: MessageRef[] };

const ACTIVE: EvaluationState[] = ["queued", "running"];

// ---- reading the zip --------------------------------------------------------------------------

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false, strictFileNames: false, validateEntrySizes: true }, (err, zip) =>
      err || !zip ? reject(err ?? new Error("no zip")) : resolve(zip),
    ),
  );
}

function listEntries(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on("entry", (e: yauzl.Entry) => {
      entries.push(e);
      zip.readEntry();
    });
    zip.once("end", () => resolve(entries));
    zip.once("error", reject);
    zip.readEntry();
  });
}

/** The entry's bytes, or only its first `limit` bytes (the .npy header). */
function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, limit = Infinity): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) return reject(err ?? new Error("no stream"));
      const chunks: Buffer[] = [];
      let have = 0;
      let done = false;
      stream.on("data", (c: Buffer) => {
        if (done) return;
        chunks.push(c);
        have += c.length;
        if (have >= limit) {
          done = true;
          stream.destroy();
          resolve(Buffer.concat(chunks).subarray(0, limit));
        }
      });
      stream.once("end", () => !done && resolve(Buffer.concat(chunks)));
      stream.once("error", (e) => !done && reject(e));
    });
  });
}

/** Folders and the clutter archivers add (macOS resource forks, dot files) are not entries of the upload. */
const isClutter = (name: string) => name.endsWith("/") || name.startsWith("__MACOSX/") || path.posix.basename(name).startsWith(".");

/** "maps/fashionmnist_resnet.npy" → "fashionmnist_resnet"; any other name → null. */
const taskOf = (name: string) => {
  const base = path.posix.basename(name);
  return base.toLowerCase().endsWith(".npy") ? base.slice(0, -4) : null;
};

function npyProblem(task: string, err: NpyError): MessageRef {
  // The dtype's name is the same in every language; the sentence around it is translated.
  if (err.problem === "dtype") return mapsMessage("dtype", { task, detail: err.message.match(/got (.+?);/)?.[1] ?? err.message });
  if (err.problem === "byte-order") return mapsMessage("byteOrder", { task });
  if (err.problem === "fortran-order") return mapsMessage("fortran", { task });
  // The two a researcher meets most get their own sentence in each language; the rest (a
  // malformed header, an unknown version) keep the reader's English detail.
  if (err.problem === "not-npy") return mapsMessage("notNumpy", { task });
  if (err.problem === "truncated") return mapsMessage("truncatedNpy", { task });
  return mapsMessage("notNpy", { task, detail: err.message });
}

/**
 * Checks an uploaded maps zip against a suite without unpacking it: returns every problem
 * (a researcher fixes them all at once), or the entries to send, task by task in suite order.
 */
export async function inspectMapsZip(
  file: string,
  tasks: readonly string[],
  images: number,
  inputs: Record<string, readonly [number, number, number] | undefined> = {},
): Promise<{ ok: true } | { ok: false; errors: MessageRef[] }> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(file);
  } catch {
    return { ok: false, errors: [mapsMessage("unreadable")] };
  }
  const errors: MessageRef[] = [];
  try {
    let entries: yauzl.Entry[];
    try {
      entries = (await listEntries(zip)).filter((e) => !isClutter(e.fileName));
    } catch {
      return { ok: false, errors: [mapsMessage("unreadable")] };
    }
    const unpacked = entries.reduce((n, e) => n + e.uncompressedSize, 0);
    if (unpacked > MAPS_MAX_UNPACKED_BYTES) return { ok: false, errors: [mapsMessage("unpackedTooLarge", { limit: mib(MAPS_MAX_UNPACKED_BYTES) })] };
    const seen = new Map<string, yauzl.Entry>();
    for (const e of entries) {
      const task = taskOf(e.fileName);
      if (task === null || !tasks.includes(task)) {
        errors.push(mapsMessage("unknownEntry", { name: cleanFileName(e.fileName, "?"), tasks: tasks.join(", ") }));
        continue;
      }
      if (seen.has(task)) errors.push(mapsMessage("duplicate", { task }));
      else seen.set(task, e);
    }
    for (const task of tasks) if (!seen.has(task)) errors.push(mapsMessage("missingTask", { task }));
    for (const [task, e] of seen) {
      let header;
      try {
        header = parseNpyHeader(await readEntry(zip, e, NPY_HEADER_PREFIX_BYTES));
      } catch (err) {
        if (err instanceof NpyError) errors.push(npyProblem(task, err));
        else errors.push(mapsMessage("unreadable"));
        continue;
      }
      const shape = checkMapsShape(task, header.shape, images, inputs[task]);
      if (shape) errors.push(shape);
      else if (e.uncompressedSize !== header.dataOffset + header.dataBytes)
        errors.push(mapsMessage("size", { task, expected: header.dataOffset + header.dataBytes, actual: e.uncompressedSize }));
    }
  } finally {
    zip.close();
  }
  return errors.length ? { ok: false, errors } : { ok: true };
}

/** Every task's .npy bytes, in suite order, for Evaluation.RunMaps (read when the job runs). */
export async function readMapsForRun(mapsFile: string, tasks: readonly string[]): Promise<TaskMaps[]> {
  const zip = await openZip(mapsPath(mapsFile));
  try {
    const entries = (await listEntries(zip)).filter((e) => !isClutter(e.fileName));
    const out: TaskMaps[] = [];
    for (const task of tasks) {
      const e = entries.find((x) => taskOf(x.fileName) === task);
      if (!e) throw new Error(`the maps zip has no ${task}.npy`);
      out.push({ task, npy: await readEntry(zip, e) });
    }
    return out;
  } finally {
    zip.close();
  }
}

// ---- starting a run ---------------------------------------------------------------------------

/** The user's caps on maps runs: one queued or running at a time, MAPS_DAILY_LIMIT in 24 hours. */
async function capProblem(userId: number, transaction?: Transaction): Promise<{ status: number; message: MessageRef } | null> {
  const active = await EvaluationRun.count({ where: { userId, kind: "maps", state: { [Op.in]: ACTIVE } }, transaction });
  if (active > 0) return { status: 409, message: mapsMessage("busy") };
  const today = await EvaluationRun.count({ where: { userId, kind: "maps", createdAt: { [Op.gte]: new Date(Date.now() - 86_400_000) } }, transaction });
  if (today >= MAPS_DAILY_LIMIT) return { status: 429, message: mapsMessage("daily", { count: MAPS_DAILY_LIMIT }) };
  return null;
}

async function discard(file: string) {
  await fs.rm(file, { force: true }).catch(() => undefined);
}

/**
 * Checks an upload and queues its evaluation. The streamed file is always moved or deleted.
 * A suite without an evaluation split on this platform (the metarank-seed suite) cannot take maps.
 */
export async function startMapsRun(user: JobUser, suite: Suite, upload: MapsUpload | null, methodName: string): Promise<StartMapsOutcome> {
  const refuse = (status: number, message: MessageRef, errors?: MessageRef[]): StartMapsOutcome => ({ ok: false, status, message, errors });
  try {
    const named = parseForm({ method: methodName }, mapsMethodSchema);
    if (!named.ok) return refuse(400, named.errors.method ?? MSG.nameRequired);
    if (!suite.splitImages) return refuse(409, mapsMessage("noSplit", { suite: suite.name }));
    if (!upload || upload.size === 0) return refuse(400, mapsMessage("required"));
    if (!upload.originalName.toLowerCase().endsWith(".zip")) return refuse(400, mapsMessage("notZip"));
    if (upload.size > MAPS_MAX_BYTES) return refuse(413, mapsMessage("tooLarge", { limit: mib(MAPS_MAX_BYTES) }));
    // Checked now so a refused upload costs no zip reading, and again where the run is created.
    const capped = await capProblem(user.id);
    if (capped) return refuse(capped.status, capped.message);

    // Each task's input size, where the suite records its network, so H, W and C are checked now too.
    const models = parseTaskModels(suite.taskModelsJson);
    const inputs = Object.fromEntries(suite.tasks.map((task) => [task, models[task]?.input]));
    const checked = await inspectMapsZip(upload.path, suite.tasks, suite.splitImages, inputs);
    if (!checked.ok) return refuse(400, checked.errors[0], checked.errors);

    // The file first, then the row that names it (a crash between leaves an unused file, never a dangling row).
    const stored = `${crypto.randomBytes(16).toString("hex")}.zip`;
    await fs.mkdir(mapsDir(), { recursive: true });
    await fs.rename(upload.path, mapsPath(stored));
    const name = named.value.method;
    const imageLimit = suite.splitImages;
    // "One queued or running, ten a day" is counted and the run created in one write transaction
    // with the user's row locked (SQLite takes the write lock at BEGIN), so uploads sent at the
    // same moment are counted one after another: the second sees the first run.
    const created = await inWriteTransaction(async (transaction) => {
      await User.findByPk(user.id, { transaction, lock: transaction.LOCK.UPDATE });
      const problem = await capProblem(user.id, transaction);
      if (problem) return problem;
      return EvaluationRun.create(
        {
          userId: user.id,
          suiteId: suite.id,
          kind: "maps",
          mapsFile: stored,
          mapsName: cleanFileName(upload.originalName, "maps.zip"),
          method: name,
          paramsJson: "{}",
          imageLimit,
        },
        { transaction },
      );
    });
    if (!(created instanceof EvaluationRun)) {
      await discard(mapsPath(stored));
      return refuse(created.status, created.message);
    }
    const run = created;
    try {
      const job = await enqueueJob("evaluation", { suite: suite.id, method: name, limit: suite.splitImages, runId: run.id, params: "{}" }, user);
      await EvaluationRun.update({ jobId: job.id }, { where: { id: run.id, jobId: null } });
    } catch (err) {
      log.error({ err, runId: run.id }, "enqueue failed");
      await run.update({ state: "failed", error: mapsMessage("queueDown"), finishedAt: new Date() });
      return refuse(503, mapsMessage("queueDown"));
    }
    log.info({ runId: run.id, suite: suite.id, user: user.id, bytes: upload.size }, "maps evaluation queued");
    return { ok: true, id: run.id };
  } finally {
    if (upload) await discard(upload.path);
  }
}

// ---- when the run has finished ------------------------------------------------------------------

/**
 * Puts a finished run's result files into its owner's draft for the suite, marked verified
 * (the draft's evaluationRunId). The files are written first; the draft row then points at them.
 */
export async function attachToDraft(run: EvaluationRun, morfCsv: string, lerfCsv: string): Promise<void> {
  const morfFile = await storeFile(Buffer.from(morfCsv), ".csv");
  const lerfFile = await storeFile(Buffer.from(lerfCsv), ".csv");
  const base =
    cleanFileName(run.method, "method")
      .replace(/[^\p{L}\p{M}\p{N}_.-]+/gu, "_")
      .slice(0, 80) || "method";
  const values = {
    morfFile,
    morfName: `${base}-morf.csv`,
    lerfFile,
    lerfName: `${base}-lerf.csv`,
    algorithm: run.method,
    resultJson: null,
    evaluationRunId: run.id,
  };
  let draft = await SubmissionDraft.findOne({ where: { userId: run.userId, suiteId: run.suiteId } });
  if (!draft) {
    try {
      draft = await SubmissionDraft.create({ userId: run.userId, suiteId: run.suiteId, ...values });
      return;
    } catch {
      draft = await SubmissionDraft.findOne({ where: { userId: run.userId, suiteId: run.suiteId } });
      if (!draft) throw new Error("the draft could not be written");
    }
  }
  const previous = [draft.morfFile, draft.lerfFile];
  await draft.update(values);
  // Draft files are never shared with a submission (submitting empties the draft).
  for (const name of previous) if (name) await fs.rm(storedPath(name), { force: true }).catch(() => undefined);
}

/** Takes a cancelled run's files out of its owner's draft again, if the draft still holds them. */
export async function detachFromDraft(run: EvaluationRun): Promise<void> {
  const draft = await SubmissionDraft.findOne({ where: { userId: run.userId, suiteId: run.suiteId, evaluationRunId: run.id } });
  if (!draft) return;
  const files = [draft.morfFile, draft.lerfFile];
  const [n] = await SubmissionDraft.update(
    { morfFile: null, morfName: null, lerfFile: null, lerfName: null, resultJson: null, evaluationRunId: null },
    { where: { id: draft.id, evaluationRunId: run.id } },
  );
  if (n) for (const name of files) if (name) await fs.rm(storedPath(name), { force: true }).catch(() => undefined);
}

// ---- what the pages and the API show ---------------------------------------------------------------

export interface MapsRunView {
  id: number;
  suiteId: string;
  method: string;
  mapsName: string | null;
  state: EvaluationState;
  progress: number;
  imagesDone: number;
  imagesTotal: number;
  etaSeconds: number | null;
  currentTask: string | null;
  error: MessageRef | null;
  seconds: number | null;
  backend: string | null;
  metascore: number | null;
  rank: number | null;
  boardSize: number | null;
  createdAt: string;
  finishedAt: string | null;
}

export function toMapsRunView(r: EvaluationRun): MapsRunView {
  return {
    id: r.id,
    suiteId: r.suiteId,
    method: r.method,
    mapsName: r.mapsName,
    state: r.state,
    progress: r.progress,
    imagesDone: r.imagesDone,
    imagesTotal: r.imagesTotal,
    etaSeconds: r.state === "running" ? r.etaSeconds : null,
    currentTask: r.state === "running" ? r.currentTask : null,
    error: r.error,
    seconds: r.seconds,
    backend: r.backend,
    metascore: r.metascore,
    rank: r.metascoreRank,
    boardSize: r.boardSize,
    createdAt: new Date(r.createdAt).toISOString(),
    finishedAt: r.finishedAt ? new Date(r.finishedAt).toISOString() : null,
  };
}

/** One maps run as its owner (or an admin) sees it; null when it does not exist or is not theirs. */
export async function mapsRunView(viewer: { id: number; isAdmin: boolean }, id: number): Promise<MapsRunView | null> {
  if (!Number.isSafeInteger(id) || id < 1) return null;
  const r = await EvaluationRun.findOne({ where: { id, kind: "maps" } });
  if (!r || (r.userId !== viewer.id && !viewer.isAdmin)) return null;
  return toMapsRunView(r);
}

/** The user's latest maps run on a suite (the submission page's status panel). */
export async function latestMapsRun(userId: number, suiteId: string): Promise<MapsRunView | null> {
  const r = await EvaluationRun.findOne({ where: { userId, suiteId, kind: "maps" }, order: [["id", "DESC"]] });
  return r ? toMapsRunView(r) : null;
}
