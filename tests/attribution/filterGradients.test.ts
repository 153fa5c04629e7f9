// Input-only gradients must not compute filter gradients, even through tf.fused.conv2d
// (whose custom gradient would). Its own file so the counting kernel is installed
// before the gradient helper first wraps the backend's kernels in this process.
import { it, expect, beforeAll } from "vitest";
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { inputGradients, layerGradients } from "../../sidecar/inference/attribution/gradients.ts";
import { tinyCnn, det } from "./tinyCnn.ts";

let calls = 0;

beforeAll(async () => {
  await initBackend("cpu");
  const original = tf.getKernel("Conv2DBackpropFilter", "cpu")!;
  tf.unregisterKernel("Conv2DBackpropFilter", "cpu");
  tf.registerKernel({ ...original, kernelFunc: (args) => (calls++, original.kernelFunc(args)) });
});

it("input and layer gradients never run Conv2DBackpropFilter; weight gradients still do", async () => {
  const net = tinyCnn();
  const x = det([2, 8, 8, 3], 9) as tf.Tensor4D;
  const g = await inputGradients(net, x, [0, 2]);
  const lg = await layerGradients(net, x, 1, "conv2");
  expect(calls).toBe(0);
  // Same values as a plain tf.grad, which does run the filter-gradient kernel.
  const ref = tf.grad((xx: tf.Tensor) => {
    const out = net.forward(xx as tf.Tensor4D);
    return tf.add(tf.sum(tf.slice(out, [0, 0], [1, 1])), tf.sum(tf.slice(out, [1, 2], [1, 1])));
  })(x);
  expect(calls).toBeGreaterThan(0);
  expect(Math.max(...Array.from(tf.sub(g, ref).abs().dataSync()))).toBeLessThan(1e-6);
  expect(Math.max(...Array.from(g.abs().dataSync()))).toBeGreaterThan(1e-4);
  const before = calls;
  const { grads } = tf.variableGrads(() => tf.sum(net.forward(x)) as tf.Scalar, net.trainableVariables());
  expect(calls).toBeGreaterThan(before);
  expect(Math.max(...Array.from(grads[net.trainableVariables()[0].name].abs().dataSync()))).toBeGreaterThan(1e-6);
  tf.dispose([x, g, lg.activation, lg.gradients, ref, grads]);
});
