// Small tensor utilities shared by the algorithm files: baselines and batching.
import * as tf from "@tensorflow/tfjs";
import type { Net } from "../net.ts";
import { targetOutputs } from "./gradients.ts";

/** A baseline of the input's shape filled with `value` (Captum's scalar baseline; 0 by default). */
export function constantBaseline(input: tf.Tensor4D, value: number): tf.Tensor4D {
  return tf.fill(input.shape, value) as tf.Tensor4D;
}

/** Repeats every row of x `times` times, row-major: [x0, x0, …, x1, x1, …]. */
export function repeatRows(x: tf.Tensor4D, times: number): tf.Tensor4D {
  if (times === 1) return tf.clone(x);
  const [n, h, w, c] = x.shape;
  return tf.tidy(() => tf.tile(x.reshape([n, 1, h, w, c]), [1, times, 1, 1, 1]).reshape([n * times, h, w, c]));
}

/** Evaluates F(·)[target] on a list of inputs built lazily, `perEval` rows per forward pass. */
export function evaluateInBatches(
  net: Net,
  count: number,
  perEval: number,
  build: (start: number, n: number) => tf.Tensor4D,
  target: number,
): Float32Array {
  const out = new Float32Array(count);
  for (let start = 0; start < count; start += perEval) {
    const n = Math.min(perEval, count - start);
    const batch = build(start, n);
    try {
      out.set(targetOutputs(net, batch, target, n), start);
    } finally {
      batch.dispose();
    }
  }
  return out;
}

export function sum(values: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i];
  return s;
}
