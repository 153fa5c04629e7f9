// Patch geometry of the MoRF/LeRF procedure: grid, importance, ordering and ties,
// removal counts, filler and masking, localisation.
import { describe, it, expect } from "vitest";
import {
  fillerFor,
  maskImage,
  orderPatches,
  patchGrid,
  patchImportance,
  patchOf,
  patchPixels,
  positiveMassInside,
  removalCounts,
} from "../../sidecar/inference/evaluation/patches.ts";

const GRID11 = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

describe("patch grid", () => {
  it("cuts 28×28 into 14×14 patches of 2 and 32×32 into 16×16", () => {
    expect(patchGrid(28, 28, 1, 2)).toMatchObject({ rows: 14, cols: 14, count: 196 });
    expect(patchGrid(32, 32, 3, 2)).toMatchObject({ rows: 16, cols: 16, count: 256 });
  });
  it("keeps smaller edge patches when the size does not divide", () => {
    const g = patchGrid(5, 3, 1, 2);
    expect(g).toMatchObject({ rows: 3, cols: 2, count: 6 });
    expect(patchOf(g, 4, 2)).toBe(5);
    expect(patchPixels(g)[5]).toEqual(Int32Array.from([4 * 3 + 2]));
    expect(patchPixels(g)[0]).toEqual(Int32Array.from([0, 1, 3, 4]));
  });
  it("rejects a patch size that is not a positive whole number", () => {
    expect(() => patchGrid(4, 4, 1, 0)).toThrow(/patch size/);
    expect(() => patchGrid(4, 4, 1, 1.5)).toThrow(/patch size/);
  });
});

describe("patch importance", () => {
  it("sums over the patch's pixels and all channels, keeping the sign", () => {
    // 2×4 image, 2 channels, patch 2 → patches 0 (x 0–1) and 1 (x 2–3).
    const g = patchGrid(2, 4, 2, 2);
    const attr = new Float32Array(2 * 4 * 2);
    attr[(0 * 4 + 0) * 2 + 0] = 1; // patch 0
    attr[(1 * 4 + 1) * 2 + 1] = 2; // patch 0
    attr[(0 * 4 + 2) * 2 + 1] = -5; // patch 1
    attr[(1 * 4 + 3) * 2 + 0] = 0.5; // patch 1
    expect(Array.from(patchImportance(attr, g))).toEqual([3, -4.5]);
  });
  it("rejects a map of the wrong size", () => {
    expect(() => patchImportance(new Float32Array(3), patchGrid(2, 2, 1, 1))).toThrow(/expected 2×2×1/);
  });
});

describe("patch order", () => {
  it("MoRF is descending and LeRF ascending importance", () => {
    const imp = [0.2, 0.9, -0.3, 0.5];
    expect(Array.from(orderPatches(imp, "morf"))).toEqual([1, 3, 0, 2]);
    expect(Array.from(orderPatches(imp, "lerf"))).toEqual([2, 0, 3, 1]);
  });
  it("breaks ties by ascending patch index in both protocols", () => {
    const imp = [1, 0, 1, 0, 1];
    expect(Array.from(orderPatches(imp, "morf"))).toEqual([0, 2, 4, 1, 3]);
    expect(Array.from(orderPatches(imp, "lerf"))).toEqual([1, 3, 0, 2, 4]);
    // An all-zero map (a dead attribution) removes patches in reading order.
    expect(Array.from(orderPatches(new Float64Array(6), "morf"))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(Array.from(orderPatches(new Float64Array(6), "lerf"))).toEqual([0, 1, 2, 3, 4, 5]);
  });
  it("puts NaN importances last, by index", () => {
    expect(Array.from(orderPatches([NaN, 1, NaN, 2], "morf"))).toEqual([3, 1, 0, 2]);
    expect(Array.from(orderPatches([NaN, 1, NaN, 2], "lerf"))).toEqual([1, 3, 0, 2]);
  });
});

describe("removal grid", () => {
  it("removes round(f · patches) patches, halves up", () => {
    expect(removalCounts(GRID11, 196)).toEqual([0, 20, 39, 59, 78, 98, 118, 137, 157, 176, 196]);
    expect(removalCounts(GRID11, 256)).toEqual([0, 26, 51, 77, 102, 128, 154, 179, 205, 230, 256]);
    // 0.3 · 5 = 1.5 in decimal but 1.4999… in float64: still rounds up.
    expect(removalCounts([0, 0.1, 0.3, 0.5, 1], 5)).toEqual([0, 1, 2, 3, 5]);
    expect(removalCounts(GRID11, 100)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
  });
  it("rejects fractions outside [0, 1]", () => {
    expect(() => removalCounts([0, 1.2], 4)).toThrow(/\[0, 1\]/);
  });
});

describe("filler and masking", () => {
  it("uses one value per channel, or the first value for a one-channel model", () => {
    expect(Array.from(fillerFor([0.1, 0.2, 0.3], 3))).toEqual([0.1, 0.2, 0.3].map(Math.fround));
    expect(Array.from(fillerFor([0.5, 0, 0], 1))).toEqual([0.5]);
    expect(Array.from(fillerFor([0.25], 3))).toEqual([0.25, 0.25, 0.25]);
    expect(() => fillerFor([0, 0], 3)).toThrow(/3 channels/);
    expect(() => fillerFor([], 3)).toThrow(/finite/);
  });
  it("paints exactly the first k patches of the order with the per-channel filler", () => {
    const g = patchGrid(2, 4, 3, 2);
    const image = Float32Array.from({ length: 24 }, (_, i) => i + 100);
    const out = new Float32Array(24);
    const filler = Float32Array.from([1, 2, 3]);
    maskImage(image, g, patchPixels(g), Int32Array.from([1, 0]), 1, filler, out);
    for (let y = 0; y < 2; y++) {
      for (let x = 0; x < 4; x++) {
        for (let c = 0; c < 3; c++) {
          const i = (y * 4 + x) * 3 + c;
          expect(out[i]).toBe(x >= 2 ? c + 1 : image[i]);
        }
      }
    }
    maskImage(image, g, patchPixels(g), Int32Array.from([1, 0]), 0, filler, out);
    expect(out).toEqual(image);
    maskImage(image, g, patchPixels(g), Int32Array.from([1, 0]), 2, filler, out);
    expect(Array.from(out)).toEqual(Array.from({ length: 24 }, (_, i) => (i % 3) + 1));
  });
});

describe("localisation", () => {
  it("is the share of positive mass inside the mask, negatives ignored", () => {
    const g = patchGrid(1, 4, 1, 1);
    expect(positiveMassInside([3, 1, -10, 0], [1, 0, 1, 0], g)).toBeCloseTo(0.75, 12);
    expect(positiveMassInside([-1, 0, -2, 0], [1, 0, 1, 0], g)).toBeNull();
  });
  it("sums channels before taking the positive part", () => {
    const g = patchGrid(1, 2, 2, 1);
    // pixel 0: 2 + (−1) = 1 inside; pixel 1: 1 + 2 = 3 outside.
    expect(positiveMassInside([2, -1, 1, 2], [1, 0], g)).toBeCloseTo(0.25, 12);
  });
});
