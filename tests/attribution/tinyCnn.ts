// A small image CNN for the registry tests: a fused (linear) conv, ReLUs that follow
// the ReLU mode, a strided conv, global average pooling and a dense layer.
import * as tf from "@tensorflow/tfjs";
import type { ForwardOptions, Net } from "../../sidecar/inference/net.ts";
import { relu as reluWithMode } from "../../sidecar/zoo/relu.ts";

/** Deterministic weights so cpu and wasm see the same network. */
export function det(shape: number[], seed: number): tf.Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  return tf.tensor(
    Float32Array.from({ length: n }, (_, i) => Math.sin(seed * 12.9898 + i * 78.233) * 0.5),
    shape,
  );
}

/** A small conv net on 8×8×3 images: fused conv (linear) → ReLU → conv → ReLU → GAP → dense. */
export function tinyCnn(): Net {
  const w1 = tf.variable(det([3, 3, 3, 4], 1) as tf.Tensor4D, true, "tiny_w1");
  const b1 = tf.variable(det([4], 2) as tf.Tensor1D, true, "tiny_b1");
  const w2 = tf.variable(det([3, 3, 4, 6], 3) as tf.Tensor4D, true, "tiny_w2");
  const wd = tf.variable(det([6, 3], 4) as tf.Tensor2D, true, "tiny_wd");
  const tap = (name: string, t: tf.Tensor, o: ForwardOptions) => (o.tap?.layer === name ? (o.tap.fn(t) ?? t) : t);
  return {
    id: "tiny",
    inputShape: [8, 8, 3],
    classNames: ["a", "b", "c"],
    layers: ["conv1", "conv2"],
    defaultCamLayer: "conv2",
    forward(x, o = {}) {
      let h = tap("conv1", tf.fused.conv2d({ x, filter: w1, strides: 1, pad: "same", bias: b1 }), o) as tf.Tensor4D;
      h = reluWithMode(h, o.relu);
      h = tap("conv2", tf.conv2d(h, w2 as tf.Tensor4D, 2, "same"), o) as tf.Tensor4D;
      h = reluWithMode(h, o.relu);
      return tf.matMul(tf.mean(h, [1, 2]) as tf.Tensor2D, wd as tf.Tensor2D);
    },
    trainableVariables: () => [w1, b1, w2, wd],
  };
}
