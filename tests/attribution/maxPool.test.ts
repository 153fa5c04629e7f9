// The zoo's max pooling sends gradients by PyTorch's rule (sidecar/zoo/maxPool.ts): the first
// maximum of a window in row-major order, and the first in-image element of a window of equal
// values. Hand-computed cases, a literal port of ATen's CPU loop on random inputs full of ties, and
// a small network with pooling, on the wasm and cpu backends.
import { describe, it, expect, beforeAll } from "vitest";
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { maxPool, samePool } from "../../sidecar/zoo/maxPool.ts";

/** ATen's max_pool2d forward index choice and its backward scatter, written out with loops (NHWC). */
function referenceGrad(x: Float32Array, shape: [number, number, number, number], dy: Float32Array, k: number, s: number): Float32Array {
  const [n, h, w, c] = shape;
  const ph = samePool(h, k, s);
  const pw = samePool(w, k, s);
  const dx = new Float32Array(x.length);
  const idx = (b: number, y: number, xx: number, ch: number) => ((b * h + y) * w + xx) * c + ch;
  for (let b = 0; b < n; b++)
    for (let oy = 0; oy < ph.out; oy++)
      for (let ox = 0; ox < pw.out; ox++)
        for (let ch = 0; ch < c; ch++) {
          const y0 = Math.max(oy * s - ph.before, 0);
          const y1 = Math.min(oy * s - ph.before + k, h);
          const x0 = Math.max(ox * s - pw.before, 0);
          const x1 = Math.min(ox * s - pw.before + k, w);
          let maxIndex = idx(b, y0, x0, ch);
          let maxVal = -Infinity;
          for (let y = y0; y < y1; y++)
            for (let xx = x0; xx < x1; xx++) {
              const v = x[idx(b, y, xx, ch)];
              if (v > maxVal || Number.isNaN(v)) {
                maxVal = v;
                maxIndex = idx(b, y, xx, ch);
              }
            }
          dx[maxIndex] += dy[((b * ph.out + oy) * pw.out + ox) * c + ch];
        }
  return dx;
}

/** Deterministic small integers (many ties, many zeros, as after a ReLU). */
function tiedValues(count: number, seed: number): Float32Array {
  let a = seed >>> 0;
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    a = (Math.imul(a, 1664525) + 1013904223) >>> 0;
    out[i] = Math.max(0, (a >>> 28) - 9); // 0 with probability 10/16, else 1..6
  }
  return out;
}

function poolGrad(x: tf.Tensor4D, dy: tf.Tensor4D, k: number, s: number): Float32Array {
  const g = tf.grad((input: tf.Tensor) => tf.sum(tf.mul(maxPool(input as tf.Tensor4D, k, s), dy)))(x);
  return g.dataSync() as Float32Array;
}

describe.each(["wasm", "cpu"] as const)("max-pool gradient on %s", (backend) => {
  beforeAll(async () => {
    await initBackend(backend);
  });

  it("2×2 stride 2: ties go to the first maximum, an all-zero window to its first element", () => {
    // prettier-ignore
    const x = tf.tensor4d([
      1, 1, 0, 0,
      0, 1, 0, 0,
      2, 3, 5, 4,
      3, 1, 5, 5,
    ], [1, 4, 4, 1]);
    const dy = tf.tensor4d([1, 2, 3, 4], [1, 2, 2, 1]);
    // prettier-ignore
    expect(Array.from(poolGrad(x, dy, 2, 2))).toEqual([
      1, 0, 2, 0,
      0, 0, 0, 0,
      0, 3, 4, 0,
      0, 0, 0, 0,
    ]);
    expect(Array.from(maxPool(x, 2, 2).dataSync())).toEqual([1, 0, 3, 5]);
  });

  it.runIf(backend === "wasm")("is needed: tfjs's own wasm gradient sends ties to the last maximum and drops an all-zero window", () => {
    // The same input as above through tf.maxPool's registered gradient.
    const x = tf.tensor4d([1, 1, 0, 0, 0, 1, 0, 0, 2, 3, 5, 4, 3, 1, 5, 5], [1, 4, 4, 1]);
    const dy = tf.tensor4d([1, 2, 3, 4], [1, 2, 2, 1]);
    const builtin = tf.grad((input: tf.Tensor) => tf.sum(tf.mul(tf.maxPool(input as tf.Tensor4D, 2, 2, "same"), dy)))(x);
    expect(Array.from(builtin.dataSync())).toEqual([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 3, 0, 0, 4]);
  });

  it("3×3 stride 1 with same padding on a flat zero map: each window's first in-image element", () => {
    const x = tf.zeros([1, 3, 3, 1]) as tf.Tensor4D;
    const dy = tf.ones([1, 3, 3, 1]) as tf.Tensor4D;
    // Windows (rows, cols) start at −1..1: outputs (0,0),(0,1),(1,0),(1,1) → (0,0); (0,2),(1,2) → (0,1);
    // (2,0),(2,1) → (1,0); (2,2) → (1,1). The last row and column receive nothing.
    expect(Array.from(poolGrad(x, dy, 3, 1))).toEqual([4, 2, 0, 2, 1, 0, 0, 0, 0]);
  });

  it.each([
    { shape: [2, 8, 8, 3] as [number, number, number, number], k: 2, s: 2 },
    { shape: [1, 7, 5, 2] as [number, number, number, number], k: 2, s: 2 },
    { shape: [2, 6, 7, 4] as [number, number, number, number], k: 3, s: 1 },
    { shape: [1, 5, 5, 1] as [number, number, number, number], k: 3, s: 2 },
  ])("matches ATen's loop on tied inputs: $shape, k $k, s $s", ({ shape, k, s }) => {
    const size = shape.reduce((a, b) => a * b, 1);
    const xv = tiedValues(size, size + k * 7 + s);
    const ph = samePool(shape[1], k, s);
    const pw = samePool(shape[2], k, s);
    const dyShape: [number, number, number, number] = [shape[0], ph.out, pw.out, shape[3]];
    const dyv = Float32Array.from({ length: dyShape.reduce((a, b) => a * b, 1) }, (_, i) => ((i * 37) % 11) - 5);
    const got = poolGrad(tf.tensor4d(xv, shape), tf.tensor4d(dyv, dyShape), k, s);
    expect(Array.from(got)).toEqual(Array.from(referenceGrad(xv, shape, dyv, k, s)));
    // The forward value is tfjs's own.
    expect(Array.from(maxPool(tf.tensor4d(xv, shape), k, s).dataSync())).toEqual(Array.from(tf.maxPool(tf.tensor4d(xv, shape), k, s, "same").dataSync()));
  });

  it("through a network: relu(a·x + b) → pool → weighted sum, against the gradient written by hand", () => {
    const shape: [number, number, number, number] = [1, 6, 6, 2];
    const xv = tiedValues(72, 3).map((v) => v - 2); // negatives too, so the ReLU zeroes whole windows
    const a = 0.5,
      b = -0.25;
    const wv = Float32Array.from({ length: 18 }, (_, i) => (i % 5) - 2);
    const f = (x: tf.Tensor) => tf.sum(tf.mul(maxPool(tf.relu(tf.add(tf.mul(x, a), b)) as tf.Tensor4D, 2, 2), tf.tensor4d(wv, [1, 3, 3, 2])));
    const got = tf.grad(f)(tf.tensor4d(xv, shape)).dataSync();
    const hidden = xv.map((v) => Math.max(a * v + b, 0));
    const poolDx = referenceGrad(hidden, shape, wv, 2, 2);
    const expected = Array.from(xv, (v, i) => (a * v + b > 0 ? a * poolDx[i] : 0));
    // (+0 turns the −0 of a zeroed ReLU gradient into 0: the values, not their signs of zero, are compared.)
    expect(Array.from(got, (v) => v + 0)).toEqual(expected.map((v) => v + 0));
  });
});
