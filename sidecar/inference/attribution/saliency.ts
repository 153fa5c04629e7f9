// Saliency (Simonyan et al. 2013), as captum.attr.Saliency: the gradient of the target
// output w.r.t. the input, its absolute value by default (abs=True).
import * as tf from "@tensorflow/tfjs";
import type { Net, ReluMode } from "../net.ts";
import { inputGradients, type Targets } from "./gradients.ts";
import { bool, type AttributionSpec } from "./spec.ts";

export interface SaliencyOptions {
  abs?: boolean;
  relu?: ReluMode;
  batchSize?: number;
}

export async function saliency(net: Net, inputs: tf.Tensor4D, target: Targets, opts: SaliencyOptions = {}): Promise<tf.Tensor4D> {
  const grads = await inputGradients(net, inputs, target, { relu: opts.relu, batchSize: opts.batchSize });
  if (opts.abs === false) return grads;
  const out = tf.abs(grads);
  grads.dispose();
  return out;
}

/** The registry's entry (index.ts). */
export const saliencySpec: AttributionSpec = {
  name: "Saliency",
  description: "Gradient of the class score w.r.t. the input pixels, absolute value by default (Simonyan et al. 2013).",
  params: [{ name: "abs", type: "bool", default: true, description: "return |gradient|" }],
  hasBaseline: false,
  compute: async (net, x, t, p) => ({ attribution: await saliency(net, x, t, { abs: bool(p, "abs") }) }),
};
