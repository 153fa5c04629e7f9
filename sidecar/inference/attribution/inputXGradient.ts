// InputXGradient, as captum.attr.InputXGradient: input ⊙ ∂F/∂input.
import * as tf from "@tensorflow/tfjs";
import type { Net } from "../net.ts";
import { inputGradients, type Targets } from "./gradients.ts";
import type { AttributionSpec } from "./spec.ts";

export async function inputXGradient(net: Net, inputs: tf.Tensor4D, target: Targets, opts: { batchSize?: number } = {}): Promise<tf.Tensor4D> {
  const grads = await inputGradients(net, inputs, target, { batchSize: opts.batchSize });
  const out = tf.mul(inputs, grads) as tf.Tensor4D;
  grads.dispose();
  return out;
}

/** The registry's entry (index.ts). */
export const inputXGradientSpec: AttributionSpec = {
  name: "InputXGradient",
  description: "Input multiplied element-wise by the gradient of the class score.",
  params: [],
  hasBaseline: false,
  compute: async (net, x, t) => ({ attribution: await inputXGradient(net, x, t) }),
};
