// Deconvolution (Zeiler & Fergus 2014), as captum.attr.Deconvolution: the input
// gradient with every ReLU applied to the gradient itself, ignoring the forward mask
// (ReLU mode "deconv", implemented by the net's ReLUs).
import type * as tf from "@tensorflow/tfjs";
import type { Net } from "../net.ts";
import { inputGradients, type Targets } from "./gradients.ts";

export function deconvolution(net: Net, inputs: tf.Tensor4D, target: Targets, opts: { batchSize?: number } = {}): tf.Tensor4D {
  return inputGradients(net, inputs, target, { relu: "deconv", batchSize: opts.batchSize });
}
