// The VOC-style multi-label demo's server side (docs/datasets.md "Multi-label scenes and Pascal
// VOC"): the multi-label networks come from the sidecar's MultiLabel service
// (ListMultiLabelModels); a picture's classes are ranked (Classify, the five highest with their
// sigmoid probabilities), then one ranked class is explained on request (Explain, Feature_Ablation
// or LIME with that class's logit as the target). Both results are kept in the inference_cache
// table (plus the maps' PNG files), keyed by (picture, model, checkpoint) for a ranking and
// (picture, model, checkpoint, algorithm, class) for a map, so asking again never reaches a
// sidecar. Picture visibility, input resizing, the demo's rate limit, the busy answer and the
// failure panel are the other demos' own (classification.server.ts, demoFlow.server.ts); the
// model list, the model, the input, the cached rows and the maps are the dense-prediction demos'
// shared steps (demoRuns.server.ts).
import { InferenceCache } from "./db.server.ts";
import { rpc, unary } from "./sidecar.server.ts";
import type { Viewer } from "./datasets.server.ts";
import { ClassificationFailed } from "./classification.server.ts";
import { demoSidecarRun, paramsKeyOf, storeDemoResult } from "./demoFlow.server.ts";
import * as runs from "./demoRuns.server.ts";
import { messageRef } from "../lib/forms/messages.ts";
import { MULTILABEL_ALGORITHMS, MULTILABEL_MSG, RANKED_RESULTS } from "../lib/rules/multilabel.ts";
import type { MultiLabelModelInfo__Output } from "../../proto/generated/metarank/v1/MultiLabelModelInfo.ts";

export interface MultiLabelModel extends runs.DemoModelBase {
  meanAP: number;
  minPixels: number;
}

const toModel = (m: MultiLabelModelInfo__Output): MultiLabelModel => ({ ...runs.demoModelBase(m), meanAP: m.meanAp, minPixels: m.minPixels });

const models = runs.demoModelList(async () => (await unary(rpc().multiLabel.ListMultiLabelModels, {}, { deadlineMs: 10_000 })).models.map(toModel));

/** The sidecar's multi-label networks (cached for a minute, as the other demos' models are). */
export function listMultiLabelModels(): Promise<MultiLabelModel[]> {
  return models.get();
}

/** VOC models are those trained on Pascal VOC; everything else here was trained on the generated scenes. */
export const isVocModel = (m: Pick<MultiLabelModel, "dataset">) => /^voc/i.test(m.dataset);

/** The installed dataset a model's pool draws from: VOC's for a VOC model, else the scenes' held-out split (the same images as its test split). */
export const poolSlugFor = (m: Pick<MultiLabelModel, "dataset">) => (isVocModel(m) ? "voc" : "seg-scenes");

/** The "ResNet18" model slot (docs/product.md "Multi-label"): each installed multi-label network, named by its family and the data it learned. */
export function multiLabelModelOptions(models: MultiLabelModel[]): Array<{ value: string; label: string }> {
  return models.map((m) => ({ value: m.id, label: messageRef("multilabel:modelOption", { data: m.dataset }) }));
}

export interface RankedLabel {
  index: number;
  name: string;
  probability: number;
}

interface RankingJson {
  checkpoint: string;
  dataset: string;
  ranked: RankedLabel[];
  meanAP: number;
  testSize: number;
  minPixels: number;
}

interface ExplainJson {
  checkpoint: string;
  ranking: number;
  cls: number;
  algorithm: string;
  method: string;
  params: string;
  targetLogit: number;
  targetProbability: number;
}

const RANK_ALGORITHM = "ml:rank";
const explainAlgorithm = (a: string) => `ml:${a}`;
const isClassMap = (a: string) => a.startsWith("ml:") && a !== RANK_ALGORITHM;
/** The page's message when the sidecar refuses the input (demoSidecarRun, demoFlow.server.ts). */
const REFUSED = "multilabel:failure.refused";

const visible = (viewer: Viewer, pictureId: unknown) => runs.visiblePicture(viewer, pictureId, MULTILABEL_MSG.notFound);
const modelFor = (modelId: string) => runs.demoModel(listMultiLabelModels, modelId);

/** Ranks a picture's classes (the five highest) with a model, or returns the cached ranking. */
export async function rankPicture(viewer: Viewer, pictureId: unknown, modelId: string, visitor: string, signal?: AbortSignal) {
  const found = await visible(viewer, pictureId);
  const model = await modelFor(modelId);
  const key = { pictureId: found.picture.id, modelId, algorithm: RANK_ALGORITHM, paramsKey: paramsKeyOf([model.trainedAt, RANKED_RESULTS]) };
  const hit = await InferenceCache.findOne({ where: key });
  if (hit) return { id: hit.id, cached: true };
  const input = await runs.pictureInput(found, model);
  const reply = await demoSidecarRun(visitor, REFUSED, () =>
    unary(rpc().multiLabel.Classify, { modelId, imagePng: input, topK: RANKED_RESULTS }, { deadlineMs: 60_000, signal }),
  );
  if (!reply.ranked.length) throw new ClassificationFailed("demo:failure.didNotRun", "no classes in the Classify reply");
  const ranked = reply.ranked.map((r) => ({ index: r.index, name: r.name, probability: r.probability }));
  const json: RankingJson = {
    checkpoint: model.trainedAt,
    dataset: model.dataset,
    ranked,
    meanAP: model.meanAP,
    testSize: model.testSize,
    minPixels: model.minPixels,
  };
  // A ranking has no picture of its own: its row's paths are empty and nothing serves them.
  return storeDemoResult(
    key,
    { paramsJson: JSON.stringify(json), predictedClass: ranked[0].name, predictedIndex: ranked[0].index, probability: ranked[0].probability },
    {},
  );
}

export interface RankingView extends runs.FirstResultHeader {
  ranked: RankedLabel[];
  meanAP: number;
  minPixels: number;
}

/** A cached ranking, only for a viewer who may see its picture. */
export async function rankingFor(viewer: Viewer, cacheId: unknown): Promise<RankingView | null> {
  const found = await runs.visibleResult<RankingJson>(viewer, cacheId, (a) => a === RANK_ALGORITHM);
  if (!found) return null;
  const j = found.json;
  return { ...runs.firstResultHeader(found.row, j), ranked: j.ranked, meanAP: j.meanAP, minPixels: j.minPixels };
}

/** Explains one of a picture's five ranked classes (ranking it first, from the cache when it can). */
export async function explainClass(viewer: Viewer, pictureId: unknown, modelId: string, algorithm: string, cls: number, visitor: string, signal?: AbortSignal) {
  if (!(MULTILABEL_ALGORITHMS as readonly string[]).includes(algorithm))
    throw new ClassificationFailed("demo:failure.unknownAlgorithm", `algorithm ${algorithm}`);
  const rankedRow = await rankPicture(viewer, pictureId, modelId, visitor, signal);
  const ranking = (await rankingFor(viewer, rankedRow.id))!;
  const entry = ranking.ranked.find((r) => r.index === cls);
  if (!entry) return { notRanked: true as const, rankingId: ranking.id };
  const model = await modelFor(modelId);
  const key = { pictureId: ranking.pictureId, modelId, algorithm: explainAlgorithm(algorithm), paramsKey: paramsKeyOf([model.trainedAt, cls]) };
  const hit = await InferenceCache.findOne({ where: key });
  if (hit) return { id: hit.id, cached: true, rankingId: ranking.id };
  const found = await visible(viewer, pictureId);
  const input = await runs.pictureInput(found, model);
  const reply = await demoSidecarRun(visitor, REFUSED, () =>
    unary(rpc().multiLabel.Explain, { modelId, imagePng: input, algorithm, targetClass: cls, topK: RANKED_RESULTS }, { deadlineMs: 120_000, signal }),
  );
  const json: ExplainJson = {
    checkpoint: model.trainedAt,
    ranking: ranking.id,
    cls,
    algorithm,
    method: reply.method,
    params: reply.paramsJson,
    targetLogit: reply.targetLogit,
    targetProbability: reply.targetProbability,
  };
  const stored = await runs.storeExplanation(
    key,
    { paramsJson: JSON.stringify(json), predictedClass: entry.name, predictedIndex: cls, probability: reply.targetProbability },
    reply,
  );
  return { ...stored, rankingId: ranking.id };
}

export interface ClassMapView {
  id: number;
  pictureId: number;
  rankingId: number;
  algorithm: string;
  method: string;
  params: string;
  cls: number;
  className: string;
  targetLogit: number;
  targetProbability: number;
  heatmapUrl: string;
  overlayUrl: string;
}

/** A cached class map, only for a viewer who may see its picture. */
export async function classMapFor(viewer: Viewer, cacheId: unknown): Promise<ClassMapView | null> {
  const found = await runs.visibleResult<ExplainJson>(viewer, cacheId, isClassMap);
  if (!found) return null;
  const { row, json: j } = found;
  return {
    id: row.id,
    pictureId: row.pictureId,
    rankingId: j.ranking,
    algorithm: j.algorithm,
    method: j.method,
    params: j.params,
    cls: j.cls,
    className: row.predictedClass,
    targetLogit: j.targetLogit,
    targetProbability: j.targetProbability,
    heatmapUrl: `/voc/map/${row.id}?kind=heatmap`,
    overlayUrl: `/voc/map/${row.id}?kind=overlay`,
  };
}

/** A stored map of a class explanation the viewer may see. */
export function classMapImage(viewer: Viewer, cacheId: unknown, kind: string): Promise<Buffer | null> {
  return runs.storedPicture(viewer, cacheId, kind, isClassMap);
}
