// etaEstimator (sidecar/inference/evaluation/eta.ts) on a run whose timings are set by hand.
import { describe, expect, it } from "vitest";
import { ETA_MIN_SHARE, etaEstimator } from "../../sidecar/inference/evaluation/eta.ts";

describe("etaEstimator", () => {
  it("measures the rate from the first image reported, so the start-up is not counted per image", () => {
    let clock = 0;
    const eta = etaEstimator(6000, () => clock);
    // 8 s of start-up before the first image: the old estimate was 8 s × 5,999 images ≈ 13 h.
    clock = 8000;
    expect(eta(1)).toBeUndefined();
    // Then 15 images a second: 120 images (2 %) after the first, 8 s later.
    clock = 16_000;
    expect(eta(121)).toBeCloseTo((8 / 120) * (6000 - 121), 9);
    clock = 20_000;
    expect(eta(181)).toBeCloseTo((12 / 180) * (6000 - 181), 9);
  });

  it("gives no estimate until a share of the run has been measured, and none below zero", () => {
    let clock = 0;
    const eta = etaEstimator(1000, () => clock);
    expect(eta(0)).toBeUndefined();
    clock = 5000;
    expect(eta(1)).toBeUndefined();
    clock = 6000;
    expect(eta(1 + Math.ceil(1000 * ETA_MIN_SHARE) - 1)).toBeUndefined();
    expect(eta(1 + Math.ceil(1000 * ETA_MIN_SHARE))).toBeGreaterThan(0);
    clock = 60_000;
    expect(eta(1000)).toBe(0);
  });

  it("a run of one image or a tiny run still gets an estimate after its second report", () => {
    let clock = 0;
    const eta = etaEstimator(10, () => clock);
    expect(eta(1)).toBeUndefined();
    clock = 1000;
    expect(eta(2)).toBeCloseTo(8, 9);
  });
});
