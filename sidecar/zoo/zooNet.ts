// Builds a served Net (sidecar/inference/net.ts) from a checkpoint: the
// architecture's forward function over InferOps with the folded weights.
import * as tf from "@tensorflow/tfjs";
import type { ForwardOptions, Net } from "../inference/net.ts";
import { architecture } from "./architectures.ts";
import { CheckpointError, readCheckpoint, checkpointDir, type CheckpointManifest, type NamedArray } from "./checkpoint.ts";
import { InferOps, type WeightMap } from "./layers.ts";

export interface ZooNet extends Net {
  manifest: CheckpointManifest;
  dispose(): void;
}

/**
 * What every served net (zoo classifier, segmenter, imported graph) takes from its manifest, and
 * how it lists and frees its weights (the Net interface of sidecar/inference/net.ts).
 */
export function servedFields<M extends CheckpointManifest>(manifest: M, weights: WeightMap) {
  const [h, w, c] = manifest.inputShape;
  return {
    id: manifest.id,
    manifest,
    inputShape: [h, w, c] as [number, number, number],
    classNames: manifest.classNames,
    layers: manifest.layers,
    defaultCamLayer: manifest.defaultCamLayer,
    trainableVariables(): tf.Variable[] {
      return [...weights.values()];
    },
    dispose(): void {
      for (const v of weights.values()) v.dispose();
      weights.clear();
    },
  };
}

/** Refuses an input of another size than the manifest's, or a tap of a layer the net does not have. */
export function checkForward(manifest: CheckpointManifest, x: tf.Tensor4D, opts: ForwardOptions): void {
  const [h, w, c] = manifest.inputShape;
  if (x.shape[1] !== h || x.shape[2] !== w || x.shape[3] !== c) {
    throw new Error(`${manifest.id} expects input [N, ${h}, ${w}, ${c}], got [${x.shape.join(", ")}]`);
  }
  if (opts.tap && !manifest.layers.includes(opts.tap.layer)) {
    throw new Error(`${manifest.id} has no layer "${opts.tap.layer}"; its layers are ${manifest.layers.join(", ")}`);
  }
}

/**
 * A checkpoint's arrays as constant weights, served as `serve` makes them; a forward pass on zeros
 * proves every weight the network asks for is present and shaped right, so a mismatched checkpoint
 * fails here (CheckpointError with `failure`'s words), not in a user's request.
 */
export function serveChecked<N extends { forward(x: tf.Tensor4D): tf.Tensor; dispose(): void }>(
  manifest: CheckpointManifest,
  arrays: NamedArray[],
  serve: (weights: WeightMap) => N,
  failure: (message: string) => string,
): N {
  const weights: WeightMap = new Map();
  for (const a of arrays) weights.set(a.name, tf.variable(tf.tensor(a.data, a.shape), false));
  const net = serve(weights);
  try {
    tf.tidy(() => net.forward(tf.zeros([1, ...manifest.inputShape]) as tf.Tensor4D).dataSync());
  } catch (err) {
    net.dispose();
    throw new CheckpointError(failure((err as Error).message));
  }
  return net;
}

export function netFromWeights(manifest: CheckpointManifest, weights: WeightMap): ZooNet {
  const arch = architecture(manifest.arch);
  const numClasses = manifest.classNames.length;
  return {
    ...servedFields(manifest, weights),
    forward(x: tf.Tensor4D, opts: ForwardOptions = {}): tf.Tensor2D {
      checkForward(manifest, x, opts);
      return arch.forward(new InferOps(weights, opts.relu ?? "normal", opts.tap), x, numClasses, manifest.archConfig);
    },
  };
}

/** Load a checkpoint by id into tf.Variables on the current backend; throws CheckpointError. */
export function loadZooNet(id: string, dir = checkpointDir()): ZooNet {
  const { manifest, arrays } = readCheckpoint(id, dir);
  return serveChecked(
    manifest,
    arrays,
    (weights) => netFromWeights(manifest, weights),
    (message) => `checkpoint "${id}" does not fit architecture ${manifest.arch}: ${message}`,
  );
}
