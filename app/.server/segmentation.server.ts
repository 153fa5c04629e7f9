// The segmentation demo's server side: the segmentation networks come from the sidecar's
// Segmentation service (ListSegmenters); a picture is first segmented (Segment), then one predicted
// part is explained (Explain, Captum's class-sum target). Both results are kept in the
// inference_cache table plus PNG files, keyed by (picture, model, checkpoint) for a segmentation
// and (picture, model, checkpoint, algorithm, part) for an explanation, so asking again is answered
// from the database without a sidecar. The picture choice, the visibility rules and the input
// resizing are the classification demo's own (classification.server.ts, datasets.server.ts); the
// run budget, the busy answer, the failure panel and the stored rows are the common demo flow's
// (demoFlow.server.ts); the model list, the model, the input, the cached rows and the maps are the
// dense-prediction demos' shared steps (demoRuns.server.ts).
import { InferenceCache } from "./db.server.ts";
import { NotFoundError } from "./domainErrors.server.ts";
import { rpc, unary } from "./sidecar.server.ts";
import type { Viewer } from "./datasets.server.ts";
import { ClassificationFailed } from "./classification.server.ts";
import { demoSidecarRun, paramsKeyOf, storeDemoResult } from "./demoFlow.server.ts";
import * as runs from "./demoRuns.server.ts";
import { messageRef } from "../lib/forms/messages.ts";
import { SEGMENTATION_ALGORITHMS, SEGMENTATION_MSG } from "../lib/rules/segmentation.ts";
import type { SegmenterInfo__Output } from "../../proto/generated/metarank/v1/SegmenterInfo.ts";

export interface SegModel extends runs.DemoModelBase {
  meanIoU: number;
}

const toModel = (m: SegmenterInfo__Output): SegModel => ({ ...runs.demoModelBase(m), meanIoU: m.meanIou });

const models = runs.demoModelList(async () => (await unary(rpc().segmentation.ListSegmenters, {}, { deadlineMs: 10_000 })).models.map(toModel));

/** The sidecar's segmentation networks (cached for a minute, as the classification models are). */
export function listSegModels(): Promise<SegModel[]> {
  return models.get();
}

export function forgetSegModels() {
  models.clear();
}

const DATA_TITLE: Record<string, string> = { "seg-scenes": "segmentation scenes" };

/** The "FCN_ResNet101" model slot (docs/product.md "Segmentation"): each installed segmenter, named by its family and the data it learned. */
export function segModelOptions(models: SegModel[]): Array<{ value: string; label: string }> {
  return models.map((m) => ({ value: m.id, label: messageRef("segmentation:modelOption", { data: DATA_TITLE[m.dataset] ?? m.dataset }) }));
}

export interface SegClass {
  id: number;
  name: string;
  pixels: number;
  colour: string;
}

/** What a cached segmentation row holds in its JSON (the key's parts and the answer). */
interface SegmentJson {
  checkpoint: string;
  dataset: string;
  classes: SegClass[];
  palette: string[];
  classNames: string[];
  meanIoU: number;
  testSize: number;
}

interface ExplainJson {
  checkpoint: string;
  part: number;
  segmentation: number;
  targetScore: number;
  segmentAttributions: Array<{ id: number; value: number }>;
}

const SEGMENT_ALGORITHM = "seg:segment";
const explainAlgorithm = (a: string) => `seg:${a}`;
/** The page's message when the sidecar refuses the input (demoSidecarRun, demoFlow.server.ts). */
const REFUSED = "segmentation:failure.refused";

interface Prepared {
  pictureId: number;
  model: SegModel;
  input: Buffer;
}

const visible = (viewer: Viewer, pictureId: unknown) => runs.visiblePicture(viewer, pictureId, SEGMENTATION_MSG.notFound);

async function prepare(viewer: Viewer, pictureId: unknown, modelId: string): Promise<Prepared> {
  const found = await visible(viewer, pictureId);
  const model = await runs.demoModel(listSegModels, modelId);
  return { pictureId: found.picture.id, model, input: await runs.pictureInput(found, model) };
}

/** Segments a picture the viewer may see (or returns the cached segmentation). */
export async function segmentPicture(viewer: Viewer, pictureId: unknown, modelId: string, visitor: string, signal?: AbortSignal) {
  const found = await visible(viewer, pictureId);
  // A cached answer needs no model list (the sidecar may be away): the newest row for this picture and model.
  const cachedRows = await InferenceCache.findAll({ where: { pictureId: found.picture.id, modelId, algorithm: SEGMENT_ALGORITHM }, order: [["id", "DESC"]] });
  let models: SegModel[] | null = null;
  try {
    models = await listSegModels();
  } catch {
    if (cachedRows[0]) return { id: cachedRows[0].id, cached: true };
  }
  const checkpoint = models?.find((m) => m.id === modelId)?.trainedAt ?? "";
  const key = { pictureId: found.picture.id, modelId, algorithm: SEGMENT_ALGORITHM, paramsKey: paramsKeyOf([checkpoint]) };
  const hit = await InferenceCache.findOne({ where: key });
  if (hit) return { id: hit.id, cached: true };
  const p = await prepare(viewer, pictureId, modelId);
  const reply = await demoSidecarRun(visitor, REFUSED, () => unary(rpc().segmentation.Segment, { modelId, imagePng: p.input }, { deadlineMs: 60_000, signal }));
  if (!reply.segmentationPng.length) throw new ClassificationFailed("demo:failure.noImage", "no segmentation image in the Segment reply");
  const json: SegmentJson = {
    checkpoint,
    dataset: p.model.dataset,
    classes: reply.classes,
    palette: reply.palette,
    classNames: reply.classNames,
    meanIoU: p.model.meanIoU,
    testSize: p.model.testSize,
  };
  const objectPixels = reply.classes.reduce((s, c) => s + c.pixels, 0);
  const largest = [...reply.classes].sort((a, b) => b.pixels - a.pixels)[0];
  return storeDemoResult(
    key,
    {
      paramsJson: JSON.stringify(json),
      predictedClass: largest?.name ?? reply.classNames[0] ?? "",
      predictedIndex: largest?.id ?? 0,
      probability: objectPixels / Math.max(1, reply.height * reply.width),
    },
    { segmentation: reply.segmentationPng },
  );
}

export interface SegmentationView extends runs.FirstResultHeader {
  classes: SegClass[];
  legend: Array<{ id: number; name: string; colour: string }>;
  meanIoU: number;
  imageUrl: string;
}

/** A cached segmentation, only for a viewer who may see its picture. */
export async function segmentationFor(viewer: Viewer, cacheId: unknown): Promise<SegmentationView | null> {
  const found = await runs.visibleResult<SegmentJson>(viewer, cacheId, (a) => a === SEGMENT_ALGORITHM);
  if (!found) return null;
  const { row, json: j } = found;
  return {
    ...runs.firstResultHeader(row, j),
    classes: j.classes,
    legend: j.classNames.map((name, id) => ({ id, name, colour: j.palette[id] })),
    meanIoU: j.meanIoU,
    imageUrl: `/segmentation/${row.id}?kind=segmentation`,
  };
}

/** Explains one part of a picture's segmentation (segmenting it first, from the cache when it can). */
export async function explainPart(viewer: Viewer, pictureId: unknown, modelId: string, algorithm: string, part: number, visitor: string, signal?: AbortSignal) {
  if (!(SEGMENTATION_ALGORITHMS as readonly string[]).includes(algorithm))
    throw new ClassificationFailed("demo:failure.unknownAlgorithm", `algorithm ${algorithm}`);
  const seg = await segmentPicture(viewer, pictureId, modelId, visitor, signal);
  const view = await segmentationFor(viewer, seg.id);
  if (!view) throw new NotFoundError(SEGMENTATION_MSG.notFound);
  // The part must be in this picture's prediction (the sidecar checks it too; here the visitor gets the page's words).
  if (!view.classes.some((c) => c.id === part)) return { partMissing: true as const, segmentationId: seg.id };
  const checkpoint = (JSON.parse((await InferenceCache.findByPk(seg.id))!.paramsJson) as SegmentJson).checkpoint;
  const key = { pictureId: view.pictureId, modelId, algorithm: explainAlgorithm(algorithm), paramsKey: paramsKeyOf([checkpoint, part]) };
  const hit = await InferenceCache.findOne({ where: key });
  if (hit) return { id: hit.id, cached: true, segmentationId: seg.id };
  const p = await prepare(viewer, pictureId, modelId);
  const reply = await demoSidecarRun(visitor, REFUSED, () =>
    unary(rpc().segmentation.Explain, { modelId, imagePng: p.input, algorithm, targetClass: part }, { deadlineMs: 120_000, signal }),
  );
  const json: ExplainJson = { checkpoint, part, segmentation: seg.id, targetScore: reply.targetScore, segmentAttributions: reply.segmentAttributions };
  const name = view.legend[part]?.name ?? String(part);
  const stored = await runs.storeExplanation(
    key,
    {
      paramsJson: JSON.stringify(json),
      predictedClass: name,
      predictedIndex: part,
      probability: view.classes.find((c) => c.id === part)!.pixels / Math.max(1, p.model.inputHeight * p.model.inputWidth),
    },
    reply,
  );
  return { ...stored, segmentationId: seg.id };
}

export interface ExplanationView {
  id: number;
  segmentationId: number;
  algorithm: string;
  part: number;
  partName: string;
  targetScore: number;
  segmentAttributions: Array<{ id: number; value: number }>;
  heatmapUrl: string;
  overlayUrl: string;
}

export async function explanationFor(viewer: Viewer, cacheId: unknown): Promise<ExplanationView | null> {
  const found = await runs.visibleResult<ExplainJson>(viewer, cacheId, (a) => a.startsWith("seg:") && a !== SEGMENT_ALGORITHM);
  if (!found) return null;
  const { row, json: j } = found;
  return {
    id: row.id,
    segmentationId: j.segmentation,
    algorithm: row.algorithm.slice(4),
    part: j.part,
    partName: row.predictedClass,
    targetScore: j.targetScore,
    segmentAttributions: j.segmentAttributions,
    heatmapUrl: `/segmentation/${row.id}?kind=heatmap`,
    overlayUrl: `/segmentation/${row.id}?kind=overlay`,
  };
}

/** A stored PNG of a segmentation or explanation row the viewer may see. */
export function segImage(viewer: Viewer, cacheId: unknown, kind: string): Promise<Buffer | null> {
  return runs.storedPicture(viewer, cacheId, kind, (a) => a.startsWith("seg:"));
}
