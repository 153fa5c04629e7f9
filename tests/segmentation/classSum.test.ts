// The class-sum wrapper of Captum's segmentation tutorial against a toy segmenter whose
// outputs are computed by hand: logits[p, c] = a_c·x_p + d_c·mean(x) + b_c on a 2×2×1
// image (the mean term makes one segment's ablation change another's score).
import * as tf from "@tensorflow/tfjs";
import { beforeAll, describe, expect, it } from "vitest";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { featureAblation } from "../../sidecar/inference/attribution/featureAblation.ts";
import { layerGradCam } from "../../sidecar/inference/attribution/layerGradCam.ts";
import { classSumNet, predictedSegments, segmentMask, type PixelClassifier } from "../../sidecar/inference/segmentation/classSum.ts";
import { explainSegmentWith } from "../../sidecar/inference/segmentation/job.ts";

beforeAll(async () => {
  await initBackend("wasm");
});

const A = [0, 2, -1];
const D = [0, 0, 1];
const B = [0.5, -0.5, 0.3];

const toy: PixelClassifier = {
  id: "toy",
  inputShape: [2, 2, 1],
  classNames: ["background", "one", "two"],
  layers: ["feat"],
  defaultCamLayer: "feat",
  forward(x, opts) {
    return tf.tidy(() => {
      let f: tf.Tensor4D = x;
      if (opts?.tap?.layer === "feat") f = (opts.tap.fn(f) as tf.Tensor4D | undefined) ?? f;
      const mean = tf.mean(f, [1, 2, 3], true);
      return tf.add(tf.add(tf.mul(f, tf.tensor1d(A)), tf.mul(mean, tf.tensor1d(D))), tf.tensor1d(B)) as tf.Tensor4D;
    });
  },
  trainableVariables: () => [],
};

// Pixels p0..p3 (row-major): mean 0.275.
//   p0 0.9:  logits 0.5, 1.3, −0.325 → 1      p1 0.1:  0.5, −0.3, 0.475 → 0
//   p2 0.6:  0.5, 0.7, −0.025 → 1             p3 −0.5: 0.5, −1.5, 1.075 → 2
const X = [0.9, 0.1, 0.6, -0.5];
const input = () => tf.tensor4d(X, [1, 2, 2, 1]);

describe("class-sum wrapper (Captum segmentation tutorial)", () => {
  it("predicts the hand-computed segments", async () => {
    const x = input();
    expect(Array.from(predictedSegments(toy, x))).toEqual([1, 0, 1, 2]);
    x.dispose();
  });

  it("sums each class's logits over the pixels predicted as that class", async () => {
    const x = input();
    const net = classSumNet(toy, [1, 0, 1, 2]);
    const out = tf.tidy(() => Array.from(net.forward(x).dataSync()));
    // class 0 over p1: 0.5; class 1 over p0, p2: 1.3 + 0.7; class 2 over p3: 1.075
    expect(out[0]).toBeCloseTo(0.5, 5);
    expect(out[1]).toBeCloseTo(2.0, 5);
    expect(out[2]).toBeCloseTo(1.075, 5);
    // The selection is fixed: a different input is still summed over the original pixels.
    const zero = tf.zeros([1, 2, 2, 1]) as tf.Tensor4D;
    const atZero = tf.tidy(() => Array.from(net.forward(zero).dataSync()));
    expect(atZero[1]).toBeCloseTo(2 * -0.5, 5);
    expect(atZero[2]).toBeCloseTo(0.3, 5);
    tf.dispose([x, zero]);
    net.dispose();
  });

  it("Feature_Ablation over the predicted segments gives the hand-computed drops", async () => {
    const x = input();
    const selection = [1, 0, 1, 2];
    const net = classSumNet(toy, selection);
    const mask = segmentMask(selection, [2, 2, 1]);
    // Target 2 (F = 1.075): ablating segment 0 (p1) → mean 0.25, score 1.05, drop 0.025;
    // segment 1 (p0, p2) → mean −0.1, score 0.7, drop 0.375; segment 2 (p3) → mean 0.4, score 0.7, drop 0.375.
    const a2 = await featureAblation(net, x, 2, { featureMask: mask, baselines: 0 });
    Array.from(a2.dataSync()).forEach((v, i) => expect(v).toBeCloseTo([0.375, 0.025, 0.375, 0.375][i], 5));
    // Target 1 (F = 2): only its own segment matters; ablated, its pixels score −0.5 each: drop 3.
    const a1 = await featureAblation(net, x, 1, { featureMask: mask, baselines: 0 });
    Array.from(a1.dataSync()).forEach((v, i) => expect(v).toBeCloseTo([3, 0, 3, 0][i], 5));
    tf.dispose([x, a1, a2]);
    net.dispose();
  });

  it("LayerGradCAM weights the layer by the mean gradient of the class sum", async () => {
    const x = input();
    const net = classSumNet(toy, [1, 0, 1, 2]);
    // ∂F1/∂feat = [2, 0, 2, 0], mean 1: the map is the activation itself.
    const cam = await layerGradCam(net, x, 1, "feat");
    Array.from(cam.dataSync()).forEach((v, i) => expect(v).toBeCloseTo(X[i], 5));
    tf.dispose([x, cam]);
    net.dispose();
  });

  it("the Explain job reports the wrapper's score and per-segment drops, and refuses a class not predicted", async () => {
    const tensor = { shape: [2, 2, 1], data: X };
    const r = await explainSegmentWith(toy, { image: { tensor }, algorithm: "Feature_Ablation", targetClass: 2 });
    expect(r.targetScore).toBeCloseTo(1.075, 5);
    expect(r.classes.map((c) => c.id)).toEqual([1, 2]);
    const byId = Object.fromEntries(r.segmentAttributions.map((s) => [s.id, s.value]));
    expect(byId[0]).toBeCloseTo(0.025, 5);
    expect(byId[1]).toBeCloseTo(0.375, 5);
    expect(byId[2]).toBeCloseTo(0.375, 5);
    expect(r.heatmapPng.length).toBeGreaterThan(0);
    // [0.9, 0.8, 0.6, 0.7]: mean 0.75, class 1 wins everywhere (2x − 0.5 > 1.05 − x), so class 2 is absent.
    const allOne = { tensor: { shape: [2, 2, 1], data: [0.9, 0.8, 0.6, 0.7] } };
    await expect(explainSegmentWith(toy, { image: allOne, algorithm: "Feature_Ablation", targetClass: 2 })).rejects.toThrow(
      /class 2 is not in this image's segmentation/,
    );
    await expect(explainSegmentWith(toy, { image: { tensor }, algorithm: "Occlusion", targetClass: 2 })).rejects.toThrow(/unknown segmentation algorithm/);
  });
});
