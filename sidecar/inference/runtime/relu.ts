// ReLU whose backward pass follows a ReluMode, for Net implementations. The forward
// value is always max(x, 0); only the gradient changes, as Captum's
// GuidedBackprop/Deconvolution hooks do on every nn.ReLU module:
//   normal: dy · 1[x > 0]
//   guided: max(dy · 1[x > 0], 0)   (Springenberg et al.)
//   deconv: max(dy, 0)              (Zeiler & Fergus; ignores the forward mask)
import * as tf from "@tensorflow/tfjs";
import type { ReluMode } from "../net.ts";

const guided = tf.customGrad((...args: Array<tf.Tensor | tf.GradSaveFunc>) => {
  const x = args[0] as tf.Tensor;
  const save = args[1] as tf.GradSaveFunc;
  save([x]);
  return {
    value: tf.relu(x),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => tf.relu(tf.mul(dy, tf.step(saved[0]))),
  };
}) as (x: tf.Tensor) => tf.Tensor;

const deconv = tf.customGrad((...args: Array<tf.Tensor | tf.GradSaveFunc>) => ({
  value: tf.relu(args[0] as tf.Tensor),
  gradFunc: (dy: tf.Tensor) => tf.relu(dy),
})) as (x: tf.Tensor) => tf.Tensor;

export function reluWithMode<T extends tf.Tensor>(x: T, mode: ReluMode = "normal"): T {
  if (mode === "guided") return guided(x) as T;
  if (mode === "deconv") return deconv(x) as T;
  return tf.relu(x);
}
