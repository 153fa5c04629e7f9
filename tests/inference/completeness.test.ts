// Integrated Gradients on a committed, trained checkpoint satisfies completeness:
// Σ attributions ≈ F(x) − F(baseline) for the explained class (Sundararajan et al.),
// checked through the same explain() the service and CLI run.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { explain, predict } from "../../sidecar/inference/explain.ts";
import { readManifest } from "../../sidecar/zoo/checkpoint.ts";

const SAMPLES = path.resolve(__dirname, "../fixtures/data/samples");
const labels = JSON.parse(fs.readFileSync(path.join(SAMPLES, "labels.json"), "utf8"));
const MODEL = "resnet-fashion-mnist";

beforeAll(async () => {
  await initBackend("wasm");
});

describe(`IG completeness on ${MODEL}`, () => {
  it("is a trained checkpoint that classifies the real samples", async () => {
    const m = readManifest(MODEL);
    expect(m.testAccuracy).toBeGreaterThanOrEqual(0.9);
    for (const f of ["fashion-mnist-0.png", "fashion-mnist-1.png"]) {
      const p = await predict({ modelId: MODEL, image: { png: fs.readFileSync(path.join(SAMPLES, f)) } });
      expect(p.predictedClass).toBe(labels[f]);
      expect(p.probabilities.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 4);
    }
  });

  it.each([
    ["fashion-mnist-0.png", undefined],
    ["fashion-mnist-1.png", 4],
  ])("%s, target %s: Σ attribution ≈ F(x) − F(0)", async (file, target) => {
    const png = fs.readFileSync(path.join(SAMPLES, file));
    // The path integrand of a ReLU network is only piecewise smooth, so the quadrature
    // error shrinks slowly with the step count: 50 steps leave up to ~4 % on this model,
    // 400 steps under 1 %.
    const r = await explain({ modelId: MODEL, image: { png }, algorithm: "IntegratedGradients", params: { n_steps: 400 }, target, noImages: true });
    expect(r.attribution.shape).toEqual([1, 28, 28, 1]);
    expect(r.target).toBe(target ?? labels[file]);
    const sum = r.attribution.data.reduce((a, b) => a + b, 0);
    const gap = r.output[r.target] - r.baselineOutput[r.target];
    expect(Math.abs(gap)).toBeGreaterThan(0.5); // a real difference, not 0 ≈ 0
    expect(Math.abs(sum - gap)).toBeLessThan(0.02 * Math.abs(gap) + 0.02);
    // The method's own convergence delta says the same.
    expect(r.delta).toBeDefined();
    expect(Math.abs(r.delta! - (sum - gap))).toBeLessThan(1e-2);
  });
});
