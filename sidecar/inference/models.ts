// The model catalogue (from checkpoint manifests, cheap: no weights read) and the
// per-thread cache of loaded networks (each worker loads a model once, on first use).
import { CheckpointError, checkpointDir, listManifests, type CheckpointManifest } from "../zoo/checkpoint.ts";
import { loadZooNet, type ZooNet } from "../zoo/zooNet.ts";
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

export function listModels(dir = checkpointDir()): { models: ModelInfo[]; problems: string[] } {
  const { manifests, problems } = listManifests(dir);
  return { models: manifests.map(modelInfo), problems };
}

const cache = new Map<string, ZooNet>();

/**
 * The loaded network for an id. An id with no checkpoint is the caller's mistake
 * (InferenceInputError naming the available ids); a checkpoint that exists but is
 * broken is a CheckpointError for the operator.
 */
export function getNet(id: string, dir = checkpointDir()): ZooNet {
  const hit = cache.get(id);
  if (hit) return hit;
  try {
    const net = loadZooNet(id, dir);
    cache.set(id, net);
    return net;
  } catch (err) {
    if (err instanceof CheckpointError && /not found|not a valid checkpoint id/.test(err.message)) {
      const known = listManifests(dir).manifests.map((m) => m.id);
      throw new InferenceInputError(`unknown model "${id}"; available models: ${known.join(", ") || "none (train one with npm run train)"}`);
    }
    throw err;
  }
}

export function forgetNets(): void {
  for (const net of cache.values()) net.dispose();
  cache.clear();
}
