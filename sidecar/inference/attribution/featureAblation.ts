// FeatureAblation, as captum.attr.FeatureAblation: every feature of feature_mask (all
// elements sharing an id) is replaced by the baseline together, and F(x) − F(ablated)
// is the attribution of each of its elements. Without a mask every scalar is a feature.
import * as tf from "@tensorflow/tfjs";
import type { Net } from "../net.ts";
import { maskedOutputDrops } from "./common.ts";
import { elementMask, type FeatureMask } from "./featureMask.ts";

export interface FeatureAblationOptions {
  featureMask?: FeatureMask;
  /** A scalar or a tensor of the input's shape; 0 by default. */
  baselines?: number | tf.Tensor4D;
  perturbationsPerEval?: number;
}

/** Feature ablation of one example (inputs [1, H, W, C]) for one target. */
export function featureAblation(net: Net, inputs: tf.Tensor4D, target: number, opts: FeatureAblationOptions = {}): tf.Tensor4D {
  const [n, H, W, C] = inputs.shape;
  if (n !== 1) throw new RangeError("feature ablation attributes one example at a time");
  const mask = opts.featureMask ?? elementMask(H, W, C);
  const size = H * W * C;
  // Captum ablates ids from the mask's minimum to its maximum; absent ids change nothing.
  let minId = Infinity;
  for (const v of mask.ids) minId = Math.min(minId, v);
  const ids = Array.from({ length: mask.count - minId }, (_, i) => minId + i);
  const drops = maskedOutputDrops(net, inputs, target, opts.baselines, ids.length, opts.perturbationsPerEval ?? 1, (i, rows, offset) => {
    const id = ids[i];
    for (let e = 0; e < size; e++) if (mask.ids[e] === id) rows[offset + e] = 1;
  });
  const byId = new Map<number, number>();
  ids.forEach((id, i) => byId.set(id, drops[i]));
  const attr = new Float32Array(size);
  for (let e = 0; e < size; e++) attr[e] = byId.get(mask.ids[e]) ?? 0;
  return tf.tensor4d(attr, [1, H, W, C]);
}
