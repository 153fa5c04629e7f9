// Small tensor utilities shared by the algorithm files: baselines and batching.
import * as tf from "@tensorflow/tfjs";
import type { Net } from "../net.ts";
import { targetOutputsOf } from "./gradients.ts";

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

/** Evaluates F(·)[target] on a list of inputs built lazily, `perEval` rows per forward pass (native where the net has it). */
export async function evaluateInBatches(
  net: Net,
  count: number,
  perEval: number,
  build: (start: number, n: number) => tf.Tensor4D,
  target: number,
): Promise<Float32Array> {
  const out = new Float32Array(count);
  for (let start = 0; start < count; start += perEval) {
    const n = Math.min(perEval, count - start);
    const batch = build(start, n);
    try {
      out.set(await targetOutputsOf(net, batch, target), start);
    } finally {
      batch.dispose();
    }
  }
  return out;
}

/**
 * The perturbation core of FeatureAblation and Occlusion: for each of `count` masks,
 * F(x)[target] − F(x with the masked elements replaced by the baseline)[target].
 * `fillMask(i, rows, offset)` sets the elements of mask i to 1 in a zeroed row at `offset`.
 */
export async function maskedOutputDrops(
  net: Net,
  inputs: tf.Tensor4D,
  target: number,
  baselines: number | tf.Tensor4D | undefined,
  count: number,
  perEval: number,
  fillMask: (i: number, rows: Float32Array, offset: number) => void,
): Promise<Float64Array> {
  const [, H, W, C] = inputs.shape;
  const size = H * W * C;
  const baseline = typeof baselines === "object" ? baselines : constantBaseline(inputs, baselines ?? 0);
  try {
    const fx = (await targetOutputsOf(net, inputs, target))[0];
    const perturbed = await evaluateInBatches(
      net,
      count,
      Math.max(1, perEval),
      (start, n) =>
        tf.tidy(() => {
          const masks = new Float32Array(n * size);
          for (let i = 0; i < n; i++) fillMask(start + i, masks, i * size);
          const m = tf.tensor4d(masks, [n, H, W, C]);
          // x + m ⊙ (baseline − x): the baseline under the mask, x elsewhere.
          return tf.add(inputs, tf.mul(m, tf.sub(baseline, inputs))) as tf.Tensor4D;
        }),
      target,
    );
    return Float64Array.from(perturbed, (v) => fx - v);
  } finally {
    if (baseline !== baselines) baseline.dispose();
  }
}

export function sum(values: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i];
  return s;
}
