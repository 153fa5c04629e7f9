// The one ReLU of the sidecar's networks (the zoo's and the tests' Captum toy models), with a
// selectable backward rule. The forward value is always max(x, 0); only the gradient changes,
// as Captum's GuidedBackprop/Deconvolution hooks do on every nn.ReLU module
// (Springenberg et al.; Zeiler & Fergus):
//   normal:  dx = dy · [x > 0]
//   guided:  dx = dy · [x > 0] · [dy > 0]
//   deconv:  dx = max(dy, 0)          (the input's sign is ignored)
import * as tf from "@tensorflow/tfjs";
import type { ReluMode } from "../inference/net.ts";

// customGrad's callback receives its tensors and the save function as one rest list.
type GradArgs = Array<tf.Tensor | tf.GradSaveFunc>;

const guidedRelu = tf.customGrad((...args: GradArgs) => {
  const x = args[0] as tf.Tensor;
  (args[1] as tf.GradSaveFunc)([x]);
  return {
    value: tf.relu(x),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => tf.mul(tf.mul(dy, tf.step(saved[0])), tf.step(dy)),
  };
});

const deconvRelu = tf.customGrad((...args: GradArgs) => ({
  value: tf.relu(args[0] as tf.Tensor),
  gradFunc: (dy: tf.Tensor) => tf.relu(dy),
}));

export function relu<T extends tf.Tensor>(x: T, mode: ReluMode = "normal"): T {
  if (mode === "guided") return guidedRelu(x) as T;
  if (mode === "deconv") return deconvRelu(x) as T;
  return tf.relu(x);
}
