// Captum's toy models (tests/helpers/basic_models.py) rebuilt as Nets with the same
// weights. Captum's inputs are rows of features or NCHW images; here a feature row of
// length F is an NHWC image [1, 1, F] (features on the channel axis) and an NCHW image
// [1, H, W] is NHWC [H, W, 1]. Where a Captum model flattens a conv output (x.view) the
// NHWC activation is transposed to NCHW first so the Linear weights line up.
import * as tf from "@tensorflow/tfjs";
import type { ForwardOptions, Net } from "../../sidecar/inference/net.ts";
import { relu as reluWithMode } from "../../sidecar/zoo/relu.ts";

function applyTap(name: string, t: tf.Tensor, opts?: ForwardOptions): tf.Tensor {
  if (opts?.tap && opts.tap.layer === name) {
    const replaced = opts.tap.fn(t);
    if (replaced) return replaced;
  }
  return t;
}

function makeNet(
  id: string,
  inputShape: [number, number, number],
  classes: number,
  layers: string[],
  body: (x: tf.Tensor4D, opts: ForwardOptions, tap: (name: string, t: tf.Tensor) => tf.Tensor) => tf.Tensor2D,
  defaultCamLayer?: string,
): Net {
  return {
    id,
    inputShape,
    classNames: Array.from({ length: classes }, (_, i) => `class${i}`),
    layers,
    defaultCamLayer,
    forward: (x, opts = {}) => body(x, opts, (name, t) => applyTap(name, t, opts)),
    trainableVariables: () => [],
  };
}

/** A batch of feature rows as NHWC [N, 1, 1, F]. */
export function rows(values: number[][]): tf.Tensor4D {
  return tf.tensor4d(values.flat(), [values.length, 1, 1, values[0].length]);
}

/** One NCHW single-channel image [1, 1, H, W] given as H rows, as NHWC [1, H, W, 1]. */
export function image(values: number[][]): tf.Tensor4D {
  return tf.tensor4d(values.flat(), [1, values.length, values[0].length, 1]);
}

export const arange16 = (): number[][] => [0, 1, 2, 3].map((r) => [0, 1, 2, 3].map((c) => r * 4 + c));

const linear = (x: tf.Tensor2D, w: number[][], b?: number[]) => {
  const y = tf.matMul(x, tf.tensor2d(w).transpose()); // torch Linear: x Wᵀ + b
  return (b ? tf.add(y, tf.tensor1d(b)) : y) as tf.Tensor2D;
};

/** f(x1, x2) = ReLU(ReLU(x1) − 1 − ReLU(x2)); inputs as channels [x1, x2]. */
export function basicModel2(): Net {
  return makeNet("BasicModel2", [1, 1, 2], 1, [], (x, o) => {
    const flat = x.reshape([-1, 2]);
    const x1 = flat.slice([0, 0], [-1, 1]);
    const x2 = flat.slice([0, 1], [-1, 1]);
    return reluWithMode(tf.sub(tf.sub(reluWithMode(x1, o.relu), 1), reluWithMode(x2, o.relu)), o.relu) as tf.Tensor2D;
  });
}

/** f(x1, x2) = ReLU(ReLU(x1 − 1) − ReLU(x2)). */
export function basicModel3(): Net {
  return makeNet("BasicModel3", [1, 1, 2], 1, [], (x, o) => {
    const flat = x.reshape([-1, 2]);
    const x1 = flat.slice([0, 0], [-1, 1]);
    const x2 = flat.slice([0, 1], [-1, 1]);
    return reluWithMode(tf.sub(reluWithMode(tf.sub(x1, 1), o.relu), reluWithMode(x2, o.relu)), o.relu) as tf.Tensor2D;
  });
}

/** BasicModel: 1 − ReLU(1 − x) elementwise; as a Net its one output is the sum over elements. */
export function basicModel(features: number): Net {
  return makeNet(
    "BasicModel",
    [1, 1, features],
    1,
    [],
    (x, o) => tf.sum(tf.sub(1, reluWithMode(tf.sub(1, x.reshape([-1, features])), o.relu)), 1, true) as tf.Tensor2D,
  );
}

/**
 * BasicModel_MultiLayer: linear0 (identity) → linear1 (ones, bias [−10, 1, 1, 1]) →
 * ReLU → linear2 (ones, bias [−1, 1]). `addInput` is Captum's additional input added to x.
 */
export function basicModelMultiLayer(addInput?: number[]): Net {
  const eye = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  return makeNet("BasicModel_MultiLayer", [1, 1, 3], 2, ["linear0", "linear1", "relu", "linear2"], (x, o, tap) => {
    let input = x.reshape([-1, 3]) as tf.Tensor2D;
    if (addInput) input = tf.add(input, tf.tensor1d(addInput)) as tf.Tensor2D;
    const lin0 = tap("linear0", linear(input, eye, [0, 0, 0])) as tf.Tensor2D;
    const lin1 = tap(
      "linear1",
      linear(
        lin0,
        [
          [1, 1, 1],
          [1, 1, 1],
          [1, 1, 1],
          [1, 1, 1],
        ],
        [-10, 1, 1, 1],
      ),
    ) as tf.Tensor2D;
    const relu = tap("relu", reluWithMode(lin1, o.relu)) as tf.Tensor2D;
    return tap(
      "linear2",
      linear(
        relu,
        [
          [1, 1, 1, 1],
          [1, 1, 1, 1],
        ],
        [-1, 1],
      ),
    ) as tf.Tensor2D;
  });
}

/** BasicLinearModel: Linear(7, 1) over the 7 features, with given weights. */
export function basicLinearModel(weights: number[], bias: number): Net {
  return makeNet("BasicLinearModel", [1, 1, 7], 1, [], (x) => linear(x.reshape([-1, 7]) as tf.Tensor2D, [weights], [bias]));
}

/**
 * BasicModel_ConvNet_One_Conv: conv1 (2 filters of ones 3×3, bias [−50, −75]) → ReLU →
 * view(−1, 8) in NCHW order → fc1 ([ones(4,5), −ones(4,3)], bias 0) → ReLU.
 * `addInput` is Captum's second input x2 (added to x before conv1).
 */
export function basicModelConvNetOneConv(addInput?: tf.Tensor4D, fused = false): Net {
  const fc1 = Array.from({ length: 4 }, () => [1, 1, 1, 1, 1, -1, -1, -1]);
  return makeNet(
    "BasicModel_ConvNet_One_Conv",
    [4, 4, 1],
    4,
    ["conv1", "relu1", "fc1"],
    (x, o, tap) => {
      const input = addInput ? (tf.add(x, addInput) as tf.Tensor4D) : x;
      const filter = tf.ones([3, 3, 1, 2]) as tf.Tensor4D;
      const bias = tf.tensor1d([-50, -75]);
      const conv = fused
        ? tf.fused.conv2d({ x: input, filter, strides: 1, pad: "valid", bias, activation: "linear" })
        : (tf.add(tf.conv2d(input, filter, 1, "valid"), bias) as tf.Tensor4D);
      const c1 = tap("conv1", conv) as tf.Tensor4D;
      const r1 = tap("relu1", reluWithMode(c1, o.relu)) as tf.Tensor4D;
      const flat = tf.transpose(r1, [0, 3, 1, 2]).reshape([-1, 8]) as tf.Tensor2D;
      const f1 = tap("fc1", linear(flat, fc1, [0, 0, 0, 0])) as tf.Tensor2D;
      return reluWithMode(f1, o.relu);
    },
    "conv1",
  );
}
