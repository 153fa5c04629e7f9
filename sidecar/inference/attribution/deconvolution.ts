// Deconvolution (Zeiler & Fergus 2014), as captum.attr.Deconvolution: the input
// gradient with every ReLU applied to the gradient itself, ignoring the forward mask
// (ReLU mode "deconv", implemented by the net's ReLUs).
import type * as tf from "@tensorflow/tfjs";
import type { Net } from "../net.ts";
import { inputGradients, type Targets } from "./gradients.ts";
import type { AttributionSpec } from "./spec.ts";

export function deconvolution(net: Net, inputs: tf.Tensor4D, target: Targets, opts: { batchSize?: number } = {}): Promise<tf.Tensor4D> {
  return inputGradients(net, inputs, target, { relu: "deconv", batchSize: opts.batchSize });
}

/** The registry's entry (index.ts). */
export const deconvolutionSpec: AttributionSpec = {
  name: "Deconvolution",
  description: "Input gradient where ReLUs pass back only positive gradients, ignoring the forward pass (Zeiler & Fergus 2014).",
  params: [],
  hasBaseline: false,
  compute: async (net, x, t) => ({ attribution: await deconvolution(net, x, t) }),
};
