// Zoo networks and checkpoints: the training-time conv gradients, batch-norm folding,
// the checkpoint round trip, and the clear errors for missing or corrupt checkpoints.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as tf from "@tensorflow/tfjs";
import { beforeAll, describe, expect, it } from "vitest";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { conv2dSameTrainable } from "../../sidecar/zoo/convGrad.ts";
import { ARCH_NAMES, architecture } from "../../sidecar/zoo/architectures.ts";
import { InferOps, TrainOps, foldBatchNorm, type WeightMap } from "../../sidecar/zoo/layers.ts";
import { CheckpointError, readCheckpoint, writeCheckpoint } from "../../sidecar/zoo/checkpoint.ts";
import { loadZooNet } from "../../sidecar/zoo/zooNet.ts";
import { relu } from "../../sidecar/zoo/relu.ts";
import { Rng } from "../../sidecar/data/prng.ts";
import { fromHalf, toHalf } from "../../sidecar/zoo/half.ts";

beforeAll(async () => {
  await initBackend("wasm");
});

const maxAbsDiff = (a: tf.Tensor, b: tf.Tensor) => tf.tidy(() => tf.max(tf.abs(tf.sub(a, b))).dataSync()[0]);

describe("conv2dSameTrainable", () => {
  it.each([
    [9, 3, 1],
    [9, 3, 2],
    [8, 3, 2],
    [7, 1, 2],
    [6, 1, 1],
    [5, 3, 1],
  ])("matches tf.conv2d's gradients on the cpu backend (size %i, kernel %i, stride %i)", async (size, k, stride) => {
    const x = tf.randomNormal([2, size, size + 1, 3], 0, 1, "float32", 1) as tf.Tensor4D;
    const w = tf.randomNormal([k, k, 3, 4], 0, 1, "float32", 2) as tf.Tensor4D;
    const dy = tf.randomNormal(tf.conv2d(x, w, stride, "same").shape, 0, 1, "float32", 3);
    const loss = (f: (a: tf.Tensor4D, b: tf.Tensor4D) => tf.Tensor) => (a: tf.Tensor, b: tf.Tensor) =>
      tf.sum(tf.mul(f(a as tf.Tensor4D, b as tf.Tensor4D), dy));
    await tf.setBackend("cpu");
    const [dxRef, dwRef] = tf.grads(loss((a, b) => tf.conv2d(a, b, stride, "same")))([x, w]);
    await tf.setBackend("wasm");
    const [dx, dw] = tf.grads(loss((a, b) => conv2dSameTrainable(a, b, stride)))([x, w]);
    expect(maxAbsDiff(dx, dxRef)).toBeLessThan(1e-4);
    expect(maxAbsDiff(dw, dwRef)).toBeLessThan(1e-3);
    expect(maxAbsDiff(conv2dSameTrainable(x, w, stride), tf.conv2d(x, w, stride, "same"))).toBeLessThan(1e-5);
  });
});

describe("ReLU backward modes", () => {
  it("keeps the forward value and changes only the gradient", () => {
    const x = tf.tensor1d([-1, 2, 3, -4]);
    const w = tf.tensor1d([1, 1, -1, -1]);
    const g = (mode: "normal" | "guided" | "deconv") =>
      Array.from(
        tf
          .grad((v: tf.Tensor) => tf.sum(tf.mul(relu(v, mode), w)))(x)
          .dataSync(),
        (v) => v + 0,
      ); // + 0 turns −0 into 0
    expect(Array.from(relu(x, "guided").dataSync())).toEqual([0, 2, 3, 0]);
    expect(g("normal")).toEqual([0, 1, -1, 0]);
    expect(g("guided")).toEqual([0, 1, 0, 0]); // negative gradients stopped as well
    expect(g("deconv")).toEqual([1, 1, 0, 0]); // the input's sign ignored
  });
});

/** A small network with a few training steps, so batch-norm statistics are not the initial ones. */
function trainedTiny(archName: string, shape: [number, number, number]) {
  const arch = architecture(archName);
  const cfg = { width: 4, stemStride: 1 };
  const weights: WeightMap = new Map(),
    stats: WeightMap = new Map();
  const rng = new Rng(3);
  const x = tf.randomUniform([8, ...shape], 0, 1, "float32", 5) as tf.Tensor4D;
  const y = tf.oneHot(tf.tensor1d([0, 1, 2, 0, 1, 2, 0, 1], "int32"), 3);
  tf.tidy(() => {
    arch.forward(new TrainOps(weights, stats, rng, false), x, 3, cfg);
  });
  const opt = tf.train.adam(0.01);
  for (let i = 0; i < 3; i++) {
    const ops = new TrainOps(weights, stats, rng, true);
    opt.minimize(() => tf.losses.softmaxCrossEntropy(y, arch.forward(ops, x, 3, cfg)) as tf.Scalar, false, [...weights.values()]);
    for (const p of ops.pendingStats) {
      p.variable.assign(p.value);
      p.value.dispose();
    }
  }
  return { arch, cfg, weights, stats, x };
}

describe("batch-norm folding and checkpoints", () => {
  it.each(
    ARCH_NAMES.flatMap(
      (a) =>
        [
          [a, [28, 28, 1]],
          [a, [32, 32, 3]],
        ] as Array<[string, [number, number, number]]>,
    ),
  )("%s on %j: the folded network computes what the trained one does in inference mode", (archName, shape) => {
    const { arch, cfg, weights, stats, x } = trainedTiny(archName, shape);
    const evalOps = new TrainOps(weights, stats, new Rng(0), false);
    const expected = arch.forward(evalOps, x, 3, cfg);
    const folded = new Map(foldBatchNorm(weights, stats).map((a) => [a.name, tf.variable(tf.tensor(a.data, a.shape), false)]));
    const got = arch.forward(new InferOps(folded), x, 3, cfg);
    expect(got.shape).toEqual([8, 3]);
    expect(maxAbsDiff(got, expected)).toBeLessThan(1e-3 * (1 + tf.max(tf.abs(expected)).dataSync()[0]));
    expect(evalOps.tapNames).toContain(arch.defaultCamLayer);
  });

  it("float16 storage round-trips values to half precision", () => {
    for (const v of [0, 1, -2.5, 65504, 1e-3, -3.14159, 6e-8]) {
      expect(fromHalf(toHalf(v))).toBeCloseTo(v, Math.abs(v) < 1 ? 4 : 1);
      expect(Math.abs(fromHalf(toHalf(v)) - v)).toBeLessThanOrEqual(Math.abs(v) / 1024 + 6e-8);
    }
    expect(fromHalf(toHalf(1e6))).toBe(Infinity);
    expect(Number.isNaN(fromHalf(toHalf(NaN)))).toBe(true);
  });

  function writeTiny(dir: string, dtype: "float16" | "float32" = "float32") {
    const { arch, cfg, weights, stats, x } = trainedTiny("resnet", [28, 28, 1]);
    const ops = new TrainOps(weights, stats, new Rng(0), false);
    const expected = arch.forward(ops, x, 3, cfg);
    writeCheckpoint(
      dir,
      {
        id: "tiny",
        arch: "resnet",
        archConfig: cfg,
        dataset: "unit",
        inputShape: [28, 28, 1],
        classNames: ["a", "b", "c"],
        testAccuracy: 0.5,
        trainSize: 8,
        testSize: 8,
        epochs: 3,
        trainedAt: new Date().toISOString(),
        trainingSeconds: 0,
        backend: "wasm",
        layers: ops.tapNames,
        defaultCamLayer: arch.defaultCamLayer,
      },
      foldBatchNorm(weights, stats),
      dtype,
    );
    return { x, expected };
  }

  it("loads a written checkpoint by id and serves the same outputs; taps replace a layer", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ckpt-"));
    const { x, expected } = writeTiny(dir);
    const net = loadZooNet("tiny", dir);
    expect(net.inputShape).toEqual([28, 28, 1]);
    expect(net.layers).toEqual(["stem", "layer1", "layer2", "layer3", "layer4"]);
    expect(maxAbsDiff(net.forward(x), expected)).toBeLessThan(1e-3);
    // Zeroing the last stage leaves only the classifier's bias: every image gets the same logits.
    const zeroed = net.forward(x, { tap: { layer: "layer4", fn: (a) => tf.zerosLike(a) } });
    expect(maxAbsDiff(tf.slice(zeroed, [0, 0], [1, 3]), tf.slice(zeroed, [1, 0], [1, 3]))).toBe(0);
    expect(() => net.forward(x, { tap: { layer: "nope", fn: () => undefined } })).toThrow(/no layer "nope"/);
    expect(() => net.forward(tf.zeros([1, 32, 32, 3]) as tf.Tensor4D)).toThrow(/expects input \[N, 28, 28, 1\]/);
    net.dispose();
    // The same network stored as float16: half the bytes, nearly the same outputs.
    const dir16 = fs.mkdtempSync(path.join(os.tmpdir(), "ckpt16-"));
    writeTiny(dir16, "float16");
    expect(fs.statSync(path.join(dir16, "tiny.weights.bin")).size * 2).toBe(fs.statSync(path.join(dir, "tiny.weights.bin")).size);
    const net16 = loadZooNet("tiny", dir16);
    expect(maxAbsDiff(net16.forward(x), expected)).toBeLessThan(2e-2 * (1 + tf.max(tf.abs(expected)).dataSync()[0]));
    net16.dispose();
    fs.rmSync(dir, { recursive: true });
    fs.rmSync(dir16, { recursive: true });
  });

  it("refuses missing, corrupt, truncated and mismatched checkpoints with a CheckpointError", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ckpt-"));
    writeTiny(dir);
    const bin = path.join(dir, "tiny.weights.bin");
    const manifestFile = path.join(dir, "tiny.json");
    const original = fs.readFileSync(bin);
    const expectError = (re: RegExp) => {
      let err: unknown;
      try {
        loadZooNet("tiny", dir);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(CheckpointError);
      expect((err as Error).message).toMatch(re);
    };
    expect(() => loadZooNet("absent", dir)).toThrow(CheckpointError);
    expect(() => loadZooNet("../etc/passwd", dir)).toThrow(/not a valid checkpoint id/);

    const flipped = Buffer.from(original);
    flipped[100] ^= 0xff;
    fs.writeFileSync(bin, flipped);
    expectError(/checksum/);

    fs.writeFileSync(bin, original.subarray(0, original.length - 8));
    expectError(/truncated/);

    fs.rmSync(bin);
    expectError(/weights file .* is missing/);
    fs.writeFileSync(bin, original);
    expect(readCheckpoint("tiny", dir).arrays.length).toBeGreaterThan(10);

    const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8"));
    fs.writeFileSync(manifestFile, JSON.stringify({ ...manifest, arch: "vgg" }));
    expectError(/does not fit architecture vgg/);

    fs.writeFileSync(manifestFile, "{ not json");
    expectError(/unreadable manifest/);
    fs.rmSync(dir, { recursive: true });
  });
});
