// Data-parallel ProtoTree steps (sidecar/tree/dataParallel.ts) with real replica threads: a step
// over k threads (the batch cut into k shards, gradients averaged by shard size, leaf-update
// terms summed) must be the single-thread step on the same batch up to float32 rounding, for the
// head's weights, the leaf distributions, the loss and the correct count, step after step (so the
// weights broadcast to the replicas are the coordinator's), with a frozen backbone (features in)
// and a fine-tuned one (images in, backbone gradients averaged too).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { DataParallelStep, shardBounds, stepVariables, type StepModel } from "../../sidecar/tree/dataParallel.ts";
import { leafDistributions, makeBackbone, numPrototypesOf } from "../../sidecar/tree/protoTree.ts";
import { readCheckpoint } from "../../sidecar/zoo/checkpoint.ts";
import { Rng } from "../../sidecar/data/prng.ts";

beforeAll(async () => {
  process.env.TENSOR_BACKEND = "wasm";
  await initBackend("wasm");
});

const open: DataParallelStep[] = [];
afterAll(async () => {
  await Promise.all(open.map((d) => d.close()));
});

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

interface Setup {
  model: StepModel;
  leafLogits: Float32Array;
}

/** A tiny tree's head (depth 2: 3 prototypes, 4 leaves) with seeded weights; the same seed gives the same bytes. */
function head(seed: number, channels: number, protoDim: number, numClasses: number, backbone: StepModel["backbone"], backboneVars: tf.Variable[]): Setup {
  const rng = new Rng(seed);
  const depth = 2;
  const P = numPrototypesOf(depth);
  const vals = (n: number, scale: number, mean = 0) => Float32Array.from({ length: n }, () => mean + scale * rng.normal());
  return {
    model: {
      depth,
      numClasses,
      addOnKernel: tf.variable(tf.tensor4d(vals(channels * protoDim, 0.5), [1, 1, channels, protoDim])),
      addOnBias: tf.variable(tf.tensor1d(vals(protoDim, 0.1))),
      prototypes: tf.variable(tf.tensor2d(vals(P * protoDim, 0.1, 0.5), [P, protoDim])),
      backbone,
      backboneVars,
    },
    // Not all equal: with uniform leaves the tree's output is 1/C whatever the weights, and the first step's gradients vanish.
    leafLogits: Float32Array.from({ length: (P + 1) * numClasses }, () => Math.abs(rng.normal())),
  };
}

async function steps(
  workers: number,
  s: Setup,
  batches: Array<{ data: Float32Array; shape: [number, number, number, number]; labels: Int32Array }>,
  lrBackbone = 0,
) {
  const dp = new DataParallelStep(workers);
  open.push(dp);
  dp.init(s.model, 0.01, lrBackbone);
  const epochStart = Float32Array.from(s.leafLogits);
  const out: Array<{ loss: number; correct: number; shards: number; vars: Float32Array[]; dists: Float32Array }> = [];
  for (const b of batches) {
    const r = await dp.step({ data: b.data, shape: b.shape }, b.labels, s.leafLogits, epochStart, batches.length);
    out.push({
      ...r,
      vars: stepVariables(s.model).map((v) => Float32Array.from(v.dataSync() as Float32Array)),
      dists: leafDistributions(s.leafLogits, s.model.numClasses),
    });
  }
  await dp.close();
  return out;
}

describe("shardBounds", () => {
  it("cuts a batch into contiguous shards whose sizes differ by at most one, none empty", () => {
    expect(shardBounds(16, 2)).toEqual([
      [0, 8],
      [8, 16],
    ]);
    expect(shardBounds(13, 3)).toEqual([
      [0, 5],
      [5, 9],
      [9, 13],
    ]);
    expect(shardBounds(2, 4)).toEqual([
      [0, 1],
      [1, 2],
    ]);
  });
});

describe("DataParallelStep", () => {
  it("two and three threads give the single thread's step on the same batches (frozen backbone: features in)", async () => {
    const C = 3,
      ch = 6,
      D = 5;
    const rng = new Rng(11);
    // Unequal batch sizes (16, then 13 = shards 7/6 and 5/4/4): the average must weight by shard size.
    const batches = [16, 13].map((n) => ({
      data: Float32Array.from({ length: n * 2 * 2 * ch }, () => Math.abs(rng.normal())),
      shape: [n, 2, 2, ch] as [number, number, number, number],
      labels: Int32Array.from({ length: n }, (_, i) => (i * 7 + n) % C),
    }));
    const initial = head(5, ch, D, C, null, []);
    const init = stepVariables(initial.model).map((v) => Float32Array.from(v.dataSync() as Float32Array));
    const one = await steps(1, head(5, ch, D, C, null, []), batches);
    const two = await steps(2, head(5, ch, D, C, null, []), batches);
    const three = await steps(3, head(5, ch, D, C, null, []), batches);
    expect(one.map((r) => r.shards)).toEqual([1, 1]);
    expect(two.map((r) => r.shards)).toEqual([2, 2]);
    expect(three.map((r) => r.shards)).toEqual([3, 3]);
    for (let s = 0; s < batches.length; s++) {
      // The step moved the weights and leaves (so agreeing is not agreeing on "unchanged").
      const moved = Math.max(...one[s].vars.map((v, i) => maxDiff(v, init[i])));
      expect(moved).toBeGreaterThan(1e-3);
      expect(maxDiff(one[s].dists, s === 0 ? leafDistributions(initial.leafLogits, C) : one[s - 1].dists)).toBeGreaterThan(1e-3);
      for (const other of [two[s], three[s]]) {
        for (let i = 0; i < other.vars.length; i++) expect(maxDiff(other.vars[i], one[s].vars[i]), `step ${s + 1} variable ${i}`).toBeLessThan(1e-5);
        expect(maxDiff(other.dists, one[s].dists)).toBeLessThan(1e-5);
        expect(other.loss).toBeCloseTo(one[s].loss, 5);
        expect(other.correct).toBe(one[s].correct);
      }
    }
  }, 60_000);

  it("with a fine-tuned backbone the replicas take images and the backbone's gradients are averaged too", async () => {
    const zoo = readCheckpoint("resnet-scenes");
    const [H, W, Ch] = zoo.manifest.inputShape;
    const make = () => {
      const weights = new Map(zoo.arrays.map((a) => [a.name, tf.variable(tf.tensor(a.data, a.shape), true)]));
      const backbone = makeBackbone(weights, zoo.manifest.archConfig, "layer4");
      const channels = tf.tidy(() => backbone.forward(tf.zeros([1, H, W, Ch]) as tf.Tensor4D).shape[3]);
      return head(9, channels, 4, zoo.manifest.classNames.length, backbone, [...weights.values()]);
    };
    const rng = new Rng(3);
    const n = 6;
    const batch = {
      data: Float32Array.from({ length: n * H * W * Ch }, () => rng.float()),
      shape: [n, H, W, Ch] as [number, number, number, number],
      labels: Int32Array.from({ length: n }, (_, i) => i % zoo.manifest.classNames.length),
    };
    const a = make();
    const before = a.model.backboneVars.map((v) => Float32Array.from(v.dataSync() as Float32Array));
    const one = await steps(1, a, [batch, batch], 1e-3);
    const two = await steps(2, make(), [batch, batch], 1e-3);
    const movedBackbone = Math.max(...a.model.backboneVars.map((v, i) => maxDiff(v.dataSync() as Float32Array, before[i])));
    expect(movedBackbone).toBeGreaterThan(1e-4);
    for (let s = 0; s < 2; s++) {
      expect(two[s].shards).toBe(2);
      for (let i = 0; i < one[s].vars.length; i++) expect(maxDiff(two[s].vars[i], one[s].vars[i]), `step ${s + 1} variable ${i}`).toBeLessThan(1e-5);
      expect(maxDiff(two[s].dists, one[s].dists)).toBeLessThan(1e-5);
    }
  }, 60_000);
});
