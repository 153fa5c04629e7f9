// The steps of a dense-prediction demo run (segmentation.server.ts, multilabel.server.ts; docs/
// datasets.md "Segmentation scenes (generated, with pixel masks)" and "Multi-label scenes and
// Pascal VOC (`/voc`)") that the two write alike: the sidecar's model list (cached for a minute),
// the picture the viewer may see, the model a request names, the picture as that model's input,
// the cached row the viewer may see, and an explanation's two maps stored and served. Each demo
// keeps its own replies, cache keys and views. The run budget, the busy answer and the stored rows
// are the common demo flow's (demoFlow.server.ts).
import { InferenceCache } from "./db.server.ts";
import { NotFoundError } from "./domainErrors.server.ts";
import { MODEL_LIST_TTL_MS, timedCache, type TimedCache } from "./timedCache.server.ts";
import { findVisiblePicture, type Viewer } from "./datasets.server.ts";
import { readStored } from "./pictures.server.ts";
import { ClassificationFailed, modelInput } from "./classification.server.ts";
import { storeDemoResult } from "./demoFlow.server.ts";
import type { SegmenterInfo__Output } from "../../proto/generated/metarank/v1/SegmenterInfo.ts";

/**
 * The catalogue fields both demos read of a sidecar model: SegmenterInfo and MultiLabelModelInfo
 * have them alike; each demo adds its scores. trainedAt is part of the cache keys, so a retrained
 * checkpoint is asked again.
 */
export type DemoModelBase = Pick<
  SegmenterInfo__Output,
  "id" | "dataset" | "arch" | "classNames" | "inputHeight" | "inputWidth" | "inputChannels" | "testSize" | "trainedAt"
>;

export const demoModelBase = (m: DemoModelBase): DemoModelBase => ({
  id: m.id,
  dataset: m.dataset,
  arch: m.arch,
  classNames: m.classNames,
  inputHeight: m.inputHeight,
  inputWidth: m.inputWidth,
  inputChannels: m.inputChannels,
  testSize: m.testSize,
  trainedAt: m.trainedAt,
});

/** A sidecar's model list, kept for a minute as the classification models are; entries without an id or an input size are left out. */
export function demoModelList<M extends DemoModelBase>(load: () => Promise<M[]>): TimedCache<M[]> {
  return timedCache(MODEL_LIST_TTL_MS, async () => (await load()).filter((m) => m.id && m.inputHeight > 0));
}

/** The picture, when the viewer may see it; else a NotFoundError with the demo's message. */
export async function visiblePicture(viewer: Viewer, pictureId: unknown, notFound: string) {
  const found = await findVisiblePicture(pictureId, viewer);
  if (!found) throw new NotFoundError(notFound);
  return found;
}

export type VisiblePicture = Awaited<ReturnType<typeof visiblePicture>>;

/** The model a request names: the sidecar not answering and an unknown id are the failure panel's. */
export async function demoModel<M extends { id: string }>(list: () => Promise<M[]>, modelId: string): Promise<M> {
  let models: M[];
  try {
    models = await list();
  } catch (e) {
    throw new ClassificationFailed("demo:failure.noAnswer", (e as Error).message);
  }
  const model = models.find((m) => m.id === modelId);
  if (!model) throw new ClassificationFailed("demo:failure.noSuchModel", `model ${modelId}`);
  return model;
}

/** The stored picture as the model's input: the classification demo's resizing (centre crop to the input size). */
export async function pictureInput(found: VisiblePicture, model: DemoModelBase): Promise<Buffer> {
  const original = await readStored(found.picture.filePath);
  if (!original) throw new ClassificationFailed("demo:failure.fileMissing", found.picture.filePath);
  return modelInput(original, model);
}

/** A cached row of the demo (`accept` its algorithm), only for a viewer who may see its picture. */
export async function visibleRow(viewer: Viewer, cacheId: unknown, accept: (algorithm: string) => boolean) {
  const n = Number(cacheId);
  if (!Number.isSafeInteger(n) || n <= 0) return null;
  const row = await InferenceCache.findByPk(n);
  if (!row || !accept(row.algorithm) || !(await findVisiblePicture(row.pictureId, viewer))) return null;
  return row;
}

/** A cached result the viewer may see (`accept` its algorithm), with the JSON the demo stored in it. */
export async function visibleResult<J>(viewer: Viewer, cacheId: unknown, accept: (algorithm: string) => boolean) {
  const row = await visibleRow(viewer, cacheId, accept);
  return row ? { row, json: JSON.parse(row.paramsJson) as J } : null;
}

/** What the view of a first result (a segmentation, a ranking) says of its row and its model. */
export interface FirstResultHeader {
  id: number;
  pictureId: number;
  modelId: string;
  dataset: string;
  testSize: number;
}

export const firstResultHeader = (row: { id: number; pictureId: number; modelId: string }, json: { dataset: string; testSize: number }): FirstResultHeader => ({
  id: row.id,
  pictureId: row.pictureId,
  modelId: row.modelId,
  dataset: json.dataset,
  testSize: json.testSize,
});

/** A stored picture of a row the viewer may see: the overlay for kind "overlay", else the heatmap (a segmentation's one picture is both). */
export async function storedPicture(viewer: Viewer, cacheId: unknown, kind: string, accept: (algorithm: string) => boolean): Promise<Buffer | null> {
  const row = await visibleRow(viewer, cacheId, accept);
  if (!row) return null;
  return readStored(kind === "overlay" ? row.overlayPath : row.heatmapPath);
}

/** Keeps an explanation's row with its heatmap and overlay; a reply without both is the failure panel's "no image". */
export function storeExplanation(key: Record<string, unknown>, row: Record<string, unknown>, reply: { heatmapPng: Buffer; overlayPng: Buffer }) {
  if (!reply.heatmapPng.length || !reply.overlayPng.length)
    throw new ClassificationFailed("demo:failure.noImage", "no heatmap or overlay in the Explain reply");
  return storeDemoResult(key, row, { heatmap: reply.heatmapPng, overlay: reply.overlayPng });
}
