// InputXGradient, as captum.attr.InputXGradient: input ⊙ ∂F/∂input.
import * as tf from "@tensorflow/tfjs";
import type { Net } from "../net.ts";
import { inputGradients, type Targets } from "./gradients.ts";

export function inputXGradient(net: Net, inputs: tf.Tensor4D, target: Targets, opts: { batchSize?: number } = {}): tf.Tensor4D {
  const grads = inputGradients(net, inputs, target, { batchSize: opts.batchSize });
  const out = tf.mul(inputs, grads) as tf.Tensor4D;
  grads.dispose();
  return out;
}
