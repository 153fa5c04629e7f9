// Known answers of the multi-label logic: the targets derived from a hand-made mask (the
// visible-pixel threshold, the background and out-of-range ids ignored), the top-5 ranking with
// sigmoid probabilities (ties in class order), average precision computed by hand (ties read as
// one threshold, as scikit-learn's), the dataset's determinism, and a class explained through the
// engine with the class's logit as the target on a linear net whose attributions are known.
import * as tf from "@tensorflow/tfjs";
import { beforeAll, describe, expect, it } from "vitest";
import { MULTILABEL_CLASSES, MULTILABEL_MIN_PIXELS, generateMultiLabelScenes, labelsFromMask } from "../../sidecar/data/vocMultilabel.ts";
import { SEG_SCENES_DEFAULT_SEED, SEG_SPLITS, renderSegScene } from "../../sidecar/data/segScenes.ts";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { classifyWith, explainClassWith } from "../../sidecar/inference/multilabel/job.ts";
import type { Net } from "../../sidecar/inference/net.ts";
import { averagePrecision, meanAveragePrecision, sigmoid, topClasses } from "../../sidecar/zoo/multiLabel.ts";

beforeAll(async () => {
  await initBackend("wasm");
});

describe("multi-label targets from a mask", () => {
  it("a class is a label from MULTILABEL_MIN_PIXELS visible pixels on; the background never is", () => {
    expect(MULTILABEL_MIN_PIXELS).toBe(12);
    const mask = new Uint8Array(1024);
    mask.fill(1, 0, 12); // circle: exactly 12 pixels → label
    mask.fill(2, 100, 111); // square: 11 pixels → not a label
    mask.fill(6, 200, 500); // star: 300 → label
    // the rest is background (0)
    expect([...labelsFromMask(mask)]).toEqual([1, 0, 0, 0, 0, 1]);
    expect([...labelsFromMask(mask, 6, 11)]).toEqual([1, 1, 0, 0, 0, 1]);
    expect([...labelsFromMask(new Uint8Array(1024))]).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it("the set is the segmentation scenes' images with those labels, the same on every run", () => {
    const a = generateMultiLabelScenes("test", 20);
    const b = generateMultiLabelScenes("test", 20);
    expect(Buffer.from(a.images.buffer).equals(Buffer.from(b.images.buffer))).toBe(true);
    expect([...a.targets]).toEqual([...b.targets]);
    expect(a.classNames).toEqual([...MULTILABEL_CLASSES]);
    for (let i = 0; i < 20; i++) {
      const s = renderSegScene(SEG_SCENES_DEFAULT_SEED, SEG_SPLITS.test, i);
      expect(Buffer.from(a.images.buffer, i * 3072 * 4, 3072 * 4).equals(Buffer.from(s.pixels.buffer))).toBe(true);
      expect([...a.targets.subarray(i * 6, i * 6 + 6)]).toEqual([...labelsFromMask(s.mask)]);
      // Every label is an object that was painted; an object can be hidden (no label).
      const painted = new Set(s.objects.map((o) => o.cls - 1));
      for (let c = 0; c < 6; c++) if (a.targets[i * 6 + c]) expect(painted.has(c)).toBe(true);
    }
  });
});

describe("ranking and average precision", () => {
  it("ranks the five highest logits with their sigmoid probabilities, ties in class order", () => {
    const names = ["a", "b", "c", "d", "e", "f", "g"];
    const top = topClasses([0, 2, -1, 2, 5, -3, 1], names);
    expect(top.map((r) => r.name)).toEqual(["e", "b", "d", "g", "a"]);
    expect(top[0].probability).toBeCloseTo(1 / (1 + Math.exp(-5)), 12);
    expect(top[4].probability).toBe(0.5);
    expect(topClasses([1, 2], ["x", "y"], 5)).toHaveLength(2);
    expect(sigmoid(-800)).toBe(0);
    expect(sigmoid(800)).toBe(1);
  });

  it("average precision as computed by hand", () => {
    // Ranked: 0.9 (+), 0.8 (−), 0.7 (+), 0.1 (−): precisions at the positives 1/1 and 2/3.
    expect(averagePrecision([0.9, 0.8, 0.7, 0.1], [1, 0, 1, 0])).toBeCloseTo((1 + 2 / 3) / 2, 12);
    // A tie between a positive and a negative at the top: one threshold, precision 1/2 there.
    expect(averagePrecision([0.5, 0.5, 0.1], [1, 0, 1])).toBeCloseTo((1 / 2 + 2 / 3) / 2, 12);
    expect(averagePrecision([0.3, 0.2], [0, 0])).toBeNaN();
    // Two images: class 0 ranked perfectly (1), class 1's positive ranked second (1/2); class 2 without positives is left out.
    const m = meanAveragePrecision([0.9, 0.1, 0, 0.2, 0.8, 0], [1, 1, 0, 0, 0, 0], 3);
    expect(m.perClass[0]).toBe(1);
    expect(m.perClass[1]).toBe(0.5);
    expect(m.perClass[2]).toBeNaN();
    expect(m.mean).toBe(0.75);
  });
});

/** Class k's logit is the sum of channel k of the 4×4×3 image (k < 3; class 3's is 0), so attributions are known. */
function channelSumNet(): Net {
  return {
    id: "channel-sum",
    inputShape: [4, 4, 3],
    classNames: ["red", "green", "blue", "none"],
    layers: [],
    forward(x) {
      return tf.tidy(() => tf.concat([tf.sum(x, [1, 2]), tf.zeros([x.shape[0], 1])], 1)) as tf.Tensor2D;
    },
    trainableVariables: () => [],
  };
}

describe("Classify and Explain on a known net", () => {
  const pixels = new Float32Array(48);
  for (let p = 0; p < 16; p++) {
    pixels[p * 3] = p < 8 ? 1 : 0; // red on the top half
    pixels[p * 3 + 1] = 0.25;
    pixels[p * 3 + 2] = 0;
  }
  const image = { tensor: { shape: [4, 4, 3], data: pixels } };

  it("ranks by logit with probabilities", async () => {
    const r = await classifyWith(channelSumNet(), { image, topK: 5 });
    expect(r.ranked.map((c) => c.name)).toEqual(["red", "green", "blue", "none"]);
    expect(r.ranked[0].logit).toBeCloseTo(8, 5);
    expect(r.ranked[1].probability).toBeCloseTo(sigmoid(4), 6);
    await expect(classifyWith(channelSumNet(), { image, topK: 0 })).rejects.toThrow(/top_k/);
  });

  it("Feature_Ablation of one class: each 4×4 square's drop of that class's logit", async () => {
    // One 4×4 square covers the whole 4×4 image: its drop is the full logit, on every element.
    const r = await explainClassWith(channelSumNet(), { image, topK: 5, algorithm: "Feature_Ablation", targetClass: 0 });
    expect(r.targetLogit).toBeCloseTo(8, 5);
    expect(r.targetProbability).toBeCloseTo(sigmoid(8), 6);
    expect(r.attribution.shape).toEqual([1, 4, 4, 3]);
    for (const v of r.attribution.data) expect(v).toBeCloseTo(8, 4);
    const g = await explainClassWith(channelSumNet(), { image, topK: 5, algorithm: "Feature_Ablation", targetClass: 1 });
    for (const v of g.attribution.data) expect(v).toBeCloseTo(4, 4);
    await expect(explainClassWith(channelSumNet(), { image, topK: 5, algorithm: "GradCAM", targetClass: 0 })).rejects.toThrow(/Feature_Ablation or LIME/);
    await expect(explainClassWith(channelSumNet(), { image, topK: 5, algorithm: "LIME", targetClass: 4 })).rejects.toThrow(/from 0 to 3/);
  });

  it("LIME explains the chosen class's logit (the all-zero class gets no attribution)", async () => {
    const none = await explainClassWith(channelSumNet(), { image, topK: 5, algorithm: "LIME", targetClass: 3 });
    for (const v of none.attribution.data) expect(v).toBe(0);
    const red = await explainClassWith(channelSumNet(), { image, topK: 5, algorithm: "LIME", targetClass: 0 });
    expect(red.method).toBe("Lime");
    expect(red.attribution.data.some((v) => v > 0)).toBe(true);
    expect(red.heatmapPng.length).toBeGreaterThan(0);
  });
});

describe("the served multi-label network", () => {
  it("runs on onnxruntime (the zoo exporter's graph) with the checkpoint's tfjs logits", async () => {
    const { listMultiLabelModels, servedMultiLabelNet } = await import("../../sidecar/inference/multilabel/job.ts");
    const id = listMultiLabelModels().models[0].id;
    const net = await servedMultiLabelNet(id);
    expect(net.native).toBeDefined();
    const n = 4;
    const pixels = generateMultiLabelScenes("test", n).images;
    const onTfjs = tf.tidy(() => net.forward(tf.tensor4d(pixels, [n, ...net.inputShape])).dataSync());
    const onNative = await net.native!.logits(pixels, n);
    const scale = Math.max(...Array.from(onTfjs, Math.abs));
    for (let i = 0; i < onTfjs.length; i++) expect(Math.abs(onNative[i] - onTfjs[i])).toBeLessThan(1e-4 * scale);
    // The classification the service answers with comes from these logits.
    const image = { tensor: { shape: [...net.inputShape], data: pixels.subarray(0, pixels.length / n) } };
    const ranked = (await classifyWith(net, { image, topK: 3 })).ranked;
    expect(ranked[0].logit).toBeCloseTo(Math.max(...Array.from(onNative.subarray(0, net.classNames.length))), 4);
  });
});
