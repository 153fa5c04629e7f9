// The /tcav page's data (docs/concepts.md): the concept catalogue and the image pool from the
// sidecar's Concepts service, and TCAV results, computed once per parameter set and kept in
// concept_results so a repeat (or a reload of the result URL) is served from the database. A
// picture dataset the viewer may see can be one more concept (docs/concepts.md "A concept from a
// picture dataset"): its first pictures go to the sidecar as a custom concept, and a result that
// used one is shown only to viewers who may still see that dataset.
import crypto from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import sharp from "sharp";
import { Op } from "sequelize";
import { ConceptResult, Dataset, Picture } from "./db.server.ts";
import { conceptRef, findVisibleDataset, toViews, visibleWhere, type Viewer } from "./datasets.server.ts";
import { readStored } from "./pictures.server.ts";
import type { ConceptCatalogueReply__Output } from "../../proto/generated/metarank/v1/ConceptCatalogueReply.ts";
import type { RunTcavReply__Output } from "../../proto/generated/metarank/v1/RunTcavReply.ts";
import { listModels, type TrainedModel } from "./classification.server.ts";
import { SIDECAR_DOWN_MESSAGE, SidecarCallError, rpc, serverStream, unary } from "./sidecar.server.ts";
import { timedCache } from "./timedCache.server.ts";
import { CONCEPT_LIMITS, CONCEPT_MSG } from "~/lib/rules/concepts.ts";

export interface ConceptSlotView {
  name: string;
  available: boolean;
  samples: string[];
}

export interface Catalogue {
  slots: ConceptSlotView[];
  randomSets: number;
  examplesPerSet: number;
  randomSource: string;
  conceptSource: string;
}

const dataUrl = (png: Buffer | Uint8Array) => `data:image/png;base64,${Buffer.from(png).toString("base64")}`;

const catalogue = timedCache(600_000, async (): Promise<Catalogue> => {
  const r: ConceptCatalogueReply__Output = await unary(rpc().concepts.ConceptCatalogue, { samples: 3 }, { deadlineMs: 10_000 });
  return {
    slots: r.concepts.map((c) => ({ name: c.name, available: c.available, samples: c.samplePng.map(dataUrl) })),
    randomSets: r.randomSets,
    examplesPerSet: r.examplesPerSet,
    randomSource: r.randomSource,
    conceptSource: r.conceptSource,
  };
});
/** The 47 slots with 3 sample images each (generated, so the same on every call: cached for 10 minutes). */
export function conceptCatalogue(): Promise<Catalogue> {
  return catalogue.get();
}

/** The "GoogleNet" model slot (docs/product.md "Concepts"): the platform's Inception-style checkpoints, the textured-shapes one first (its ground truth is known). */
export async function conceptModels(): Promise<TrainedModel[]> {
  const models = (await listModels()).filter((m) => m.arch === "inception");
  return models.sort((a, b) => Number(b.dataset === "textured-shapes") - Number(a.dataset === "textured-shapes") || a.id.localeCompare(b.id));
}

export interface PoolView {
  dataset: string;
  layers: string[];
  classNames: string[];
  testAccuracy: number;
  images: { index: number; src: string; label: string }[];
}

export async function conceptPool(modelId: string, seed: number): Promise<PoolView> {
  const r = await unary(rpc().concepts.ConceptPool, { modelId, seed, count: CONCEPT_LIMITS.pool }, { deadlineMs: 15_000 });
  return {
    dataset: r.model?.dataset ?? "",
    layers: r.model?.layers ?? [],
    classNames: r.model?.classNames ?? [],
    testAccuracy: r.model?.testAccuracy ?? 0,
    images: r.images.map((im) => ({ index: im.index, src: dataUrl(im.png), label: im.label })),
  };
}

export interface LayerScoreView {
  layer: string;
  scores: number[];
  mean: number;
  std: number;
  magnitude: number;
  cavAccuracy: number;
  pValue: number | null;
  significant: boolean;
  probe: number;
}

/** A picture dataset used as a concept, as a result remembers it. */
export interface CustomConceptRef {
  name: string;
  datasetId: number;
  /** Its first pictures, shown as the concept's samples (/picture/ID checks visibility again). */
  sampleIds: number[];
}

export interface TcavView {
  id: number;
  custom: CustomConceptRef[];
  modelId: string;
  dataset: string;
  testAccuracy: number;
  imageIndex: number;
  image: string;
  groundTruth: string;
  predicted: string;
  probability: number;
  classInputs: number;
  randomSets: number;
  concepts: { name: string; layers: LayerScoreView[] }[];
  random: { layer: string; scores: number[]; mean: number; std: number }[];
  cavsTrained: number;
  cavsReused: number;
  elapsedMs: number;
  createdAt: string;
}

type StoredResult = RunTcavReply__Output & { custom?: CustomConceptRef[] };

function toView(id: number, createdAt: Date, r: StoredResult): TcavView {
  return {
    id,
    custom: r.custom ?? [],
    modelId: r.model?.id ?? "",
    dataset: r.model?.dataset ?? "",
    testAccuracy: r.model?.testAccuracy ?? 0,
    imageIndex: r.imageIndex,
    image: dataUrl(r.imagePng),
    groundTruth: r.groundTruth,
    predicted: r.predicted,
    probability: r.probability,
    classInputs: r.classInputs,
    randomSets: r.randomSets,
    concepts: r.concepts.map((c) => ({
      name: c.name,
      layers: c.layers.map((l) => ({ ...l, pValue: Number.isFinite(l.pValue) ? l.pValue : null })),
    })),
    random: r.random,
    cavsTrained: r.cavsTrained,
    cavsReused: r.cavsReused,
    elapsedMs: r.elapsedMs,
    createdAt: createdAt.toISOString(),
  };
}

export interface TcavParams {
  modelId: string;
  imageIndex: number;
  concepts: string[];
  custom?: CustomConcept;
}

// Without a custom concept the key is what it always was, so stored results stay valid.
const paramsKeyOf = (p: TcavParams) =>
  crypto
    .createHash("sha256")
    .update(JSON.stringify(p.custom ? [p.modelId, p.imageIndex, [...p.concepts].sort(), p.custom.key] : [p.modelId, p.imageIndex, [...p.concepts].sort()]))
    .digest("hex");

export interface ConceptDatasetOption {
  id: number;
  name: string;
  owner: string | null;
  isOwn: boolean;
  pictures: number;
}

/**
 * The picture datasets the viewer may use as a concept: those they may see (the datasets'
 * visibility rule) with enough pictures, their own first, then other users' public ones, then the
 * platform's.
 */
export async function conceptDatasets(viewer: Viewer): Promise<ConceptDatasetOption[]> {
  const visible = await Dataset.findAll({ where: visibleWhere(viewer), order: [["id", "DESC"]], limit: 500 });
  const views = (await toViews(visible, viewer)).filter((v) => v.pictureCount >= CONCEPT_LIMITS.customMin);
  const rank = (v: (typeof views)[number]) => (v.isOwn ? 0 : v.platform ? 2 : 1);
  return views
    .sort((a, b) => rank(a) - rank(b) || b.id - a.id)
    .slice(0, CONCEPT_LIMITS.customChoices)
    .map((v) => ({ id: v.id, name: v.name, owner: v.owner, isOwn: v.isOwn, pictures: v.pictureCount }));
}

export interface CustomConcept {
  key: string;
  name: string;
  images: Buffer[];
  ref: CustomConceptRef;
}

/** Thumbnails are PNGs at display size; the networks read 32–64 px, so 96 px keeps the request small. */
const CONCEPT_PICTURE_SIDE = 96;

/**
 * A dataset the viewer may see, as a TCAV concept: its first CONCEPT_LIMITS.customMax pictures
 * (by id, from their stored PNG thumbnails, so every upload format works). The key names the
 * exact pictures, so a changed dataset trains new concept vectors. Refusals are message refs.
 */
export async function customConceptOf(datasetId: string, viewer: Viewer): Promise<CustomConcept | { refusal: string }> {
  const dataset = await findVisibleDataset(datasetId, viewer);
  if (!dataset) return { refusal: CONCEPT_MSG.datasetNotFound };
  const pictures = await Picture.findAll({
    where: { datasetId: dataset.id },
    order: [["id", "ASC"]],
    limit: CONCEPT_LIMITS.customMax,
    attributes: ["id", "thumbPath", "size"],
  });
  const images: Buffer[] = [];
  const used: number[] = [];
  for (const p of pictures) {
    const thumb = await readStored(p.thumbPath);
    if (!thumb) continue;
    images.push(await sharp(thumb).resize({ width: CONCEPT_PICTURE_SIDE, height: CONCEPT_PICTURE_SIDE, fit: "inside" }).png().toBuffer());
    used.push(p.id);
  }
  if (images.length < CONCEPT_LIMITS.customMin) return { refusal: CONCEPT_MSG.datasetTooSmall };
  const key = crypto
    .createHash("sha256")
    .update(JSON.stringify(["dataset", dataset.id, pictures.filter((p) => used.includes(p.id)).map((p) => [p.id, p.size])]))
    .digest("hex");
  const name = `${dataset.name.slice(0, 80)} (#${dataset.id})`;
  return { key, name, images, ref: { name, datasetId: dataset.id, sampleIds: used.slice(0, 3) } };
}

/**
 * TCAV for the picked image's predicted class: from the database when this parameter set was
 * computed before, otherwise from the sidecar (no database lock is held while it computes; two
 * identical requests racing both compute and the second insert finds the first's row).
 */
export async function runTcav(
  p: TcavParams,
  signal?: AbortSignal,
  onProgress?: (done: number, total: number) => void,
): Promise<{ id: number; cached: boolean }> {
  const paramsKey = paramsKeyOf(p);
  const hit = await ConceptResult.findOne({ where: { paramsKey }, attributes: ["id"] });
  if (hit) return { id: hit.id, cached: true };
  // The streaming call: progress after each concept vector, then the reply.
  let reply: RunTcavReply__Output | undefined;
  await serverStream(
    rpc().concepts.RunTcavStream,
    {
      modelId: p.modelId,
      imageIndex: p.imageIndex,
      concepts: p.concepts,
      layers: [],
      custom: p.custom ? [{ key: p.custom.key, name: p.custom.name, images: p.custom.images }] : [],
    },
    (ev) => {
      if (ev.event === "progress" && ev.progress) onProgress?.(ev.progress.done, ev.progress.total);
      else if (ev.event === "result" && ev.result) reply = ev.result;
    },
    { deadlineMs: 310_000, signal },
  );
  if (!reply) throw new SidecarCallError(SIDECAR_DOWN_MESSAGE, grpc.status.INTERNAL, "RunTcavStream ended without a result", "internal");
  const custom = p.custom ? [p.custom.ref] : [];
  const [row] = await ConceptResult.findOrCreate({
    where: { paramsKey },
    defaults: {
      paramsKey,
      modelId: p.modelId,
      imageIndex: p.imageIndex,
      // A dataset concept last, as deleteDataset (datasets.server.ts) looks for it.
      concepts: [...p.concepts, ...custom.map((c) => conceptRef(c.datasetId))].join(","),
      resultJson: JSON.stringify({ ...reply, custom, imagePng: Buffer.from(reply.imagePng).toString("base64") }),
    },
  });
  return { id: row.id, cached: false };
}

/** A stored result, or null when there is none or it used a dataset the viewer may not see. */
export async function findTcavResult(id: number, viewer: Viewer): Promise<TcavView | null> {
  const row = await ConceptResult.findByPk(id);
  if (!row) return null;
  const stored = JSON.parse(row.resultJson) as StoredResult & { imagePng: string };
  const datasets = (stored.custom ?? []).map((c) => c.datasetId);
  if (datasets.length && (await Dataset.count({ where: { [Op.and]: [{ id: datasets }, visibleWhere(viewer)] } })) !== new Set(datasets).size) return null;
  return toView(row.id, row.createdAt, { ...stored, imagePng: Buffer.from(stored.imagePng, "base64") });
}
