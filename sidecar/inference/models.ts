// The model catalogue (from checkpoint manifests, cheap: no weights read) and the
// per-thread cache of loaded networks (each worker loads a model once, on first use).
import fs from "node:fs";
import path from "node:path";
import { CheckpointError, checkpointDir, listManifests, readManifest, type CheckpointManifest } from "../zoo/checkpoint.ts";
import { loadZooNet, type ZooNet } from "../zoo/zooNet.ts";
// Operators' ONNX imports (docs/onnx-import.md) are served beside the zoo's checkpoints.
import { importedModelDir, isImportedManifest, loadImportedNet } from "../zoo/onnx/graphNet.ts";
import { exportZooNet } from "../zoo/onnx/export.ts";
import { NativeModel } from "../engine/nativeModel.ts";
import { NativeRunStopped } from "../engine/nativeGuard.ts";
import { nativeEngineOn } from "../engine/runtime.ts";
import { logger } from "../log.ts";
import { InferenceInputError } from "./errors.ts";

/** What the catalogue tells clients about a checkpoint: its manifest, with the input shape spelled out. */
export type ModelInfo = Pick<
  CheckpointManifest,
  "id" | "arch" | "dataset" | "classNames" | "testAccuracy" | "trainSize" | "testSize" | "epochs" | "trainedAt" | "layers" | "defaultCamLayer"
> & { inputHeight: number; inputWidth: number; inputChannels: number };

export function modelInfo(m: CheckpointManifest): ModelInfo {
  return {
    id: m.id,
    arch: m.arch,
    dataset: m.dataset,
    inputHeight: m.inputShape[0],
    inputWidth: m.inputShape[1],
    inputChannels: m.inputShape[2],
    classNames: m.classNames,
    testAccuracy: m.testAccuracy,
    trainSize: m.trainSize,
    testSize: m.testSize,
    epochs: m.epochs,
    trainedAt: m.trainedAt,
    layers: m.layers,
    defaultCamLayer: m.defaultCamLayer,
  };
}

export function listModels(dir = checkpointDir(), importedDir = importedModelDir()): { models: ModelInfo[]; problems: string[] } {
  const { manifests, problems } = listManifests(dir);
  // The imported folder is optional: its absence is not a problem to report.
  const imported = fs.existsSync(importedDir) ? listManifests(importedDir) : { manifests: [], problems: [] };
  const zooIds = new Set(manifests.map((m) => m.id));
  return {
    models: [...manifests, ...imported.manifests.filter((m) => !zooIds.has(m.id))].map(modelInfo),
    problems: [...problems, ...imported.problems],
  };
}

/**
 * A model's input [H, W, C] as listModels resolves its id (a usable zoo checkpoint first, then an
 * imported model), from that one manifest: a request's cost and time limit need it before a worker
 * is taken, and listing the whole catalogue per request would read every manifest. Null for an
 * unknown id (the worker names the models there are).
 */
export function modelInputShape(id: string, dir = checkpointDir(), importedDir = importedModelDir()): [number, number, number] | null {
  for (const from of [dir, importedDir]) {
    try {
      const [h, w, c] = readManifest(id, from).inputShape;
      return [h, w, c];
    } catch (err) {
      if (!(err instanceof CheckpointError)) throw err;
    }
  }
  return null;
}

const cache = new Map<string, ZooNet>();

/**
 * The loaded network for an id. An id with no checkpoint is the caller's mistake
 * (InferenceInputError naming the available ids); a checkpoint that exists but is
 * broken is a CheckpointError for the operator.
 */
export function getNet(id: string, dir = checkpointDir(), importedDir = importedModelDir()): ZooNet {
  const hit = cache.get(id);
  if (hit) return hit;
  try {
    const zoo = fs.existsSync(path.join(dir, `${id}.json`)) || !fs.existsSync(path.join(importedDir, `${id}.json`));
    const net = zoo ? loadZooNet(id, dir) : loadImportedNet(id, importedDir);
    cache.set(id, net);
    return net;
  } catch (err) {
    if (err instanceof CheckpointError && /not found|not a valid checkpoint id/.test(err.message)) {
      const known = listModels(dir, importedDir).models.map((m) => m.id);
      throw new InferenceInputError(`unknown model "${id}"; available models: ${known.join(", ") || "none (train one with npm run train)"}`);
    }
    throw err;
  }
}

/**
 * The ONNX file a served net runs from: a zoo checkpoint through the exporter (the very graph
 * researchers download), an imported model as the operator gave it (importOnnx.ts keeps a copy).
 * null for imports made before copies were kept: those stay on tfjs until imported again.
 */
function onnxOf(net: ZooNet, importedDir: string): Uint8Array | null {
  if (!isImportedManifest(net.manifest)) return exportZooNet(net);
  const file = path.join(importedDir, `${net.id}.onnx`);
  return fs.existsSync(file) ? fs.readFileSync(file) : null;
}

/**
 * Attaches the native runtime to a loaded network (net.native). Gradient methods use it where the
 * gradient graph covers the model's operators (net.nativeGradients says why not otherwise); a
 * model the native runtime cannot load at all stays on tfjs, and the log says why.
 */
export async function attachNative(net: ZooNet, importedDir = importedModelDir(), threads?: number): Promise<ZooNet> {
  const onnx = onnxOf(net, importedDir);
  if (!onnx) return net;
  try {
    const m = net.manifest;
    const graph = isImportedManifest(m) ? m.graph : null;
    net.native = await NativeModel.load(net.id, onnx, {
      inputShape: net.inputShape,
      normalize: graph?.normalize ?? null,
      stripSoftmax: graph?.strippedSoftmax ?? false,
      threads,
    });
    // Built now rather than at the first gradient method: a job cancelled while its session is
    // being made would otherwise have to wait for it, and the thread's warm-up covers it.
    net.nativeGradients = await net.native.gradientSupport();
    if (net.nativeGradients !== true) logger.warn({ model: net.id, reason: net.nativeGradients }, "gradient methods stay on tfjs for this model");
  } catch (err) {
    // A job stopped while the sessions were being made says nothing about the model: the next job loads it again.
    if (err instanceof NativeRunStopped) {
      void net.native?.release();
      delete net.native;
      delete net.nativeGradients;
      throw err;
    }
    logger.warn({ model: net.id, err: (err as Error).message }, "model served by tfjs: the native runtime could not load it");
  }
  return net;
}

/** Native loads by network object, so every catalogue (zoo, imports, multi-label) shares one cache. */
const nativeLoads = new WeakMap<ZooNet, Promise<ZooNet>>();

/**
 * A loaded network with its native runtime attached (attachNative), once per network per worker;
 * with ENGINE=tfjs, the network itself. A stopped load is dropped, so the next job loads again.
 */
export function servedNative(net: ZooNet, importedDir = importedModelDir()): Promise<ZooNet> {
  if (!nativeEngineOn()) return Promise.resolve(net);
  let p = nativeLoads.get(net);
  if (!p) {
    p = attachNative(net, importedDir);
    p.catch(() => nativeLoads.delete(net));
    nativeLoads.set(net, p);
  }
  return p;
}

/** The catalogue's network for an id, served natively (servedNative). */
export function getServedNet(id: string, dir = checkpointDir(), importedDir = importedModelDir()): Promise<ZooNet> {
  return servedNative(getNet(id, dir, importedDir), importedDir);
}

export function forgetNets(): void {
  for (const net of cache.values()) {
    void net.native?.release();
    net.dispose();
  }
  // Their native loads go with them (nativeLoads is keyed by the network object).
  cache.clear();
}
