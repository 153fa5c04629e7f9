// The engine end to end on a hand-built net whose decision depends on one known patch:
// with any sensible attribution, MoRF removes that patch first (accuracy drops at the
// first step) and LeRF removes it last (accuracy holds until the very end).
import { describe, it, expect, beforeAll } from "vitest";
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { getAlgorithm } from "../../sidecar/inference/attribution/index.ts";
import { evaluateIndices, EvaluationCancelled, pixelMap, summarise } from "../../sidecar/inference/evaluation/engine.ts";
import { brightImages, GRID11, keyPatchNet } from "./fixtures.ts";

const settings = { patchSize: 2, filler: [0, 0, 0], grid: GRID11 };

describe("MoRF/LeRF on a one-patch net", () => {
  beforeAll(async () => {
    await initBackend("cpu");
  });

  it.each(["Saliency", "InputXGradient", "IntegratedGradients", "GuidedBackprop"])("%s: MoRF drops at the first step, LeRF only at the last", async (name) => {
    const net = keyPatchNet();
    const split = brightImages(3);
    const results = await evaluateIndices(net, getAlgorithm(name), {}, settings, split, [0, 1, 2]);
    const s = summarise(results, GRID11.length);
    expect(s.images).toBe(3);
    expect(s.morf).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(s.lerf).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0]);
    // The whole positive mass sits on the key patch.
    expect(s.localisation).toBeCloseTo(1, 6);
  });

  it("a non-zero filler that keeps the key bright keeps the class", async () => {
    const net = keyPatchNet();
    const split = brightImages(1);
    const results = await evaluateIndices(net, getAlgorithm("Saliency"), {}, { ...settings, filler: [0.9] }, split, [0]);
    expect(results[0].morf).toEqual(Array(11).fill(1));
    expect(results[0].lerf).toEqual(Array(11).fill(1));
  });

  it("a misclassified image counts as wrong at every fraction", async () => {
    const net = keyPatchNet();
    const split = brightImages(2);
    split.labels[1] = 1; // the net says 0 at fraction 0
    const results = await evaluateIndices(net, getAlgorithm("Saliency"), {}, settings, split, [0, 1]);
    expect(results[1].morf.slice(0, 1)).toEqual([0]);
    expect(summarise(results, 11).morf[0]).toBe(0.5);
  });

  it("upsamples a layer-resolution map before computing patch importance", () => {
    const m = tf.tensor4d([1, 2, 3, 4], [1, 2, 2, 1]);
    const px = pixelMap(m, 4, 4);
    // Nearest upsampling: each cell covers a 2×2 block.
    expect(Array.from(px)).toEqual([1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4]);
    m.dispose();
  });

  it("stops between images when cancelled", async () => {
    const net = keyPatchNet();
    const ctrl = new AbortController();
    let seen = 0;
    const run = evaluateIndices(net, getAlgorithm("Saliency"), {}, settings, brightImages(5), [0, 1, 2, 3, 4], {
      signal: ctrl.signal,
      onImage: () => {
        seen++;
        if (seen === 2) ctrl.abort();
      },
    });
    await expect(run).rejects.toBeInstanceOf(EvaluationCancelled);
    expect(seen).toBe(2);
  });
});
