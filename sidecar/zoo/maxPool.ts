// Max pooling ("same" padding, as the zoo's networks use it) whose gradient follows PyTorch's
// rule, so every gradient method through a pooling layer matches Captum (one gradient convention
// for all of them). PyTorch's max_pool2d (ATen's CPU and CUDA kernels) scans each window row by row
// from its first in-image element with a running maximum that starts at −∞ and is replaced only by
// a strictly greater value: the whole gradient of an output goes to the FIRST maximum of its
// window, and a window of equal values (all zeros after a ReLU, a flat background, the zero
// baseline of IntegratedGradients) sends it to its first element.
// tfjs's MaxPoolGrad differs on the wasm backend: ties go to the last maximum, and an all-zero
// window passes nothing (its running maximum starts at the smallest positive float) except into
// element 0 of the tensor. The forward value is tfjs's own maxPool either way; only the backward
// pass is replaced, built from ops every backend has.
import * as tf from "@tensorflow/tfjs";

type GradArgs = Array<tf.Tensor | tf.GradSaveFunc>;

/** tfjs "same" padding on one axis: output size and the padding before (the smaller half) and after. */
export function samePool(inSize: number, k: number, stride: number): { out: number; before: number; after: number } {
  const out = Math.ceil(inSize / stride);
  const total = Math.max((out - 1) * stride + k - inSize, 0);
  const before = Math.floor(total / 2);
  return { out, before, after: total - before };
}

/** Explicit padding of a pooling window (ONNX/PyTorch `padding`), in pixels on each side. */
export interface PoolPads {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** One axis of a pooling with explicit padding (no ceil mode): output size and the padding before and after. */
function explicitPool(inSize: number, k: number, stride: number, before: number, after: number): { out: number; before: number; after: number } {
  return { out: Math.floor((inSize + before + after - k) / stride) + 1, before, after };
}

/**
 * The gradient of maxPool(x, k, s, "same") for upstream dy under PyTorch's first-maximum rule;
 * with `pads`, of the max pool over x padded explicitly (maxPoolPadded below: ONNX MaxPool pads).
 */
export function maxPoolGradFirstMax(x: tf.Tensor4D, dy: tf.Tensor4D, k: number, s: number, pads?: PoolPads): tf.Tensor4D {
  return tf.tidy(() => {
    const [n, h, w, c] = x.shape;
    const ph = pads ? explicitPool(h, k, s, pads.top, pads.bottom) : samePool(h, k, s);
    const pw = pads ? explicitPool(w, k, s, pads.left, pads.right) : samePool(w, k, s);
    // Padded cells are −∞, as in PyTorch (padding never holds a window's maximum).
    const xp = tf.pad(
      x,
      [
        [0, 0],
        [ph.before, ph.after],
        [pw.before, pw.after],
        [0, 0],
      ],
      -Infinity,
    );
    const spanH = (ph.out - 1) * s + 1;
    const spanW = (pw.out - 1) * s + 1;
    const offsets: Array<[number, number]> = [];
    for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) offsets.push([i, j]);
    // The window's element at offset (i, j) for every output position, in the window's row-major order.
    const at = ([i, j]: [number, number]) => tf.stridedSlice(xp, [0, i, j, 0], [n, i + spanH, j + spanW, c], [1, s, s, 1]) as tf.Tensor4D;
    let best = at(offsets[0]);
    let winner = tf.zeros(best.shape, "int32") as tf.Tensor4D;
    for (let o = 1; o < offsets.length; o++) {
      const v = at(offsets[o]);
      const greater = tf.greater(v, best); // strictly: an equal later value does not take over
      best = tf.where(greater, v, best);
      winner = tf.where(greater, tf.fill(winner.shape, o, "int32"), winner);
    }
    const hp = h + ph.before + ph.after;
    const wp = w + pw.before + pw.after;
    let dxp: tf.Tensor4D = tf.zeros([n, hp, wp, c]);
    const zeros = tf.zerosLike(dy);
    offsets.forEach(([i, j], o) => {
      const g = tf.where(tf.equal(winner, o), dy, zeros) as tf.Tensor4D;
      // Back to the padded grid: stride s apart, starting at (i, j).
      dxp = tf.add(dxp, placeStrided(g, s, [i, hp - i - spanH], [j, wp - j - spanW]));
    });
    return tf.slice(dxp, [0, ph.before, pw.before, 0], [n, h, w, c]);
  });
}

/** Spreads g's positions s apart (zeros between) and pads the result to the padded input's size. */
function placeStrided(g: tf.Tensor4D, s: number, padH: [number, number], padW: [number, number]): tf.Tensor4D {
  const [n, oh, ow, c] = g.shape;
  let spread = g;
  if (s > 1) {
    const wide = tf.pad(tf.reshape(g, [n, oh, 1, ow, 1, c]), [
      [0, 0],
      [0, 0],
      [0, s - 1],
      [0, 0],
      [0, s - 1],
      [0, 0],
    ]);
    spread = tf.slice(tf.reshape(wide, [n, oh * s, ow * s, c]) as tf.Tensor4D, [0, 0, 0, 0], [n, (oh - 1) * s + 1, (ow - 1) * s + 1, c]);
  }
  return tf.pad(spread, [[0, 0], padH, padW, [0, 0]]);
}

const cache = new Map<string, (x: tf.Tensor4D) => tf.Tensor4D>();

/** maxPool(x, k, s, "same") with PyTorch's gradient. */
export function maxPool(x: tf.Tensor4D, k: number, s: number): tf.Tensor4D {
  const key = `${k}/${s}`;
  let op = cache.get(key);
  if (!op) {
    op = tf.customGrad((...args: GradArgs) => {
      const input = args[0] as tf.Tensor4D;
      (args[1] as tf.GradSaveFunc)([input]);
      return {
        value: tf.maxPool(input, k, s, "same"),
        gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => maxPoolGradFirstMax(saved[0] as tf.Tensor4D, dy as tf.Tensor4D, k, s),
      };
    }) as (x: tf.Tensor4D) => tf.Tensor4D;
    cache.set(key, op);
  }
  return op(x);
}

const paddedCache = new Map<string, (x: tf.Tensor4D) => tf.Tensor4D>();

/**
 * maxPool(x, k, s) over x padded by `pads` with −∞ (ONNX MaxPool / torch.nn.MaxPool2d padding,
 * e.g. torchvision ResNet's 3×3/2 pad 1, which tfjs's "same" puts on the other side), with the
 * same PyTorch gradient rule as maxPool. Used by imported ONNX graphs (onnx/graphNet.ts).
 */
export function maxPoolPadded(x: tf.Tensor4D, k: number, s: number, pads: PoolPads): tf.Tensor4D {
  const key = `${k}/${s}/${pads.top},${pads.bottom},${pads.left},${pads.right}`;
  let op = paddedCache.get(key);
  if (!op) {
    op = tf.customGrad((...args: GradArgs) => {
      const input = args[0] as tf.Tensor4D;
      (args[1] as tf.GradSaveFunc)([input]);
      const padded = tf.pad(
        input,
        [
          [0, 0],
          [pads.top, pads.bottom],
          [pads.left, pads.right],
          [0, 0],
        ],
        -Infinity,
      );
      return {
        value: tf.maxPool(padded, k, s, "valid"),
        gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => maxPoolGradFirstMax(saved[0] as tf.Tensor4D, dy as tf.Tensor4D, k, s, pads),
      };
    }) as (x: tf.Tensor4D) => tf.Tensor4D;
    paddedCache.set(key, op);
  }
  return op(x);
}
