// The /tcav page's data (issue 17, docs/concepts.md): the concept catalogue and the image pool
// from the sidecar's Concepts service, and TCAV results, computed once per parameter set and kept
// in concept_results so a repeat (or a reload of the result URL) is served from the database.
import crypto from "node:crypto";
import { ConceptResult } from "../../models/index.ts";
import type { ConceptCatalogueReply__Output } from "../../proto/generated/metarank/v1/ConceptCatalogueReply.ts";
import type { RunTcavReply__Output } from "../../proto/generated/metarank/v1/RunTcavReply.ts";
import { listModels, type TrainedModel } from "./classification.server.ts";
import { rpc, unary } from "./sidecar.server.ts";
import { CONCEPT_LIMITS } from "~/lib/rules/concepts.ts";

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

let catalogueCache: { at: number; value: Catalogue } | null = null;
/** The 47 slots with 3 sample images each (generated, so the same on every call: cached for 10 minutes). */
export async function conceptCatalogue(): Promise<Catalogue> {
  if (catalogueCache && Date.now() - catalogueCache.at < 600_000) return catalogueCache.value;
  const r: ConceptCatalogueReply__Output = await unary(rpc().concepts.ConceptCatalogue, { samples: 3 }, { deadlineMs: 10_000 });
  const value: Catalogue = {
    slots: r.concepts.map((c) => ({ name: c.name, available: c.available, samples: c.samplePng.map(dataUrl) })),
    randomSets: r.randomSets,
    examplesPerSet: r.examplesPerSet,
    randomSource: r.randomSource,
    conceptSource: r.conceptSource,
  };
  catalogueCache = { at: Date.now(), value };
  return value;
}

/** The seeds' "GoogleNet" slot: the platform's Inception-style checkpoints, the textured-shapes one first (its ground truth is known). */
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

export interface TcavView {
  id: number;
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

function toView(id: number, createdAt: Date, r: RunTcavReply__Output): TcavView {
  return {
    id,
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
}

const paramsKeyOf = (p: TcavParams) =>
  crypto
    .createHash("sha256")
    .update(JSON.stringify([p.modelId, p.imageIndex, [...p.concepts].sort()]))
    .digest("hex");

/**
 * TCAV for the picked image's predicted class: from the database when this parameter set was
 * computed before, otherwise from the sidecar (no database lock is held while it computes; two
 * identical requests racing both compute and the second insert finds the first's row).
 */
export async function runTcav(p: TcavParams, signal?: AbortSignal): Promise<{ id: number; cached: boolean }> {
  const paramsKey = paramsKeyOf(p);
  const hit = await ConceptResult.findOne({ where: { paramsKey }, attributes: ["id"] });
  if (hit) return { id: hit.id, cached: true };
  const reply = await unary(
    rpc().concepts.RunTcav,
    { modelId: p.modelId, imageIndex: p.imageIndex, concepts: p.concepts, layers: [], custom: [] },
    { deadlineMs: 310_000, signal },
  );
  const [row] = await ConceptResult.findOrCreate({
    where: { paramsKey },
    defaults: {
      paramsKey,
      modelId: p.modelId,
      imageIndex: p.imageIndex,
      concepts: p.concepts.join(","),
      resultJson: JSON.stringify({ ...reply, imagePng: Buffer.from(reply.imagePng).toString("base64") }),
    },
  });
  return { id: row.id, cached: false };
}

export async function findTcavResult(id: number): Promise<TcavView | null> {
  const row = await ConceptResult.findByPk(id);
  if (!row) return null;
  const stored = JSON.parse(row.resultJson) as RunTcavReply__Output & { imagePng: string };
  return toView(row.id, row.createdAt, { ...stored, imagePng: Buffer.from(stored.imagePng, "base64") });
}
