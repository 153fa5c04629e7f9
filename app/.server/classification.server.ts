// The image-classification demo's server side (the original API's callAlgorithm and reportGpu): the
// trained models come from the sidecar's Inference service (ListModels), an explanation is one
// Explain call, and every finished result is kept in the inference_cache table plus two PNG files,
// keyed by (picture, model, algorithm, parameters), so asking again is served from the database
// without touching a sidecar.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { UniqueConstraintError } from "sequelize";
import { Dataset, InferenceCache } from "./db.server.ts";
import * as grpc from "@grpc/grpc-js";
import { SidecarCallError, rpc, unary } from "./sidecar.server.ts";
import { MODEL_LIST_TTL_MS, timedCache } from "./timedCache.server.ts";
import { demoVisitor, returnDemoRun, spendDemoRun } from "./throttle.server.ts";
import type { ModelInfo__Output } from "../../proto/generated/metarank/v1/ModelInfo.ts";
import { findVisiblePicture, type Viewer } from "./datasets.server.ts";
import { NotFoundError } from "./domainErrors.server.ts";
import { readStored, removeStored, storedFile } from "./pictures.server.ts";
import { messageRef } from "../lib/forms/messages.ts";
import { CLASSIFICATION_MSG } from "../lib/rules/classification.ts";

/** The classification demo's algorithm choices (docs/product.md "Classification") and the sidecar registry names they run as (Captum's defaults). */
export const CLASSIFICATION_ALGORITHMS = [
  { value: "IG", label: "IG", method: "IntegratedGradients" },
  { value: "IG_with_noise_tunnel", label: "IG_with_noise_tunnel", method: "IG_with_noise_tunnel" },
  { value: "GradientShap", label: "GradientShap", method: "GradientShap" },
  { value: "Occlusion", label: "Occlusion", method: "Occlusion" },
  { value: "Occlusion_using_larger_sliding_window", label: "Occlusion_using_larger_sliding_window", method: "Occlusion_using_larger_sliding_window" },
] as const;

/** Parameters sent with each method: none beyond the registry's defaults; kept explicit because they are part of the cache key. */
const METHOD_PARAMS: Record<string, Record<string, number | string | boolean>> = {};

export interface TrainedModel {
  id: string;
  dataset: string;
  arch: string;
  inputHeight: number;
  inputWidth: number;
  inputChannels: number;
  classNames: string[];
  testAccuracy: number | null;
  /** When the checkpoint was trained: part of the cache key, so a retrained model is asked again. */
  trainedAt: string;
}

export interface ModelOption {
  value: string;
  label: string;
}

/** The visitor has used up their demo runs for now (app/.server/throttle.server.ts). */
export class DemoRateLimited extends Error {
  constructor(readonly seconds: number) {
    super(CLASSIFICATION_MSG.rateLimited(Math.max(1, Math.ceil(seconds / 60))));
  }
}

/** A failure the failure panel reports (docs/product.md "Demo pages"): the algorithm did not run (compute or program error); the message is a message ref (demo:failure.*). */
export class ClassificationFailed extends Error {
  constructor(
    message: string,
    readonly detail: string,
    /** The compute server was busy (its queue full): nothing ran, asking again in a moment works. */
    readonly busy = false,
  ) {
    super(message);
  }
}

/** The demo's words for a busy compute server (app/locales/<lng>/demo.json). */
export const DEMO_BUSY = "demo:msg.busy";

function toTrainedModel(m: ModelInfo__Output): TrainedModel {
  return {
    id: m.id,
    dataset: m.dataset,
    arch: m.arch,
    inputHeight: m.inputHeight,
    inputWidth: m.inputWidth,
    inputChannels: m.inputChannels,
    classNames: m.classNames,
    testAccuracy: Number.isFinite(m.testAccuracy) && m.testAccuracy > 0 ? m.testAccuracy : null,
    trainedAt: m.trainedAt,
  };
}

// The model slot is a ResNet18 (docs/product.md "Classification"): the zoo's ResNet-18-style networks and imported ResNets, not the
// zoo's ResNet-50-style one (a benchmark network of the 64-pixel scenes, sidecar/zoo/README.md).
const isResNet = (m: TrainedModel) => m.arch !== "resnet50" && (/resnet/i.test(m.arch) || /resnet/i.test(m.id));

const models = timedCache(MODEL_LIST_TTL_MS, async (): Promise<TrainedModel[]> => {
  const reply = await unary(rpc().inference.ListModels, {}, { deadlineMs: 10_000 });
  return reply.models.map(toTrainedModel).filter((m) => m.id && m.inputHeight > 0 && m.inputWidth > 0);
});

/** The sidecar's trained models (cached for a minute: checkpoints do not change under a running app). */
export function listModels(): Promise<TrainedModel[]> {
  return models.get();
}

/** Test hook: forget the model list (a restarted sidecar may serve new checkpoints). */
export function forgetModels() {
  models.clear();
}

const DATA_LABEL: Record<string, string> = {
  "fashion-mnist": "Fashion-MNIST",
  scenes: "scenes",
  scenes64: "64-pixel scenes",
  "textured-shapes": "textured shapes",
};

/** Per dataset, its most accurate model (the first of equals), in the order the datasets first appear. */
function bestPerDataset(models: TrainedModel[]): TrainedModel[] {
  const best = new Map<string, TrainedModel>();
  for (const m of models) {
    const held = best.get(m.dataset);
    if (!held || (m.testAccuracy ?? 0) > (held.testAccuracy ?? 0)) best.set(m.dataset, m);
  }
  return [...best.values()];
}

/**
 * The "ResNet18" model slot (docs/product.md "Classification"), bound to the platform's trained ResNet-style model for the data:
 * one option when the dataset's data is known (installed datasets), otherwise one per trained
 * ResNet-style model, named by the data it learned (users' own pictures could be of either).
 */
export function modelOptions(models: TrainedModel[], dataKind: string | null): ModelOption[] {
  const resnets = models.filter(isResNet);
  if (dataKind) {
    // Known data: only a model trained on it makes a meaningful prediction; none means none.
    // Several (a retrained checkpoint beside the first one): the most accurate.
    const matching = bestPerDataset(resnets.filter((m) => m.dataset === dataKind || m.dataset.startsWith(`${dataKind}-`)));
    return matching.length ? [{ value: matching[0].id, label: "ResNet18" }] : [];
  }
  return bestPerDataset(resnets).map((m) => ({ value: m.id, label: messageRef("demo:modelTrainedOn", { data: DATA_LABEL[m.dataset] ?? m.dataset }) }));
}

// ---------------------------------------------------------------------------------------------

export interface ExplainOutcome {
  cacheId: number;
  cached: boolean;
}

const paramsKeyOf = (json: string) => crypto.createHash("sha256").update(json).digest("hex");

/** The picture resized (centre crop) to the model's input, as PNG bytes with the model's channel count. */
export async function modelInput(bytes: Buffer, m: Pick<TrainedModel, "inputWidth" | "inputHeight" | "inputChannels">): Promise<Buffer> {
  let img = sharp(bytes, { limitInputPixels: 40_000_000, animated: false }).rotate().resize(m.inputWidth, m.inputHeight, { fit: "cover" }).removeAlpha();
  img = m.inputChannels === 1 ? img.greyscale().toColourspace("b-w") : img.toColourspace("srgb");
  return img.png().toBuffer();
}

/** Runs (or fetches from the cache) one explanation of a picture the viewer may see. */
export async function explainPicture(
  viewer: Viewer,
  pictureId: unknown,
  modelId: string,
  algorithm: string,
  ip = "unknown",
  /** The visitor's request: when they leave, the call is cancelled and the sidecar frees its worker. */
  signal?: AbortSignal,
): Promise<ExplainOutcome> {
  const found = await findVisiblePicture(pictureId, viewer);
  if (!found) throw new NotFoundError(CLASSIFICATION_MSG.notFound);
  const algo = CLASSIFICATION_ALGORITHMS.find((a) => a.value === algorithm);
  if (!algo) throw new ClassificationFailed("demo:failure.unknownAlgorithm", `algorithm ${algorithm}`);
  const params = METHOD_PARAMS[algo.method] ?? {};
  let models: TrainedModel[];
  try {
    models = await listModels();
  } catch (e) {
    // The sidecar is unreachable: a result computed earlier for this picture, model and method
    // is still a real answer, so serve the newest one rather than nothing.
    const earlier = await InferenceCache.findOne({ where: { pictureId: found.picture.id, modelId, algorithm: algo.value }, order: [["id", "DESC"]] });
    if (earlier) return { cacheId: earlier.id, cached: true };
    throw new ClassificationFailed("demo:failure.noAnswer", (e as Error).message);
  }
  const checkpoint = models.find((m) => m.id === modelId)?.trainedAt ?? "";
  const paramsJson = JSON.stringify({ checkpoint, params: Object.fromEntries(Object.entries(params).sort(([a], [b]) => a.localeCompare(b))) });
  const key = { pictureId: found.picture.id, modelId, algorithm: algo.value, paramsKey: paramsKeyOf(paramsJson) };
  const hit = await InferenceCache.findOne({ where: key });
  if (hit) return { cacheId: hit.id, cached: true };

  const model = models.find((m) => m.id === modelId);
  if (!model) throw new ClassificationFailed("demo:failure.noSuchModel", `model ${modelId}`);
  const original = await readStored(found.picture.filePath);
  if (!original) throw new ClassificationFailed("demo:failure.fileMissing", found.picture.filePath);
  const input = await modelInput(original, model);
  // Only work that reaches the compute server counts against the visitor's allowance.
  const visitor = demoVisitor(viewer, ip);
  const wait = await spendDemoRun(visitor);
  if (wait > 0) throw new DemoRateLimited(wait);

  let reply;
  try {
    // No target: the sidecar explains the predicted class (ExplainRequest.target unset).
    reply = await unary(
      rpc().inference.Explain,
      { modelId: model.id, algorithm: algo.method, params: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])), imagePng: input },
      { deadlineMs: 180_000, signal },
    );
  } catch (e) {
    if (e instanceof SidecarCallError && e.code === grpc.status.RESOURCE_EXHAUSTED) {
      // Refused before it ran (the sidecar's queue is full, docs/security.md "Compute bounds").
      await returnDemoRun(visitor);
      throw new ClassificationFailed(DEMO_BUSY, e.details, true);
    }
    throw new ClassificationFailed("demo:failure.didNotRun", (e as Error).message);
  }
  const predictedIndex = reply.predictedClass;
  if (!Number.isInteger(predictedIndex) || predictedIndex < 0 || predictedIndex >= reply.probabilities.length)
    throw new ClassificationFailed("demo:failure.noPrediction", `predictedClass ${predictedIndex} of ${reply.probabilities.length} classes`);
  const probability = reply.probabilities[predictedIndex];
  const predictedClass = model.classNames[predictedIndex] ?? (reply.predictedLabel || String(predictedIndex));
  // Heatmaps are drawn only by the sidecar (sidecar/inference/heatmap.ts); a reply without them is a failure.
  if (!reply.heatmapPng.length || !reply.overlayPng.length)
    throw new ClassificationFailed("demo:failure.noImage", "no heatmap or overlay in the Explain reply");
  const heatmap = reply.heatmapPng;
  const overlay = reply.overlayPng;

  const id = crypto.randomUUID();
  const dir = path.posix.join("explanations", id.slice(0, 2));
  const heatmapPath = `${dir}/${id}.heatmap.png`;
  const overlayPath = `${dir}/${id}.overlay.png`;
  await fs.mkdir(storedFile(dir), { recursive: true });
  // Stored at a readable size: the model inputs are 28–32 px.
  await fs.writeFile(storedFile(heatmapPath), await enlarge(heatmap));
  await fs.writeFile(storedFile(overlayPath), await enlarge(overlay));
  try {
    const row = await InferenceCache.create({ ...key, paramsJson, predictedClass, predictedIndex, probability, heatmapPath, overlayPath });
    return { cacheId: row.id, cached: false };
  } catch (e) {
    // Two identical requests raced: keep the first row, drop this copy's files.
    await removeStored([heatmapPath, overlayPath]);
    if (e instanceof UniqueConstraintError) {
      const row = await InferenceCache.findOne({ where: key });
      if (row) return { cacheId: row.id, cached: true };
    }
    throw e;
  }
}

async function enlarge(png: Buffer): Promise<Buffer> {
  const meta = await sharp(png).metadata();
  const side = Math.max(meta.width ?? 0, meta.height ?? 0);
  if (!side || side >= 224) return png;
  const f = Math.ceil(224 / side);
  return sharp(png)
    .resize((meta.width ?? side) * f, (meta.height ?? side) * f, { kernel: "nearest" })
    .png()
    .toBuffer();
}

export interface ResultView {
  id: number;
  pictureId: number;
  /** The picture's label as its owner typed it (never a message ref: a class named "demo:noLabel" stays that text); null when unlabelled. */
  groundTruth: string | null;
  predictedClass: string;
  probability: number;
  probabilityText: string;
  heatmapUrl: string;
  overlayUrl: string;
  algorithm: string;
  modelId: string;
}

/** A cached result, only for a viewer who may see its picture (else null → 404). */
export async function resultFor(viewer: Viewer, cacheId: unknown): Promise<ResultView | null> {
  const n = Number(cacheId);
  if (!Number.isSafeInteger(n) || n <= 0) return null;
  const row = await InferenceCache.findByPk(n);
  if (!row) return null;
  const found = await findVisiblePicture(row.pictureId, viewer);
  if (!found) return null;
  return {
    id: row.id,
    pictureId: row.pictureId,
    groundTruth: found.picture.label ?? null,
    predictedClass: row.predictedClass,
    probability: row.probability,
    probabilityText: `${(row.probability * 100).toFixed(2)}%`,
    heatmapUrl: `/explanation/${row.id}?kind=heatmap`,
    overlayUrl: `/explanation/${row.id}?kind=overlay`,
    algorithm: row.algorithm,
    modelId: row.modelId,
  };
}

/** The stored PNG of a result the viewer may see. */
export async function resultImage(viewer: Viewer, cacheId: unknown, kind: string): Promise<Buffer | null> {
  const n = Number(cacheId);
  if (!Number.isSafeInteger(n) || n <= 0) return null;
  const row = await InferenceCache.findByPk(n);
  if (!row || !(await findVisiblePicture(row.pictureId, viewer))) return null;
  return readStored(kind === "overlay" ? row.overlayPath : row.heatmapPath);
}

export interface GpuReport {
  gpuIndex: string;
  maxCompute: string;
}

/** The failure panel's GPU report (docs/product.md "Demo pages"): which GPU and how much compute the sidecar has; "unknown" when it cannot say. */
export async function reportGpu(): Promise<GpuReport> {
  try {
    // ReportGpuReply (proto/metarank/v1/inference.proto): gpu_index is -1 on a CPU-only host;
    // max_compute is the number of idle workers, i.e. the compute that can start at once.
    const r = await unary(rpc().inference.ReportGpu, {}, { deadlineMs: 5_000 });
    const cpu = r.cpuOnly || r.gpuIndex < 0;
    const idle = r.maxCompute;
    // Message refs (demo:gpu.*), translated where the failure panel shows them.
    return {
      gpuIndex: cpu ? (r.device ? messageRef("demo:gpu.cpuOnlyDevice", { device: r.device }) : "demo:gpu.cpuOnly") : String(r.gpuIndex),
      maxCompute: messageRef(r.workers ? (r.queued ? "demo:gpu.idleOfQueued" : "demo:gpu.idleOf") : "demo:gpu.idle", {
        count: idle,
        workers: r.workers,
        queued: r.queued,
      }),
    };
  } catch {
    return { gpuIndex: "demo:gpu.unknown", maxCompute: "demo:gpu.unknown" };
  }
}

// ---------------------------------------------------------------------------------------------
// The earlier variant's uploads (the pool itself: app/.server/demoFlow.server.ts demoPool).

export const UPLOADS_DATASET = "My uploaded images";

/** The user's private dataset for single-image uploads of the pool variant (made on first use). */
export async function uploadsDataset(userId: number): Promise<Dataset> {
  const [d] = await Dataset.findOrCreate({
    where: { ownerId: userId, name: UPLOADS_DATASET },
    defaults: { ownerId: userId, name: UPLOADS_DATASET, isPublic: false },
  });
  return d;
}
