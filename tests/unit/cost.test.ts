// Cost estimates of explanations, counted by hand (sidecar/inference/cost.ts).
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_EVALUATIONS, boundsFromEnv, evaluationScale, explainCost, overBudget, timeLimitMs } from "../../sidecar/inference/cost.ts";

const FASHION = [28, 28, 1] as const;
const SCENES = [32, 32, 3] as const;

describe("explainCost", () => {
  it("counts a gradient as two evaluations, times the method's repetitions", () => {
    expect(explainCost("Saliency", {}, FASHION)!.evaluations).toBe(2);
    expect(explainCost("IntegratedGradients", {}, FASHION)).toEqual({ evaluations: 100, drivers: ["n_steps=50"] });
    expect(explainCost("IntegratedGradients", { n_steps: 1000 }, FASHION)!.evaluations).toBe(2000);
    expect(explainCost("SmoothGrad", { nt_samples: 20 }, FASHION)!.evaluations).toBe(40);
    expect(explainCost("GradientShap", { n_samples: 7 }, FASHION)!.evaluations).toBe(14);
    expect(explainCost("NoiseTunnel", { base: "IntegratedGradients", nt_samples: 10, n_steps: 20 }, FASHION)!.evaluations).toBe(400);
  });
  it("counts perturbation methods by their features, samples or windows (plus the unperturbed pass)", () => {
    expect(explainCost("FeatureAblation", {}, SCENES)!.evaluations).toBe(32 * 32 * 3 + 1);
    expect(explainCost("FeatureAblation", { feature_mask: "pixels" }, SCENES)!.evaluations).toBe(32 * 32 + 1);
    expect(explainCost("FeatureAblation", { feature_mask: "grid", superpixel_size: 5 }, SCENES)!.evaluations).toBe(7 * 7 + 1);
    expect(explainCost("Lime", { n_samples: 300 }, SCENES)!.evaluations).toBe(301);
    // The default mask ("auto"): every scalar up to 4,096 of them, as Captum; above that a 16 × 16 grid.
    expect(explainCost("FeatureAblation", {}, FASHION)!.evaluations).toBe(28 * 28 + 1);
    expect(explainCost("FeatureAblation", {}, [64, 64, 1])!.evaluations).toBe(4096 + 1);
    expect(explainCost("FeatureAblation", {}, [64, 64, 3])).toEqual({ evaluations: 16 * 16 + 1, drivers: ["feature_mask=auto", "superpixel_size=4"] });
    expect(explainCost("FeatureAblation", {}, [224, 224, 3])!.evaluations).toBe(16 * 16 + 1);
    expect(explainCost("FeatureAblation", { feature_mask: "elements" }, [224, 224, 3])!.evaluations).toBe(224 * 224 * 3 + 1);
    // Captum's tutorial window 15 px / stride 8 px at 224 px → 2 px / 1 px at 28 px: 27 × 27 positions.
    expect(explainCost("Occlusion", {}, FASHION)!.evaluations).toBe(27 * 27 + 1);
    expect(explainCost("Occlusion", { window: 4, stride: 4 }, FASHION)!.evaluations).toBe(7 * 7 + 1);
  });
  it("leaves invalid parameters and unknown methods to the worker's own message", () => {
    expect(explainCost("IntegratedGradients", { n_steps: "many" }, FASHION)).toBeNull();
    expect(explainCost("NoSuchMethod", {}, FASHION)).toBeNull();
  });
});

describe("bounds", () => {
  const bounds = boundsFromEnv({});
  it("refuses above the maximum, naming the parameters to lower", () => {
    expect(bounds.maxEvaluations).toBe(DEFAULT_MAX_EVALUATIONS);
    expect(overBudget("IntegratedGradients", explainCost("IntegratedGradients", { n_steps: 1000 }, FASHION)!, bounds)).toBeNull();
    const msg = overBudget("IG_with_noise_tunnel", explainCost("IG_with_noise_tunnel", { nt_samples: 100, n_steps: 100 }, FASHION)!, bounds);
    expect(msg).toBe(
      "IG_with_noise_tunnel with nt_samples=100, n_steps=100 needs 20000 model evaluations; this server runs at most 5000 per request. Please lower nt_samples or n_steps.",
    );
  });
  it("gives each job a time limit in proportion to its cost, under the hard limit", () => {
    expect(timeLimitMs({ evaluations: 100, drivers: [] }, bounds)).toBe(11_000);
    expect(timeLimitMs({ evaluations: 5000, drivers: [] }, bounds)).toBe(60_000);
    expect(timeLimitMs({ evaluations: 5000, drivers: [] }, boundsFromEnv({ SIDECAR_JOB_TIME_LIMIT_MS: "30000" }))).toBe(30_000);
    expect(timeLimitMs(null, bounds)).toBe(120_000);
  });
  it("counts an evaluation of a larger input as more of the zoo's 32 px ones", () => {
    expect(evaluationScale([28, 28, 1])).toBe(1);
    expect(evaluationScale([32, 32, 3])).toBe(1);
    expect(evaluationScale([224, 224, 3])).toBe(49);
    expect(timeLimitMs({ evaluations: 100, drivers: [] }, bounds, [28, 28, 1])).toBe(11_000);
    // Saliency on a 224 px model: 10 s + 2 × 49 × 10 ms; Occlusion's 730 passes reach the hard limit.
    expect(timeLimitMs({ evaluations: 2, drivers: [] }, bounds, [224, 224, 3])).toBe(10_980);
    expect(timeLimitMs({ evaluations: 730, drivers: [] }, bounds, [224, 224, 3])).toBe(120_000);
  });
});
