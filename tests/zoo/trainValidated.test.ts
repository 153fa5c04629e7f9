// Classifier training with a validation split (sidecar/zoo/train.ts over trainLoop.ts): the
// manifest records the per-epoch curve, the kept epoch is the best one on validation, and the
// written checkpoint is that epoch's network (its test accuracy is what the manifest says).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { train, accuracy } from "../../sidecar/zoo/train.ts";
import { loadZooNet } from "../../sidecar/zoo/zooNet.ts";
import { generateScenesSplit } from "../../sidecar/data/scenes.ts";
import * as tf from "@tensorflow/tfjs";

const out = fs.mkdtempSync(path.join(os.tmpdir(), "train-validated-"));
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

describe("train with --val-size", () => {
  it("keeps the best validation epoch and records the curve", async () => {
    const m = (await train({
      dataset: "scenes",
      arch: "vgg",
      epochs: 3,
      batch: 32,
      lr: 0.01,
      trainSize: 96,
      valSize: 48,
      config: { width: 4, stemStride: 1 },
      seed: 3,
      id: "tiny-validated",
      out,
      flip: false,
      dtype: "float32",
      quiet: true,
      command: "npm run train -- (test)",
    })) as unknown as Record<string, unknown> & { valHistory: number[]; lossHistory: number[]; epochs: number; valAccuracy: number; testAccuracy: number };
    expect(m.valHistory).toHaveLength(3);
    expect(m.lossHistory).toHaveLength(3);
    expect(m).toMatchObject({ epochsRun: 3, valSize: 48, trainSize: 96, command: "npm run train -- (test)" });
    const best = Math.max(...m.valHistory);
    expect(m.valAccuracy).toBe(best);
    expect(m.epochs).toBe(m.valHistory.indexOf(best) + 1);
    for (const v of m.valHistory) expect(v * 48).toBeCloseTo(Math.round(v * 48), 1);
    // The written weights are the kept epoch's: reloaded, they score the manifest's test accuracy.
    const net = loadZooNet("tiny-validated", out);
    const test = generateScenesSplit("test", 1000);
    const acc = accuracy((x) => net.forward(x) as tf.Tensor2D, test);
    expect(acc).toBeCloseTo(m.testAccuracy, 4);
    net.dispose();
  }, 120_000);
});
