// The gradient kernels registered for wasm must agree with the reference cpu backend,
// and autodiff through conv layers must work on wasm (it threw before they existed).
import { describe, it, expect, beforeAll } from "vitest";
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";

/** Deterministic pseudo-random values (mulberry32) so both backends see the same data. */
function rand(n: number, seed: number): Float32Array {
  let a = seed >>> 0;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  }
  return out;
}

async function onBackend<T>(name: "cpu" | "wasm", fn: () => T | Promise<T>): Promise<T> {
  await tf.setBackend(name);
  return fn();
}

function maxAbsDiff(a: Float32Array | number[], b: Float32Array | number[]): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

type Pad = "same" | "valid" | [[number, number], [number, number], [number, number], [number, number]];
const convCases: { x: [number, number, number, number]; f: [number, number, number, number]; s: number | [number, number]; pad: Pad }[] = [
  { x: [2, 7, 6, 3], f: [3, 3, 3, 4], s: 1, pad: "same" },
  { x: [1, 9, 8, 2], f: [3, 2, 2, 5], s: 2, pad: "same" },
  { x: [3, 8, 8, 4], f: [5, 5, 4, 2], s: [2, 1], pad: "valid" },
  {
    x: [2, 6, 7, 3],
    f: [3, 3, 3, 3],
    s: 2,
    pad: [
      [0, 0],
      [1, 2],
      [2, 0],
      [0, 0],
    ],
  },
  { x: [1, 5, 5, 1], f: [1, 1, 1, 6], s: 1, pad: "valid" },
];

describe("wasm gradient kernels", () => {
  beforeAll(async () => {
    const info = await initBackend("wasm");
    expect(info.name).toBe("wasm");
  });

  it.each(convCases)("Conv2DBackpropFilter matches cpu for x=$x f=$f s=$s pad=$pad", async ({ x, f, s, pad }) => {
    const xv = rand(
      x.reduce((a, b) => a * b),
      1,
    );
    const fv = rand(
      f.reduce((a, b) => a * b),
      2,
    );
    const grads = async (backend: "cpu" | "wasm") =>
      onBackend(backend, async () => {
        const g = tf.tidy(() => {
          const filt = tf.tensor4d(fv, f);
          const xt = tf.tensor4d(xv, x);
          return tf.grads((xx: tf.Tensor, ff: tf.Tensor) =>
            tf.sum(tf.mul(tf.conv2d(xx as tf.Tensor4D, ff as tf.Tensor4D, s, pad), tf.range(1, 2).reshape([1]))),
          )([xt, filt]);
        });
        const out = [await g[0].data(), await g[1].data()] as Float32Array[];
        tf.dispose(g);
        return out;
      });
    const cpu = await grads("cpu");
    const wasm = await grads("wasm");
    expect(maxAbsDiff(wasm[1], cpu[1])).toBeLessThan(1e-4);
    expect(maxAbsDiff(wasm[0], cpu[0])).toBeLessThan(1e-4);
    // The filter gradient is not trivially zero.
    expect(Math.max(...Array.from(cpu[1]).map(Math.abs))).toBeGreaterThan(0.01);
  });

  it.each([
    { x: [2, 7, 7, 3] as [number, number, number, number], f: [3, 3, 3, 2] as [number, number, number, number], s: 1, pad: "same" as const, d: 1 },
    { x: [1, 9, 8, 4] as [number, number, number, number], f: [3, 3, 4, 1] as [number, number, number, number], s: 2, pad: "same" as const, d: 1 },
    // (tfjs-core's depthwise gradient itself rejects dilation > 1, on every backend.)
    { x: [1, 9, 9, 2] as [number, number, number, number], f: [3, 3, 2, 2] as [number, number, number, number], s: 1, pad: "valid" as const, d: 1 },
  ])("depthwise conv gradients match cpu for x=$x f=$f s=$s d=$d", async ({ x, f, s, pad, d }) => {
    const xv = rand(
      x.reduce((a, b) => a * b),
      3,
    );
    const fv = rand(
      f.reduce((a, b) => a * b),
      4,
    );
    const grads = async (backend: "cpu" | "wasm") =>
      onBackend(backend, async () => {
        const g = tf.tidy(() =>
          tf.grads((xx: tf.Tensor, ff: tf.Tensor) => {
            const y = tf.depthwiseConv2d(xx as tf.Tensor4D, ff as tf.Tensor4D, s, pad, "NHWC", d);
            return tf.sum(tf.mul(y, y));
          })([tf.tensor4d(xv, x), tf.tensor4d(fv, f)]),
        );
        const out = [await g[0].data(), await g[1].data()] as Float32Array[];
        tf.dispose(g);
        return out;
      });
    const cpu = await grads("cpu");
    const wasm = await grads("wasm");
    expect(maxAbsDiff(wasm[0], cpu[0])).toBeLessThan(1e-4);
    expect(maxAbsDiff(wasm[1], cpu[1])).toBeLessThan(1e-4);
  });

  it("UnsortedSegmentSum (the gradient of gather) matches cpu", async () => {
    const xv = rand(5 * 3, 5);
    const run = async (backend: "cpu" | "wasm") =>
      onBackend(backend, async () => {
        const g = tf.tidy(() =>
          tf.grad((p: tf.Tensor) => tf.sum(tf.mul(tf.gather(p, tf.tensor1d([0, 2, 2, 4, 0], "int32")), tf.range(0, 15).reshape([5, 3]))))(
            tf.tensor2d(xv, [5, 3]),
          ),
        );
        const out = await g.data();
        g.dispose();
        return out as Float32Array;
      });
    const cpu = await run("cpu");
    const wasm = await run("wasm");
    expect(maxAbsDiff(wasm, cpu)).toBeLessThan(1e-5);
    // Index 0 is gathered at positions 0 and 4, so its gradient is multiplier rows 0 + 4.
    expect(Array.from(cpu.slice(0, 3))).toEqual([12, 14, 16]);
  });

  it("a conv/batchnorm/pool/softmax-xent training step runs on wasm and matches cpu", async () => {
    const step = async (backend: "cpu" | "wasm") =>
      onBackend(backend, async () => {
        const w1 = tf.variable(tf.tensor4d(rand(3 * 3 * 3 * 4, 7), [3, 3, 3, 4]));
        const b1 = tf.variable(tf.zeros([4]));
        const dw = tf.variable(tf.tensor4d(rand(3 * 3 * 4, 8), [3, 3, 4, 1]));
        const gamma = tf.variable(tf.ones([4]));
        const beta = tf.variable(tf.zeros([4]));
        const wd = tf.variable(tf.tensor2d(rand(4 * 3, 9), [4, 3]));
        const x = tf.tensor4d(rand(2 * 8 * 8 * 3, 10), [2, 8, 8, 3]);
        const labels = tf.oneHot(tf.tensor1d([1, 2], "int32"), 3);
        const { value, grads } = tf.variableGrads(() => {
          let h = tf.fused.conv2d({ x, filter: w1, strides: 1, pad: "same", bias: b1, activation: "relu" });
          h = tf.depthwiseConv2d(h, dw, 1, "same");
          const { mean, variance } = tf.moments(h, [0, 1, 2]);
          h = tf.batchNorm(h, mean, variance, beta, gamma, 1e-3) as tf.Tensor4D;
          h = tf.relu(h);
          h = tf.maxPool(h, 2, 2, "valid");
          h = tf.avgPool(h, 2, 2, "valid");
          const pooled = tf.mean(h, [1, 2]) as tf.Tensor2D;
          return tf.losses.softmaxCrossEntropy(labels, tf.matMul(pooled, wd)) as tf.Scalar;
        });
        // Variable names are process-wide counters, so read the gradients in creation order.
        const names = [w1, b1, dw, gamma, beta, wd].map((v) => v.name);
        const flat: number[] = [];
        for (const n of names) flat.push(...Array.from(await grads[n].data()));
        const loss = (await value.data())[0];
        tf.dispose([w1, b1, dw, gamma, beta, wd, x, labels, value, grads]);
        return { loss, flat, count: Object.keys(grads).length };
      });
    const cpu = await step("cpu");
    const wasm = await step("wasm");
    expect(wasm.count).toBe(6);
    expect(Math.abs(wasm.loss - cpu.loss)).toBeLessThan(1e-5);
    expect(maxAbsDiff(wasm.flat, cpu.flat)).toBeLessThan(1e-4);
  });

  it("leaves no tensors behind", async () => {
    await tf.setBackend("wasm");
    const before = tf.memory().numTensors;
    const x = tf.tensor4d(rand(1 * 5 * 5 * 2, 11), [1, 5, 5, 2]);
    // tf.variable shares, and does not own, the tensor it starts from.
    const init = tf.tensor4d(rand(3 * 3 * 2 * 2, 12), [3, 3, 2, 2]);
    const f = tf.variable(init);
    init.dispose();
    const { value, grads } = tf.variableGrads(() => tf.sum(tf.conv2d(x, f, 1, "same")) as tf.Scalar, [f]);
    const g = await grads[f.name].data();
    expect(g.every((v) => Number.isFinite(v))).toBe(true);
    tf.dispose([x, f, value, grads]);
    expect(tf.memory().numTensors).toBe(before);
  });
});
