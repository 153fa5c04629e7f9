// The VQA network (sidecar/vqa/vqaNet.ts) and the two-input Integrated Gradients
// (sidecar/vqa/explain.ts) on a freshly initialised network and on hand-computable toys:
// the forward is a function of the image and the embedded question with gradients to both,
// the shared (training) form gives the same logits, pads change nothing, no tensor leaks in a
// training loop, and IG is exact where the integral is known in closed form.
import { beforeAll, describe, expect, it } from "vitest";
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { VqaNet, maskOf, matMul } from "../../sidecar/vqa/vqaNet.ts";
import { DEFAULT_ARCH } from "../../sidecar/vqa/train.ts";
import { multimodalIntegratedGradients } from "../../sidecar/vqa/explain.ts";
import { sceneQA } from "../../sidecar/vqa/scenesQA.ts";
import { MAX_QUESTION_TOKENS, padIds, tokenize } from "../../sidecar/vqa/vqaWords.ts";

const S = DEFAULT_ARCH.imageSize;
const T = MAX_QUESTION_TOKENS;

let net: VqaNet;
beforeAll(async () => {
  await initBackend("wasm");
  net = VqaNet.init(DEFAULT_ARCH, 3);
});

function inputs(questions: string[], scenes: number[]) {
  const images = tf.tensor4d(Float32Array.from(scenes.flatMap((i) => Array.from(sceneQA("test", i).image))), [scenes.length, S, S, 3]);
  const ids = tf.tensor2d(
    questions.flatMap((q) => padIds(tokenize(q).ids)),
    [questions.length, T],
    "int32",
  );
  return { images, ids };
}

describe("VqaNet", () => {
  it("maps images and embedded questions to answer logits, with gradients to both inputs", () => {
    const { images, ids } = inputs(["what color is the circle?", "is there a red square?"], [0, 1]);
    const emb = net.embed(ids);
    const mask = maskOf(ids);
    const logits = net.forward(images, emb, mask);
    expect(logits.shape).toEqual([2, DEFAULT_ARCH.numAnswers]);
    const [gi, ge] = tf.grads((x: tf.Tensor, e: tf.Tensor) => tf.sum(tf.slice(net.forward(x as tf.Tensor4D, e as tf.Tensor3D, mask), [0, 0], [2, 1])))([
      images,
      emb,
    ]);
    expect(gi.shape).toEqual(images.shape);
    expect(ge.shape).toEqual(emb.shape);
    const gAbs = ge.abs().sum(2).arraySync() as number[][];
    // Real tokens get a gradient; pads (mask 0) get exactly zero.
    expect(gAbs[0][0]).toBeGreaterThan(0);
    expect(gAbs[0].slice(5)).toEqual(new Array(T - 5).fill(0));
    expect(tf.abs(gi).sum().dataSync()[0]).toBeGreaterThan(0);
    tf.dispose([images, ids, emb, mask, logits, gi, ge]);
  });

  it("gives the same logits in its shared form (distinct images/questions encoded once, shorter unroll)", () => {
    const qs = ["how many squares are there?", "is the red circle left of the blue square?", "how many squares are there?"];
    const { images, ids } = inputs(qs, [4, 5, 4]);
    const direct = tf.tidy(() => net.forward(images, net.embed(ids), maskOf(ids)));
    const shared = tf.tidy(() => {
      const distinctImages = tf.slice(images, [0, 0, 0, 0], [2, S, S, 3]) as tf.Tensor4D;
      const distinctQuestions = tf.slice(ids, [0, 0], [2, 9]) as tf.Tensor2D; // the longest has 9 tokens
      return net.forwardShared(distinctImages, tf.tensor1d([0, 1, 0], "int32"), distinctQuestions, tf.tensor1d([0, 1, 0], "int32"));
    });
    const a = direct.dataSync(),
      b = shared.dataSync();
    for (let i = 0; i < a.length; i++) expect(b[i]).toBeCloseTo(a[i], 4);
    tf.dispose([images, ids, direct, shared]);
  });

  it("has a fast matMul with the gradients of tf.matMul", () => {
    const a = tf.randomNormal([5, 7], 0, 1, "float32", 1) as tf.Tensor2D;
    const b = tf.randomNormal([7, 3], 0, 1, "float32", 2) as tf.Tensor2D;
    const w = tf.randomNormal([5, 3], 0, 1, "float32", 3);
    const [ga, gb] = tf.grads((x: tf.Tensor, y: tf.Tensor) => tf.sum(tf.mul(matMul(x as tf.Tensor2D, y as tf.Tensor2D), w)))([a, b]);
    const [ra, rb] = tf.grads((x: tf.Tensor, y: tf.Tensor) => tf.sum(tf.mul(tf.matMul(x as tf.Tensor2D, y as tf.Tensor2D), w)))([a, b]);
    expect(tf.max(tf.abs(tf.sub(ga, ra))).dataSync()[0]).toBeLessThan(1e-5);
    expect(tf.max(tf.abs(tf.sub(gb, rb))).dataSync()[0]).toBeLessThan(1e-5);
    tf.dispose([a, b, w, ga, gb, ra, rb]);
  });

  it("leaks no tensors over training steps and forward passes", () => {
    const { images, ids } = inputs(["what shape is the red object?", "how many objects are there?"], [2, 3]);
    const imageOf = tf.tensor1d([0, 1], "int32");
    const y = tf.oneHot(tf.tensor1d([4, 10], "int32"), DEFAULT_ARCH.numAnswers);
    const trainee = VqaNet.init(DEFAULT_ARCH, 4);
    const opt = tf.train.adam(1e-3);
    const vars = [...trainee.weights.values()];
    const step = () => {
      const loss = opt.minimize(() => tf.losses.softmaxCrossEntropy(y, trainee.forwardShared(images, imageOf, ids, imageOf)) as tf.Scalar, true, vars)!;
      loss.dispose();
      tf.tidy(() => trainee.forward(images, trainee.embed(ids), maskOf(ids))).dispose();
    };
    step(); // creates Adam's slots
    const before = tf.memory().numTensors;
    for (let i = 0; i < 4; i++) step();
    expect(tf.memory().numTensors).toBe(before);
    opt.dispose();
    trainee.dispose();
    tf.dispose([images, ids, imageOf, y]);
  });

  it("initialises deterministically from its seed", () => {
    const a = VqaNet.init(DEFAULT_ARCH, 11),
      b = VqaNet.init(DEFAULT_ARCH, 11);
    for (const [name, v] of a.weights) expect(Array.from(v.dataSync())).toEqual(Array.from(b.weights.get(name)!.dataSync()));
    a.dispose();
    b.dispose();
  });
});

describe("Integrated Gradients over an image and an embedded question (toys)", () => {
  const H = 4,
    C = 3,
    Tt = 3,
    D = 2;
  const rand = <R extends tf.Rank>(shape: number[], seed: number) => tf.randomUniform(shape, -1, 1, "float32", seed) as unknown as tf.Tensor<R>;

  it("is exact on a linear model f = w·x + v·e: attr = (x − x0)·w and (e − e0)·v", () => {
    const w = rand<tf.Rank.R4>([1, H, H, C], 1),
      v = rand<tf.Rank.R3>([1, Tt, D], 2);
    const x = rand<tf.Rank.R4>([1, H, H, C], 3),
      x0 = rand<tf.Rank.R4>([1, H, H, C], 4);
    const e = rand<tf.Rank.R3>([1, Tt, D], 5),
      e0 = rand<tf.Rank.R3>([1, Tt, D], 6);
    const f = (img: tf.Tensor4D, emb: tf.Tensor3D) => tf.add(tf.sum(tf.mul(img, w), [1, 2, 3]), tf.sum(tf.mul(emb, v), [1, 2])) as tf.Tensor1D;
    // (Not riemann_trapezoid: as in Captum, its step sizes sum to (n − 1)/n, not 1.)
    for (const method of ["gausslegendre", "riemann_middle", "riemann_left", "riemann_right"] as const) {
      const r = multimodalIntegratedGradients(f, x, x0, e, e0, { nSteps: 7, method, internalBatchSize: 3 });
      const wantImage = tf.mul(tf.sub(x, x0), w).dataSync();
      const wantEmb = tf.mul(tf.sub(e, e0), v).dataSync();
      r.image.forEach((a, i) => expect(a).toBeCloseTo(wantImage[i], 5));
      r.embedded.forEach((a, i) => expect(a).toBeCloseTo(wantEmb[i], 5));
      expect(Math.abs(r.delta)).toBeLessThan(1e-4);
    }
    tf.dispose([w, v, x, x0, e, e0]);
  });

  it("is exact on f = (w·x)(v·e) from zero baselines: each input gets half of f(x, e)", () => {
    // Along the path a(α) = α·(w·x), b(α) = α·(v·e), so ∂f/∂x_i = w_i·α·(v·e) and
    // IG_i = x_i·w_i·(v·e)·∫α dα = x_i·w_i·(v·e)/2 (Gauss–Legendre integrates it exactly).
    const w = rand<tf.Rank.R4>([1, H, H, C], 7),
      v = rand<tf.Rank.R3>([1, Tt, D], 8),
      x = rand<tf.Rank.R4>([1, H, H, C], 9),
      e = rand<tf.Rank.R3>([1, Tt, D], 10);
    const f = (img: tf.Tensor4D, emb: tf.Tensor3D) => tf.mul(tf.sum(tf.mul(img, w), [1, 2, 3]), tf.sum(tf.mul(emb, v), [1, 2])) as tf.Tensor1D;
    const r = multimodalIntegratedGradients(f, x, tf.zerosLike(x), e, tf.zerosLike(e), { nSteps: 4 });
    const A = tf.sum(tf.mul(x, w)).dataSync()[0],
      B = tf.sum(tf.mul(e, v)).dataSync()[0];
    const xw = tf.mul(x, w).dataSync(),
      ev = tf.mul(e, v).dataSync();
    r.image.forEach((a, i) => expect(a).toBeCloseTo((xw[i] * B) / 2, 5));
    r.embedded.forEach((a, i) => expect(a).toBeCloseTo((ev[i] * A) / 2, 5));
    expect(r.inputOutput).toBeCloseTo(A * B, 5);
    expect(r.baselineOutput).toBe(0);
    expect(Math.abs(r.delta)).toBeLessThan(1e-5);
    tf.dispose([w, v, x, e]);
  });
});
