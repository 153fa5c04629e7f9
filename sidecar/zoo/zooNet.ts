// Builds a served Net (sidecar/inference/net.ts) from a checkpoint: the
// architecture's forward function over InferOps with the folded weights.
import * as tf from "@tensorflow/tfjs";
import type { ForwardOptions, Net } from "../inference/net.ts";
import { architecture } from "./architectures.ts";
import { CheckpointError, readCheckpoint, checkpointDir, type CheckpointManifest } from "./checkpoint.ts";
import { InferOps, type WeightMap } from "./layers.ts";

export interface ZooNet extends Net {
  manifest: CheckpointManifest;
  dispose(): void;
}

export function netFromWeights(manifest: CheckpointManifest, weights: WeightMap): ZooNet {
  const arch = architecture(manifest.arch);
  const numClasses = manifest.classNames.length;
  const [h, w, c] = manifest.inputShape;
  return {
    id: manifest.id,
    manifest,
    inputShape: [h, w, c],
    classNames: manifest.classNames,
    layers: manifest.layers,
    defaultCamLayer: manifest.defaultCamLayer,
    forward(x: tf.Tensor4D, opts: ForwardOptions = {}): tf.Tensor2D {
      if (x.shape[1] !== h || x.shape[2] !== w || x.shape[3] !== c) {
        throw new Error(`${manifest.id} expects input [N, ${h}, ${w}, ${c}], got [${x.shape.join(", ")}]`);
      }
      if (opts.tap && !manifest.layers.includes(opts.tap.layer)) {
        throw new Error(`${manifest.id} has no layer "${opts.tap.layer}"; its layers are ${manifest.layers.join(", ")}`);
      }
      return arch.forward(new InferOps(weights, opts.relu ?? "normal", opts.tap), x, numClasses, manifest.archConfig);
    },
    trainableVariables() {
      return [...weights.values()];
    },
    dispose() {
      for (const v of weights.values()) v.dispose();
      weights.clear();
    },
  };
}

/** Load a checkpoint by id into tf.Variables on the current backend; throws CheckpointError. */
export function loadZooNet(id: string, dir = checkpointDir()): ZooNet {
  const { manifest, arrays } = readCheckpoint(id, dir);
  const weights: WeightMap = new Map();
  for (const a of arrays) weights.set(a.name, tf.variable(tf.tensor(a.data, a.shape), false));
  const net = netFromWeights(manifest, weights);
  // A forward pass on zeros proves every weight the architecture asks for is present
  // and shaped right, so a mismatched checkpoint fails here, not in a user's request.
  try {
    tf.tidy(() => net.forward(tf.zeros([1, ...manifest.inputShape]) as tf.Tensor4D).dataSync());
  } catch (err) {
    net.dispose();
    throw new CheckpointError(`checkpoint "${id}" does not fit architecture ${manifest.arch}: ${(err as Error).message}`);
  }
  return net;
}
