// Datasets and their pictures, with visibility decided here and only here: a viewer sees
// public datasets and their own; anything else is "not found" (404), so a private dataset's
// existence never leaks. Changing a dataset (upload, delete) needs ownership on top.
import fs from "node:fs";
import path from "node:path";
import { ForeignKeyConstraintError, Op, type WhereOptions } from "sequelize";
import { ConceptResult, CrackDetection, Dataset, InspectionRun, Picture, InferenceCache, User, VqaResult, sequelize, inWriteTransaction } from "./db.server.ts";
import type { CurrentUser } from "./session.server.ts";
import type { UploadedFile } from "./uploads.server.ts";
import { ForbiddenError, NotFoundError, orRefusal, refusalResponse } from "./domainErrors.server.ts";
import { PICTURE_LIMITS, PictureRejected, displayNameOf, preparePicture, removeStored, storePicture } from "./pictures.server.ts";
import { DATASET_MSG, PICTURES_PER_PAGE, PICTURES_PER_PREVIEW, PREVIEWS_PER_PAGE, datasetNameField } from "../lib/rules/datasets.ts";

export { PICTURES_PER_PAGE, PREVIEWS_PER_PAGE, PICTURES_PER_PREVIEW };
export const NO_MATCH = DATASET_MSG.noMatch;

/** The area's messages (message refs), app/lib/rules/datasets.ts. */
export const MSG = DATASET_MSG;

export type Viewer = Pick<CurrentUser, "id" | "username"> | null;

export interface PictureView {
  id: number;
  url: string;
  thumbUrl: string;
  name: string;
  label: string | null;
  width: number;
  height: number;
}

export interface DatasetView {
  id: number;
  name: string;
  isPublic: boolean;
  owner: string | null;
  isOwn: boolean;
  platform: boolean;
  pictureCount: number;
}

export const pictureView = (p: Picture): PictureView => ({
  id: p.id,
  url: `/picture/${p.id}`,
  thumbUrl: `/picture/${p.id}?size=thumb`,
  name: p.displayName,
  label: p.label ?? null,
  width: p.width,
  height: p.height,
});

export function visibleWhere(viewer: Viewer): WhereOptions<Dataset> {
  return viewer ? { [Op.or]: [{ isPublic: true }, { ownerId: viewer.id }] } : { isPublic: true };
}

/** How a TCAV result names a dataset used as a concept (concept_results.concepts). */
export const conceptRef = (datasetId: number) => `dataset:${datasetId}`;

async function ownerNames(ids: (number | null)[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((x): x is number => x != null))];
  if (!wanted.length) return new Map();
  const users = await User.findAll({ where: { id: wanted }, attributes: ["id", "username"] });
  return new Map(users.map((u) => [u.id, u.username]));
}

export async function toViews(datasets: Dataset[], viewer: Viewer): Promise<DatasetView[]> {
  const names = await ownerNames(datasets.map((d) => d.ownerId));
  const counts = new Map<number, number>();
  if (datasets.length) {
    const rows = (await Picture.findAll({
      attributes: ["datasetId", [sequelize.fn("COUNT", sequelize.col("id")), "n"]],
      where: { datasetId: datasets.map((d) => d.id) },
      group: ["datasetId"],
      raw: true,
    })) as unknown as { datasetId: number; n: number | string }[];
    for (const r of rows) counts.set(Number(r.datasetId), Number(r.n));
  }
  return datasets.map((d) => ({
    id: d.id,
    name: d.name,
    isPublic: Boolean(d.isPublic),
    owner: d.ownerId == null ? null : (names.get(d.ownerId) ?? null),
    isOwn: viewer != null && d.ownerId === viewer.id,
    platform: d.ownerId == null,
    pictureCount: counts.get(d.id) ?? 0,
  }));
}

export async function datasetView(d: Dataset, viewer: Viewer): Promise<DatasetView> {
  return (await toViews([d], viewer))[0];
}

/** The dataset if the viewer may see it, else null (callers answer 404). */
export async function findVisibleDataset(id: unknown, viewer: Viewer): Promise<Dataset | null> {
  const n = Number(id);
  if (!Number.isSafeInteger(n) || n <= 0) return null;
  return Dataset.findOne({ where: { [Op.and]: [{ id: n }, visibleWhere(viewer)] } });
}

/** Route guard: the dataset if the viewer may see it, else the 404 answer. */
export async function requireVisibleDataset(id: unknown, viewer: Viewer): Promise<Dataset> {
  const d = await findVisibleDataset(id, viewer);
  if (!d) throw refusalResponse(new NotFoundError(MSG.notFound));
  return d;
}

/** For changes: NotFoundError when the viewer cannot even see it, ForbiddenError when they can but do not own it. */
export async function ownDataset(id: unknown, user: NonNullable<Viewer>): Promise<Dataset> {
  const d = await findVisibleDataset(id, user);
  if (!d) throw new NotFoundError(MSG.notFound);
  if (d.ownerId == null) throw new ForbiddenError(MSG.platformReadOnly);
  if (d.ownerId !== user.id) throw new ForbiddenError(MSG.notOwner);
  return d;
}

/** Route guard over `ownDataset`: its refusal as the 404 or 403 answer. */
export function requireOwnDataset(id: unknown, user: NonNullable<Viewer>): Promise<Dataset> {
  return orRefusal(ownDataset(id, user));
}

/** A picture the viewer may see (its dataset is visible to them), else null. */
export async function findVisiblePicture(id: unknown, viewer: Viewer): Promise<{ picture: Picture; dataset: Dataset } | null> {
  const n = Number(id);
  if (!Number.isSafeInteger(n) || n <= 0) return null;
  // The visibility rule is the join's condition: a picture of a dataset the viewer may not see is not found.
  const picture = await Picture.findByPk(n, { include: [{ association: "dataset", where: visibleWhere(viewer), required: true }] });
  return picture?.dataset ? { picture, dataset: picture.dataset } : null;
}

/** The dataset name rule (app/lib/rules/datasets.ts): required, at most 100 characters, one line, spaces collapsed. */
export function cleanDatasetName(raw: string): { name?: string; error?: string } {
  const r = datasetNameField.safeParse(raw === "" ? undefined : raw);
  return r.success ? { name: r.data } : { error: r.error.issues[0]?.message ?? MSG.nameRequired };
}

export async function createDataset(owner: NonNullable<Viewer>, rawName: string, isPublic: boolean): Promise<{ dataset?: Dataset; error?: string }> {
  const { name, error } = cleanDatasetName(rawName);
  if (error) return { error };
  if (await Dataset.findOne({ where: { ownerId: owner.id, name: name! } })) return { error: MSG.nameTaken };
  return { dataset: await Dataset.create({ name: name!, ownerId: owner.id, isPublic }) };
}

export interface Paged<T> {
  items: T[];
  total: number;
  page: number;
  pageCount: number;
}

export function pageOf(raw: unknown): number {
  const n = Math.floor(Number(raw));
  return Number.isFinite(n) && n >= 1 ? n : 1;
}

export async function listPictures(datasetId: number, page: number, perPage = PICTURES_PER_PAGE): Promise<Paged<PictureView>> {
  const total = await Picture.count({ where: { datasetId } });
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  const p = Math.min(page, pageCount);
  const rows = await Picture.findAll({ where: { datasetId }, order: [["id", "ASC"]], limit: perPage, offset: (p - 1) * perPage });
  return { items: rows.map(pictureView), total, page: p, pageCount };
}

export async function firstPictures(datasetIds: number[], count = PICTURES_PER_PREVIEW): Promise<Map<number, PictureView[]>> {
  const out = new Map<number, PictureView[]>();
  // One small query per dataset: a page holds three datasets, so this stays cheap on both dialects.
  for (const id of datasetIds) {
    const rows = await Picture.findAll({ where: { datasetId: id }, order: [["id", "ASC"]], limit: count });
    out.set(id, rows.map(pictureView));
  }
  return out;
}

export type SearchType = "name" | "user";

export interface DatasetPreview extends DatasetView {
  pictures: PictureView[];
}

/**
 * The dataset search (the original's getVisibleDataset / blurredFindDatasetByName /
 * getUserDatasets): fuzzy (case-insensitive substring) by dataset name, or exact by owner's user
 * name, always within what the viewer may see. Empty text lists every visible dataset.
 */
export async function searchDatasets(
  viewer: Viewer,
  opts: { type?: SearchType; q?: string; page?: number; perPage?: number; onlyUsers?: boolean },
): Promise<Paged<DatasetPreview> & { noMatch: boolean }> {
  const q = (opts.q ?? "").trim();
  const perPage = opts.perPage ?? PREVIEWS_PER_PAGE;
  const conditions: WhereOptions<Dataset>[] = [visibleWhere(viewer)];
  // The gallery's 'Other benchmark datasets' tab: only what users shared publicly.
  if (opts.onlyUsers) conditions.push({ ownerId: { [Op.ne]: null }, isPublic: true });
  if (q && opts.type === "user") {
    const owner = await User.findOne({ where: { username: q }, attributes: ["id"] });
    conditions.push({ ownerId: owner ? owner.id : -1 });
  } else if (q) {
    // INSTR exists in SQLite and MySQL alike and needs no LIKE-wildcard escaping.
    conditions.push(sequelize.where(sequelize.fn("instr", sequelize.fn("lower", sequelize.col("name")), q.toLowerCase()), Op.gt, 0) as WhereOptions<Dataset>);
  }
  const where = { [Op.and]: conditions };
  const total = await Dataset.count({ where });
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  const page = Math.min(opts.page ?? 1, pageCount);
  const rows = await Dataset.findAll({ where, order: [["id", "ASC"]], limit: perPage, offset: (page - 1) * perPage });
  const views = await toViews(rows, viewer);
  const pics = await firstPictures(rows.map((r) => r.id));
  return { items: views.map((v) => ({ ...v, pictures: pics.get(v.id) ?? [] })), total, page, pageCount, noMatch: total === 0 && q !== "" };
}

export interface UploadOutcome {
  saved: number;
  rejected: string[];
  /** A limit that refused the whole request (size or count), in words. */
  error?: string;
}

/** Stores the uploaded images of one request into a dataset the user owns. */
export async function uploadPictures(
  user: NonNullable<Viewer>,
  datasetId: unknown,
  files: UploadedFile[],
  limitError?: { code: string },
): Promise<UploadOutcome> {
  const dataset = await requireOwnDataset(datasetId, user);
  if (limitError) {
    const error = limitError.code === "LIMIT_FILE_SIZE" ? MSG.tooBig : limitError.code === "LIMIT_FILE_COUNT" ? MSG.tooMany : MSG.uploadUnreadable;
    return { saved: 0, rejected: [], error };
  }
  const pictures = files.filter((f) => f.size > 0 || f.originalName);
  if (!pictures.length) return { saved: 0, rejected: [], error: MSG.noFiles };
  if (pictures.length > PICTURE_LIMITS.maxFiles) return { saved: 0, rejected: [], error: MSG.tooMany };
  const rejected: string[] = [];
  let saved = 0;
  for (const f of pictures) {
    try {
      // Pages stream pictures to disk (uploads.server.ts UPLOAD_ROUTES): read from the file, never held whole.
      const prepared = await preparePicture(f.path ? { path: f.path, size: f.size } : f.buffer, f.originalName);
      const stored = await storePicture(prepared);
      try {
        await Picture.create({
          datasetId: dataset.id,
          filePath: stored.filePath,
          thumbPath: stored.thumbPath,
          mimeType: prepared.mimeType,
          size: prepared.size,
          width: prepared.width,
          height: prepared.height,
          displayName: displayNameOf(f.originalName),
        });
      } catch (e) {
        // No row, no file: never leave bytes on disk that nothing points to.
        await removeStored([stored.filePath, stored.thumbPath]);
        // The dataset was deleted while this upload ran: the deletion wins, cleanly.
        if (e instanceof ForeignKeyConstraintError || !(await Dataset.findByPk(dataset.id))) return { saved, rejected, error: MSG.deletedMeanwhile };
        throw e;
      }
      saved++;
    } catch (e) {
      if (e instanceof PictureRejected) rejected.push(e.message);
      else throw e;
    }
  }
  return { saved, rejected };
}

/**
 * The pictures a deletion names, all of a dataset the user owns (404 when they cannot see it, 403
 * when they do not own it, 404 when one picture is not of that dataset): used for the
 * confirmation step as for the deletion itself.
 */
export async function ownPictures(user: NonNullable<Viewer>, datasetId: unknown, rawIds: unknown[]): Promise<Picture[]> {
  const dataset = await ownDataset(datasetId, user);
  const ids = [...new Set(rawIds.map(Number).filter((n) => Number.isSafeInteger(n) && n > 0))];
  if (!ids.length) return [];
  const pictures = await Picture.findAll({ where: { id: ids }, order: [["id", "ASC"]] });
  // A picture of another dataset in the list is someone else's business: not found, nothing deleted.
  if (pictures.length !== ids.length || pictures.some((p) => p.datasetId !== dataset.id)) throw new NotFoundError(MSG.notFound);
  return pictures;
}

/** Deletes pictures of a dataset the user owns: rows (and cached explanations and answers) first, then their files. */
export async function deletePictures(user: NonNullable<Viewer>, datasetId: unknown, rawIds: unknown[]): Promise<number> {
  return removePictureRows(await ownPictures(user, datasetId, rawIds));
}

async function removePictureRows(pictures: Picture[]): Promise<number> {
  if (!pictures.length) return 0;
  const ids = pictures.map((p) => p.id);
  const cached = await InferenceCache.findAll({ where: { pictureId: ids } });
  // Every derived file goes with the row that owns it (docs/security.md "Files"): crack-detection
  // masks of these pictures too, whose rows the pictures' foreign key would drop silently.
  const masks = await inWriteTransaction(async (t) => {
    const detections = await CrackDetection.findAll({ where: { pictureId: ids }, attributes: ["maskPath"], transaction: t });
    await CrackDetection.destroy({ where: { pictureId: ids }, transaction: t });
    await InferenceCache.destroy({ where: { pictureId: ids }, transaction: t });
    await VqaResult.destroy({ where: { pictureId: ids }, transaction: t });
    await Picture.destroy({ where: { id: ids }, transaction: t });
    return detections.map((d) => d.maskPath);
  });
  await removeStored([...pictures.flatMap((p) => [p.filePath, p.thumbPath]), ...cached.flatMap((c) => [c.heatmapPath, c.overlayPath]), ...masks]);
  return ids.length;
}

/**
 * Deletes a whole dataset the user owns, with every picture and file of it. Rows go in one write
 * transaction that holds the dataset (an upload running at the same time either lands before it,
 * and its files are among those removed, or finds the dataset gone and removes its own files);
 * the files go after the commit, so no row ever points at a missing file.
 */
export async function deleteDataset(user: NonNullable<Viewer>, datasetId: unknown): Promise<void> {
  const dataset = await requireOwnDataset(datasetId, user);
  const files = await inWriteTransaction(async (transaction) => {
    await Dataset.findByPk(dataset.id, { transaction, lock: transaction.LOCK.UPDATE });
    const pictures = await Picture.findAll({ where: { datasetId: dataset.id }, transaction });
    const ids = pictures.map((p) => p.id);
    const cached = ids.length ? await InferenceCache.findAll({ where: { pictureId: ids }, transaction }) : [];
    // Crack-detection runs over this dataset and their masks (the foreign keys would drop the rows
    // and leave the mask files behind).
    const runIds = (await InspectionRun.findAll({ where: { datasetId: dataset.id }, attributes: ["id"], transaction })).map((r) => r.id);
    const detectionsOf = { [Op.or]: [...(runIds.length ? [{ runId: runIds }] : []), ...(ids.length ? [{ pictureId: ids }] : [])] };
    const masks = runIds.length || ids.length ? await CrackDetection.findAll({ where: detectionsOf, attributes: ["maskPath"], transaction }) : [];
    if (masks.length) await CrackDetection.destroy({ where: detectionsOf, transaction });
    if (runIds.length) await InspectionRun.destroy({ where: { id: runIds }, transaction });
    if (ids.length) {
      await InferenceCache.destroy({ where: { pictureId: ids }, transaction });
      await VqaResult.destroy({ where: { pictureId: ids }, transaction });
      await Picture.destroy({ where: { id: ids }, transaction });
    }
    // TCAV results that used this dataset as a concept (app/.server/concepts.server.ts keeps its
    // id as the last entry of `concepts`): their scores described pictures that are gone.
    await ConceptResult.destroy({
      where: { [Op.or]: [{ concepts: conceptRef(dataset.id) }, { concepts: { [Op.like]: `%,${conceptRef(dataset.id)}` } }] },
      transaction,
    });
    await Dataset.destroy({ where: { id: dataset.id }, transaction });
    return [...pictures.flatMap((p) => [p.filePath, p.thumbPath]), ...cached.flatMap((c) => [c.heatmapPath, c.overlayPath]), ...masks.map((m) => m.maskPath)];
  });
  await removeStored(files);
}

/** The platform's installed datasets (seeded from data on this server), keyed by slug. */
export async function platformDatasets(): Promise<Dataset[]> {
  return Dataset.findAll({ where: { ownerId: null, isPublic: true }, order: [["id", "ASC"]] });
}

export async function ownDatasets(user: NonNullable<Viewer>): Promise<Dataset[]> {
  return Dataset.findAll({ where: { ownerId: user.id }, order: [["id", "ASC"]] });
}

// ---------------------------------------------------------------------------------------------
// The public gallery (/datasetPreview): the nine Meta-rank benchmark datasets and the
// platform's installed ones, with their introductions from seeds/datasetIntros/*.json.

export const META_RANK_DATASETS = ["cifar", "imagenet", "voc", "coco", "cub", "cars", "nwpu", "food", "places"] as const;
export const DATA_DETAILS_WARNING = DATASET_MSG.dataDetailsWarning;

export interface DatasetIntro {
  key: string;
  title: string;
  slug: string | null;
  en: string[];
  zh: string[];
  references: { label: string; url: string }[];
}

let introCache: Map<string, DatasetIntro> | null = null;

export function datasetIntros(): Map<string, DatasetIntro> {
  if (introCache) return introCache;
  const dir = path.resolve(process.env.DATASET_INTROS_DIR ?? "seeds/datasetIntros");
  const map = new Map<string, DatasetIntro>();
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const intro = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as DatasetIntro;
    map.set(intro.key, intro);
  }
  introCache = map;
  return map;
}

export interface GalleryCard {
  key: string;
  title: string;
  /** The installed dataset behind the card, when this server has the data. */
  datasetId: number | null;
  total: number;
  samples: PictureView[];
  metaRank: boolean;
}

/** Cards for the nine Meta-rank datasets (real samples only where an installed dataset has that slug) and the installed ones. */
export async function galleryCards(): Promise<GalleryCard[]> {
  const intros = datasetIntros();
  const installed = await platformDatasets();
  const bySlug = new Map(installed.filter((d) => d.slug).map((d) => [d.slug!, d]));
  const keys = [...META_RANK_DATASETS, ...installed.map((d) => d.slug!).filter((s) => s && !(META_RANK_DATASETS as readonly string[]).includes(s))];
  const cards: GalleryCard[] = [];
  for (const key of keys) {
    const ds = bySlug.get(key) ?? null;
    const samples = ds ? ((await firstPictures([ds.id])).get(ds.id) ?? []) : [];
    cards.push({
      key,
      title: intros.get(key)?.title ?? ds?.name ?? key,
      datasetId: ds?.id ?? null,
      total: ds ? await Picture.count({ where: { datasetId: ds.id } }) : 0,
      samples,
      metaRank: (META_RANK_DATASETS as readonly string[]).includes(key),
    });
  }
  return cards;
}

/** The i-th picture (0-based) of an installed platform dataset, for the click-to-browse preview. */
export async function platformPictureAt(datasetId: number, index: number): Promise<{ picture: PictureView; index: number; total: number } | null> {
  const total = await Picture.count({ where: { datasetId } });
  if (!total) return null;
  const i = Math.min(Math.max(0, Math.floor(index) || 0), total - 1);
  const row = await Picture.findOne({ where: { datasetId }, order: [["id", "ASC"]], offset: i });
  return row ? { picture: pictureView(row), index: i, total } : null;
}
