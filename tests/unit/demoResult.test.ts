// The classification demo's out-of-distribution check (app/.server/demoResult.server.ts,
// docs/datasets.md): calibrated on Fashion-MNIST's held-out test pictures, it lets other
// held-out pictures through (about 1 % flagged, by construction of the 99th-percentile
// threshold) and flags a picture nothing like them (the red square that read "Bag 79.90 %").
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { readFashionMnistSplit } from "../../sidecar/data/fashionMnist.ts";
import { calibrate, inputFeatures, OOD_MIN_THRESHOLD, scoreOf } from "~/.server/demoResult.server.ts";
import type { TrainedModel } from "~/.server/classification.server.ts";

const MODEL: TrainedModel = {
  id: "resnet-fashion-mnist",
  dataset: "fashion-mnist",
  arch: "resnet",
  inputHeight: 28,
  inputWidth: 28,
  inputChannels: 1,
  classNames: [],
  testAccuracy: null,
  trainedAt: "",
};

function loadTest() {
  try {
    return readFashionMnistSplit("test");
  } catch {
    return null;
  }
}
const ds = loadTest();

async function png(i: number): Promise<Buffer> {
  const raw = Buffer.alloc(784);
  for (let k = 0; k < 784; k++) raw[k] = Math.round(ds!.images[i * 784 + k] * 255);
  return sharp(raw, { raw: { width: 28, height: 28, channels: 1 } })
    .png()
    .toBuffer();
}

describe.skipIf(!ds)("out-of-distribution check on Fashion-MNIST", () => {
  it("passes held-out pictures it was not calibrated on and flags the red square", async () => {
    const samples = [];
    for (let i = 0; i < 300; i++) samples.push(await inputFeatures(await png(i), MODEL));
    const cal = calibrate(samples);
    expect(cal.threshold).toBeGreaterThanOrEqual(OOD_MIN_THRESHOLD);
    let flagged = 0;
    for (let i = 1000; i < 1500; i++) if (scoreOf(await inputFeatures(await png(i), MODEL), cal).score > cal.threshold) flagged++;
    expect(flagged / 500).toBeLessThanOrEqual(0.02);
    for (const f of ["red.png", "red.jpg", "red.gif", "red.webp"]) {
      const bytes = fs.readFileSync(path.join("tests/fixtures/images", f));
      expect(scoreOf(await inputFeatures(bytes, MODEL), cal).score, f).toBeGreaterThan(cal.threshold);
    }
  }, 60_000);
});

describe("calibration", () => {
  it("scores by the largest robust distance and never divides by a zero spread", () => {
    const cal = calibrate(Array.from({ length: 20 }, () => [0.5, 0.1]));
    expect(cal.scale).toEqual([0.02, 0.02]);
    expect(scoreOf([0.5, 0.2], cal).score).toBeCloseTo(5);
    expect(scoreOf([0.5, 0.2], cal).feature).toBe(1);
    expect(cal.threshold).toBe(OOD_MIN_THRESHOLD);
  });
});
