// GuidedBackprop (Springenberg et al. 2014), as captum.attr.GuidedBackprop: the input
// gradient with every ReLU passing back only positive gradients where its input was
// positive (ReLU mode "guided", implemented by the net's ReLUs).
import type * as tf from "@tensorflow/tfjs";
import type { Net } from "../net.ts";
import { inputGradients, type Targets } from "./gradients.ts";
import type { AttributionSpec } from "./spec.ts";

export function guidedBackprop(net: Net, inputs: tf.Tensor4D, target: Targets, opts: { batchSize?: number } = {}): Promise<tf.Tensor4D> {
  return inputGradients(net, inputs, target, { relu: "guided", batchSize: opts.batchSize });
}

/** The registry's entry (index.ts). */
export const guidedBackpropSpec: AttributionSpec = {
  name: "GuidedBackprop",
  description: "Input gradient where ReLUs pass back only positive gradients of positive inputs (Springenberg et al. 2014).",
  params: [],
  hasBaseline: false,
  compute: async (net, x, t) => ({ attribution: await guidedBackprop(net, x, t) }),
};
