// Labelling a user's own datasets (/labelPage, docs/datasets.md "Labelling"): the dataset's class
// list, the labels of its pictures, and the progress. Only the owner may see or change any of it:
// another user's dataset, public or not, and the platform's installed ones answer 404 here, in the
// loader as in the action, so the page never tells a stranger that a dataset exists.
//
// Storage: the class list is datasets.class_names (JSON array of names), the column the seeding
// step (seeds/steps/) already fills for the platform's datasets; a picture's label is pictures.label, which the
// classification demo shows as the ground truth. Invariant kept by this module: every label of a
// user's dataset is one of its classes (a label is checked against the list, and a class that
// labels pictures cannot be removed), both in a write transaction that locks the dataset row,
// so a label and a class removal cannot cross.
import { Op, type Transaction } from "sequelize";
import { Dataset, Picture, sequelize, inWriteTransaction } from "./db.server.ts";
import { listPictures, type Paged, type PictureView, type Viewer } from "./datasets.server.ts";
import { NotFoundError, orRefusal } from "./domainErrors.server.ts";
import { LABELS_PER_PAGE, LABEL_MSG, parseClassList, type LabelEntry } from "../lib/rules/labels.ts";
import { DATASET_MSG } from "../lib/rules/datasets.ts";

export { LABEL_MSG };

type User = NonNullable<Viewer>;

/** A dataset's classes, in their order (the digit shortcuts' order); [] when none are defined. */
export function classesOf(d: Pick<Dataset, "classNames">): string[] {
  if (!d.classNames) return [];
  try {
    const v = JSON.parse(d.classNames) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/** The user's own dataset, else NotFoundError (never 403: whether someone else's dataset exists is not said). */
async function labellingDataset(id: unknown, user: User): Promise<Dataset> {
  const n = Number(id);
  if (!Number.isSafeInteger(n) || n <= 0) throw new NotFoundError(DATASET_MSG.notFound);
  const d = await Dataset.findOne({ where: { id: n, ownerId: user.id } });
  if (!d) throw new NotFoundError(DATASET_MSG.notFound);
  return d;
}

/** Route guard over `labellingDataset`: another user's dataset is the 404 answer. */
export function requireLabellingDataset(id: unknown, user: User): Promise<Dataset> {
  return orRefusal(labellingDataset(id, user));
}

export interface Progress {
  labelled: number;
  total: number;
}

/** Labelled and total pictures per dataset, in one grouped query (COUNT(label) skips nulls). */
export async function progressOf(datasetIds: number[]): Promise<Map<number, Progress>> {
  const out = new Map<number, Progress>(datasetIds.map((id) => [id, { labelled: 0, total: 0 }]));
  if (!datasetIds.length) return out;
  const rows = (await Picture.findAll({
    attributes: ["datasetId", [sequelize.fn("COUNT", sequelize.col("id")), "total"], [sequelize.fn("COUNT", sequelize.col("label")), "labelled"]],
    where: { datasetId: datasetIds },
    group: ["datasetId"],
    raw: true,
  })) as unknown as { datasetId: number; total: number | string; labelled: number | string }[];
  for (const r of rows) out.set(Number(r.datasetId), { labelled: Number(r.labelled), total: Number(r.total) });
  return out;
}

export interface LabellingListItem {
  id: number;
  name: string;
  isPublic: boolean;
  classes: number;
  progress: Progress;
}

/** The user's datasets with their labelling progress (the page without a dataset chosen). */
export async function labellingList(user: User): Promise<LabellingListItem[]> {
  const datasets = await Dataset.findAll({ where: { ownerId: user.id }, order: [["id", "ASC"]] });
  const progress = await progressOf(datasets.map((d) => d.id));
  return datasets.map((d) => ({
    id: d.id,
    name: d.name,
    isPublic: Boolean(d.isPublic),
    classes: classesOf(d).length,
    progress: progress.get(d.id) ?? { labelled: 0, total: 0 },
  }));
}

/** How many pictures of each class (labels are compared here, not in SQL: MariaDB's collation would merge "a" and "A"). */
async function classCounts(datasetId: number): Promise<Map<string, number>> {
  const rows = (await Picture.findAll({ attributes: ["label"], where: { datasetId, label: { [Op.ne]: null } }, raw: true })) as unknown as {
    label: string;
  }[];
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.label, (counts.get(r.label) ?? 0) + 1);
  return counts;
}

/** A picture's 0-based position in its dataset (pictures are listed by id everywhere). */
async function positionOf(datasetId: number, pictureId: number): Promise<number> {
  return Picture.count({ where: { datasetId, id: { [Op.lt]: pictureId } } });
}

const pageAndIndex = (position: number) => ({ page: Math.floor(position / LABELS_PER_PAGE) + 1, at: position % LABELS_PER_PAGE });

export interface LabellingScreen {
  dataset: { id: number; name: string };
  classes: { name: string; count: number }[];
  progress: Progress;
  pictures: Paged<PictureView>;
  /** The current picture's index on the page (the one-by-one view, the keyboard's target). */
  at: number;
}

/**
 * One page of a dataset to label. Without a page the screen opens where the work is: the page
 * of the first unlabelled picture, that picture current.
 */
export async function labellingScreen(user: User, datasetId: unknown, page: number | null, at: number | null): Promise<LabellingScreen> {
  const dataset = await labellingDataset(datasetId, user);
  let wanted = { page: page ?? 1, at };
  if (page == null) {
    const first = await Picture.findOne({ where: { datasetId: dataset.id, label: null }, order: [["id", "ASC"]], attributes: ["id"] });
    if (first) wanted = pageAndIndex(await positionOf(dataset.id, first.id));
  }
  const pictures = await listPictures(dataset.id, wanted.page, LABELS_PER_PAGE);
  let current = wanted.at ?? pictures.items.findIndex((p) => p.label == null);
  if (current < 0) current = 0;
  current = Math.min(current, Math.max(0, pictures.items.length - 1));
  const counts = await classCounts(dataset.id);
  const progress = (await progressOf([dataset.id])).get(dataset.id)!;
  return {
    dataset: { id: dataset.id, name: dataset.name },
    classes: classesOf(dataset).map((name) => ({ name, count: counts.get(name) ?? 0 })),
    progress,
    pictures,
    at: current,
  };
}

/** The dataset row, locked for the rest of the transaction (and re-checked: it may have been deleted meanwhile). */
async function lockOwnDataset(id: number, user: User, transaction: Transaction): Promise<Dataset> {
  const d = await Dataset.findOne({ where: { id, ownerId: user.id }, transaction, lock: transaction.LOCK.UPDATE });
  if (!d) throw new NotFoundError(DATASET_MSG.notFound);
  return d;
}

/**
 * Replaces the class list (typed one class a line). A class that still labels pictures cannot be
 * removed: the change is refused with a message naming those classes, and nothing changes (the
 * owner relabels those pictures first). Refusing rather than clearing keeps work from vanishing
 * on a typo, e.g. a class renamed by retyping it.
 */
export async function setClasses(user: User, datasetId: unknown, text: string): Promise<{ classes?: string[]; error?: string }> {
  // Ownership first: a stranger learns nothing from the rule's message.
  const dataset = await labellingDataset(datasetId, user);
  const parsed = parseClassList(text);
  if (!parsed.ok) return { error: parsed.error };
  return inWriteTransaction(async (transaction) => {
    const d = await lockOwnDataset(dataset.id, user, transaction);
    const kept = new Set(parsed.classes);
    const labels = (await Picture.findAll({
      attributes: ["label"],
      where: { datasetId: d.id, label: { [Op.ne]: null } },
      transaction,
      raw: true,
    })) as unknown as {
      label: string;
    }[];
    const orphaned = labels.filter((r) => !kept.has(r.label));
    if (orphaned.length) return { error: LABEL_MSG.classesInUse([...new Set(orphaned.map((r) => r.label))], orphaned.length) };
    await d.update({ classNames: JSON.stringify(parsed.classes) }, { transaction });
    return { classes: parsed.classes };
  });
}

/**
 * Sets (or clears, label null) the labels of pictures of the user's dataset, all or none: every
 * picture must belong to the dataset (else 404, nothing written) and every label must be one of
 * its classes as they are at commit time (else the message, nothing written).
 */
export async function setLabels(user: User, datasetId: unknown, entries: LabelEntry[]): Promise<{ changed?: number; error?: string }> {
  const dataset = await labellingDataset(datasetId, user);
  if (!entries.length) return { error: LABEL_MSG.noLabels };
  if (entries.length > LABELS_PER_PAGE) return { error: LABEL_MSG.tooManyLabels };
  return inWriteTransaction(async (transaction) => {
    const d = await lockOwnDataset(dataset.id, user, transaction);
    const ids = [...new Set(entries.map((e) => e.pictureId))];
    const pictures = await Picture.findAll({ where: { id: ids }, transaction });
    // A picture of another dataset (anyone's) is not this page's business: not found, nothing written.
    if (pictures.length !== ids.length || pictures.some((p) => p.datasetId !== d.id)) throw new NotFoundError(DATASET_MSG.notFound);
    const classes = new Set(classesOf(d));
    const bad = entries.find((e) => e.label !== null && !classes.has(e.label));
    if (bad) return { error: LABEL_MSG.notAClass(bad.label!) };
    const wanted = new Map(entries.map((e) => [e.pictureId, e.label]));
    let changed = 0;
    for (const p of pictures) {
      const label = wanted.get(p.id) ?? null;
      if ((p.label ?? null) === label) continue;
      await p.update({ label }, { transaction });
      changed++;
    }
    return { changed };
  });
}

/** Where the one-by-one view goes after labelling a picture: the next picture, on the next page when it is there. */
export async function nextAfter(datasetId: number, pictureId: number): Promise<{ page: number; at: number }> {
  const [position, total] = await Promise.all([positionOf(datasetId, pictureId), Picture.count({ where: { datasetId } })]);
  return pageAndIndex(Math.min(position + 1, Math.max(0, total - 1)));
}

export interface LabelledDataset {
  id: number;
  name: string;
  classes: string[];
  pictures: number;
}

/**
 * The user's datasets that are ready to train on: at least one class and one picture, and every
 * picture labelled (with one of the classes, by the invariant above). For the training-task page.
 */
export async function fullyLabelledDatasets(userId: number): Promise<LabelledDataset[]> {
  const datasets = await Dataset.findAll({ where: { ownerId: userId }, order: [["id", "ASC"]] });
  const progress = await progressOf(datasets.map((d) => d.id));
  const out: LabelledDataset[] = [];
  for (const d of datasets) {
    const p = progress.get(d.id)!;
    const classes = classesOf(d);
    if (classes.length && p.total > 0 && p.labelled === p.total) out.push({ id: d.id, name: d.name, classes, pictures: p.total });
  }
  return out;
}
