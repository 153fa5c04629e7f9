// A "same"-padded conv2d whose gradients are themselves forward convolutions.
// Why: on the wasm backend the forward Conv2D kernel is XNNPACK-fast, while
// Conv2DBackpropInput is a plain loop and Conv2DBackpropFilter has to be assembled
// from slices and matmuls; profiled on a ResNet step they cost ~30× the forward
// convs. Expressing both gradients as Conv2D calls makes a training step a few
// times the forward cost on every backend, which is what lets the zoo train on a
// shared two-core CPU. Only training uses this; served nets use tf.conv2d.
import * as tf from "@tensorflow/tfjs";

/** tfjs "same" padding: total = max((out−1)·s + k − in, 0), the smaller half first. */
function samePadding(inSize: number, k: number, stride: number): { out: number; before: number } {
  const out = Math.ceil(inSize / stride);
  const total = Math.max((out - 1) * stride + k - inSize, 0);
  return { out, before: Math.floor(total / 2) };
}

/** Pad (positive) or crop (negative) one spatial axis of an NHWC tensor at both ends. */
function padOrCrop(x: tf.Tensor4D, axis: 1 | 2, before: number, after: number): tf.Tensor4D {
  let y = x;
  if (before < 0 || after < 0) {
    const begin: [number, number, number, number] = [0, 0, 0, 0];
    const size: [number, number, number, number] = [-1, -1, -1, -1];
    begin[axis] = Math.max(0, -before);
    size[axis] = y.shape[axis] - Math.max(0, -before) - Math.max(0, -after);
    y = tf.slice(y, begin, size);
  }
  if (before > 0 || after > 0) {
    const pads: Array<[number, number]> = [
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
    ];
    pads[axis] = [Math.max(0, before), Math.max(0, after)];
    y = tf.pad(y, pads);
  }
  return y;
}

/** Insert (stride − 1) zeros between the spatial positions of dy (the transpose of striding). */
function dilate(dy: tf.Tensor4D, stride: number): tf.Tensor4D {
  if (stride === 1) return dy;
  const [n, h, w, c] = dy.shape;
  const spread = tf.pad(tf.reshape(dy, [n, h, 1, w, 1, c]), [
    [0, 0],
    [0, 0],
    [0, stride - 1],
    [0, 0],
    [0, stride - 1],
    [0, 0],
  ]);
  return tf.slice(tf.reshape(spread, [n, h * stride, w * stride, c]) as tf.Tensor4D, [0, 0, 0, 0], [n, (h - 1) * stride + 1, (w - 1) * stride + 1, c]);
}

function inputGradient(dy: tf.Tensor4D, w: tf.Tensor4D, inH: number, inW: number, stride: number): tf.Tensor4D {
  const k = w.shape[0];
  const ph = samePadding(inH, k, stride),
    pw = samePadding(inW, w.shape[1], stride);
  const d = dilate(dy, stride);
  // dx[i] = Σ_j d[i + before − (k−1) + j] · flip(w)[j]: a valid correlation of d padded by (k−1−before) on the left.
  const left = k - 1 - ph.before,
    leftW = w.shape[1] - 1 - pw.before;
  let p = padOrCrop(d, 1, left, inH + k - 1 - left - d.shape[1]);
  p = padOrCrop(p, 2, leftW, inW + w.shape[1] - 1 - leftW - d.shape[2]);
  const flipped = tf.transpose(tf.reverse(w, [0, 1]), [0, 1, 3, 2]) as tf.Tensor4D;
  return tf.conv2d(p, flipped, 1, "valid");
}

function filterGradient(x: tf.Tensor4D, dy: tf.Tensor4D, kh: number, kw: number, stride: number): tf.Tensor4D {
  const [, inH, inW] = x.shape;
  const ph = samePadding(inH, kh, stride),
    pw = samePadding(inW, kw, stride);
  const [, outH, outW] = dy.shape;
  // dW[a, b, ci, co] = Σ_{n,y,x} xp[n, y·s + a, x·s + b, ci] · dy[n, y, x, co]: a convolution of
  // xp (channels ↔ batch swapped) with dy as the filter, dilated by the stride.
  let xp = padOrCrop(x, 1, ph.before, (outH - 1) * stride + kh - inH - ph.before);
  xp = padOrCrop(xp, 2, pw.before, (outW - 1) * stride + kw - inW - pw.before);
  const xt = tf.transpose(xp, [3, 1, 2, 0]) as tf.Tensor4D; // [ci, H', W', n]
  const dyt = tf.transpose(dy, [1, 2, 0, 3]) as tf.Tensor4D; // [outH, outW, n, co]
  const g = tf.conv2d(xt, dyt, 1, "valid", "NHWC", stride); // [ci, kh, kw, co]
  return tf.transpose(g, [1, 2, 0, 3]) as tf.Tensor4D;
}

/** conv2d(x, w, stride, "same") with both gradients computed by forward convolutions. */
export function conv2dSameTrainable(x: tf.Tensor4D, w: tf.Tensor4D, stride: number): tf.Tensor4D {
  const op = tf.customGrad((...args: Array<tf.Tensor | tf.GradSaveFunc>) => {
    const xi = args[0] as tf.Tensor4D,
      wi = args[1] as tf.Tensor4D;
    (args[2] as tf.GradSaveFunc)([xi, wi]);
    return {
      value: tf.conv2d(xi as tf.Tensor4D, wi as tf.Tensor4D, stride, "same"),
      gradFunc: (dy: tf.Tensor4D, saved: tf.Tensor[]) => {
        const [sx, sw] = saved as tf.Tensor4D[];
        return [inputGradient(dy, sw, sx.shape[1], sx.shape[2], stride), filterGradient(sx, dy, sw.shape[0], sw.shape[1], stride)];
      },
    };
  });
  return op(x, w) as tf.Tensor4D;
}
