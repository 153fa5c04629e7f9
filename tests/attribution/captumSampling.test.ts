// Captum parity for the quadrature rules and the sampling methods (NoiseTunnel,
// GradientShap, Lime, KernelShap): exact values where Captum's tests give them, the
// tests' properties and tolerances where their values come from torch's RNG.
import { describe, it, expect, beforeAll } from "vitest";
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { gaussLegendre, riemann } from "../../sidecar/inference/attribution/approximation.ts";
import { noiseTunnel } from "../../sidecar/inference/attribution/noiseTunnel.ts";
import { saliency } from "../../sidecar/inference/attribution/saliency.ts";
import { integratedGradients } from "../../sidecar/inference/attribution/integratedGradients.ts";
import { gradientShap } from "../../sidecar/inference/attribution/gradientShap.ts";
import { lime } from "../../sidecar/inference/attribution/lime.ts";
import { kernelShap } from "../../sidecar/inference/attribution/kernelShap.ts";
import { elementMask, maskFrom } from "../../sidecar/inference/attribution/featureMask.ts";
import { lasso, linearRegression } from "../../sidecar/inference/attribution/linearModel.ts";
import { basicLinearModel, basicModel2, basicModel3, basicModelMultiLayer, rows } from "./captumModels.ts";

function expectClose(actual: ArrayLike<number>, expected: number[], delta: number): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    expect(Math.abs(actual[i] - expected[i]), `element ${i}: ${actual[i]} vs ${expected[i]}`).toBeLessThanOrEqual(delta);
  }
}

beforeAll(async () => {
  await initBackend("cpu");
});

describe("approximation methods (tests/attr/test_approximation_methods.py, delta 0.05 max)", () => {
  const cases: Record<number, { lrm: number[]; trap: number[]; left: number[]; right: number[]; middle: number[]; trapA: number[] }> = {
    2: { lrm: [0.5, 0.5], trap: [0.25, 0.25], left: [0, 0.5], right: [0.5, 1], middle: [0.25, 0.75], trapA: [0, 1] },
    3: {
      lrm: [1 / 3, 1 / 3, 1 / 3],
      trap: [1 / 6, 1 / 3, 1 / 6],
      left: [0, 1 / 3, 2 / 3],
      right: [1 / 3, 2 / 3, 1],
      middle: [1 / 6, 0.5, 1 - 1 / 6],
      trapA: [0, 0.5, 1],
    },
    4: {
      lrm: [0.25, 0.25, 0.25, 0.25],
      trap: [1 / 8, 1 / 4, 1 / 4, 1 / 8],
      left: [0, 0.25, 0.5, 0.75],
      right: [0.25, 0.5, 0.75, 1],
      middle: [0.125, 0.375, 0.625, 0.875],
      trapA: [0, 1 / 3, 2 / 3, 1],
    },
  };
  for (const [n, e] of Object.entries(cases)) {
    it(`riemann rules with n = ${n}`, async () => {
      const k = Number(n);
      expectClose(riemann("riemann_left", k).stepSizes, e.lrm, 0.05);
      expectClose(riemann("riemann_right", k).stepSizes, e.lrm, 0.05);
      expectClose(riemann("riemann_middle", k).stepSizes, e.lrm, 0.05);
      expectClose(riemann("riemann_trapezoid", k).stepSizes, e.trap, 0.05);
      expectClose(riemann("riemann_left", k).alphas, e.left, 0.05);
      expectClose(riemann("riemann_right", k).alphas, e.right, 0.05);
      expectClose(riemann("riemann_middle", k).alphas, e.middle, 0.05);
      expectClose(riemann("riemann_trapezoid", k).alphas, e.trapA, 0.05);
    });
  }
  it("riemann rejects fewer than two steps (test_riemann_0)", async () => {
    expect(() => riemann("riemann_left", 0)).toThrow(/larger than one/);
  });
  it("gauss-legendre matches numpy.polynomial.legendre.leggauss rescaled to [0, 1]", async () => {
    const g2 = gaussLegendre(2);
    expectClose(g2.alphas, [0.5 - 0.5 / Math.sqrt(3), 0.5 + 0.5 / Math.sqrt(3)], 1e-12);
    expectClose(g2.stepSizes, [0.5, 0.5], 1e-12);
    const g3 = gaussLegendre(3);
    expectClose(g3.alphas, [0.5 - 0.5 * Math.sqrt(0.6), 0.5, 0.5 + 0.5 * Math.sqrt(0.6)], 1e-12);
    expectClose(g3.stepSizes, [5 / 18, 8 / 18, 5 / 18], 1e-12);
    // n points integrate polynomials of degree 2n − 1 exactly: ∫₀¹ t^(2n−1) dt = 1 / 2n.
    for (const n of [1, 5, 50, 200]) {
      const g = gaussLegendre(n);
      const integral = g.alphas.reduce((s, a, i) => s + g.stepSizes[i] * a ** (2 * n - 1), 0);
      expect(Math.abs(integral - 1 / (2 * n))).toBeLessThan(1e-9);
      expect(Math.abs(g.stepSizes.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-12);
    }
  });
});

describe("NoiseTunnel behaviour", () => {
  const net = basicModelMultiLayer();
  const x = rows([[1.5, 2.0, 1.3]]);
  it("with stdevs 0, smoothgrad is the base method, smoothgrad_sq its square and vargrad 0", async () => {
    const base = Array.from((await saliency(net, x, 0)).dataSync());
    const run = async (ntType: "smoothgrad" | "smoothgrad_sq" | "vargrad") =>
      Array.from(
        (await noiseTunnel(async (noisy) => ({ attributions: await saliency(net, noisy, 0) }), x, { ntType, ntSamples: 4, stdevs: 0 })).attributions.dataSync(),
      );
    expectClose(await run("smoothgrad"), base, 1e-6);
    expectClose(
      await run("smoothgrad_sq"),
      base.map((v) => v * v),
      1e-5,
    );
    expectClose(await run("vargrad"), [0, 0, 0], 1e-5);
  });
  it("is reproducible with a seed and differs with another seed", async () => {
    const run = async (seed: number) =>
      Array.from(
        (
          await noiseTunnel(async (noisy) => ({ attributions: await saliency(net, noisy, 0, { abs: false }) }), rows([[0.1, -0.2, 0.05]]), {
            ntSamples: 8,
            stdevs: 1,
            seed,
          })
        ).attributions.dataSync(),
      );
    expect(await run(7)).toEqual(await run(7));
    expect(await run(7)).not.toEqual(await run(8));
  });
  it("over IG on BasicModel2/3 keeps completeness (test_integrated_gradients_basic, smoothgrad, 20 samples, stdevs 0.002)", async () => {
    for (const model of [basicModel2(), basicModel3()]) {
      const b = rows([[0, 0]]);
      const res = await noiseTunnel(
        async (noisy) => {
          const r = await integratedGradients(model, noisy, tf.broadcastTo(b, noisy.shape) as tf.Tensor4D, 0, { nSteps: 50 });
          return { attributions: r.attributions, delta: r.delta };
        },
        rows([[3, 1]]),
        { ntType: "smoothgrad", ntSamples: 20, stdevs: 0.002, seed: 1 },
      );
      const attrSum = res.attributions.sum().dataSync()[0];
      expect(Math.abs(attrSum - 1)).toBeLessThanOrEqual(0.05); // F(x) − F(0) = 1
      expect(res.delta!.length).toBe(20);
    }
  });
});

describe("GradientShap (tests/attr/test_gradient_shap.py)", () => {
  // BasicLinearModel's weights are torch's random init in Captum; any fixed weights test the same properties.
  const w = [0.3, -0.2, 0.1, 0.25, -0.35, 0.05, 0.15];
  const net = basicLinearModel(w, 0.1);
  it("test_basic_multi_input: deltas ≈ 0 (< 0.0006), attributions match IG (0.005)", async () => {
    const inputs = rows(Array.from({ length: 10 }, () => new Array(7).fill(1)));
    const baselines = rows(Array.from({ length: 20 }, () => new Array(7).fill(0)));
    const { attributions, delta } = await gradientShap(net, inputs, baselines, 0, { nSamples: 50, seed: 0 });
    expect(attributions.shape).toEqual(inputs.shape);
    expect(delta.length).toBe(10 * 50);
    for (let i = 0; i < 10; i++) {
      const mean = delta.slice(i * 50, (i + 1) * 50).reduce((a, b) => a + b, 0) / 50;
      expect(Math.abs(mean)).toBeLessThan(0.0006);
    }
    const ig = await integratedGradients(net, inputs, rows(Array.from({ length: 10 }, () => new Array(7).fill(0))), 0);
    expectClose(attributions.dataSync(), Array.from(ig.attributions.dataSync()), 0.005);
  });
  it("test_basic_relu_multi_input: BasicModel2, 30000 samples, close to IG", async () => {
    const { attributions, delta } = await gradientShap(basicModel2(), rows([[3, 1]]), rows([[0, 0]]), 0, { nSamples: 30000, seed: 0, batchSize: 4096 });
    const ig = await integratedGradients(basicModel2(), rows([[3, 1]]), rows([[0, 0]]), 0);
    // Captum asserts 0.005 with torch's seed 0; each draw here is a Bernoulli outcome
    // (x1's gradient is 1 iff α > ½), so the tolerance is set at 3 standard errors
    // of the 30000-draw mean: 3 · 3 · √(0.25 / 30000) ≈ 0.026.
    expectClose(attributions.dataSync(), Array.from(ig.attributions.dataSync()), 0.026);
    const meanDelta = delta.reduce((a, b) => a + b, 0) / delta.length;
    expect(Math.abs(meanDelta)).toBeLessThan(3 * Math.sqrt(1 / 30000));
  });
});

describe("Lime (tests/attr/test_lime.py: cosine kernel width 10, Lasso alpha 1.0, delta 1.0 max)", () => {
  const net = basicModelMultiLayer();
  const opts = { distanceMode: "cosine" as const, kernelWidth: 10, alpha: 1.0, seed: 0 };
  it("test_simple_lime: 500 samples", async () => {
    for (const per of [1, 2, 3]) {
      const r = await lime(net, rows([[20, 50, 30]]), 0, { ...opts, featureMask: elementMask(1, 1, 3), nSamples: 500, perturbationsPerEval: per });
      expectClose(r.attributions.dataSync(), [73.3716, 193.3349, 113.3349], 1.0);
    }
  });
  it("test_simple_lime_with_mask: 500 samples", async () => {
    const r = await lime(net, rows([[20, 50, 30]]), 0, { ...opts, featureMask: maskFrom([0, 0, 1], 1, 1, 3), nSamples: 500 });
    expectClose(r.attributions.dataSync(), [271.0, 271.0, 111.0], 1.0);
    expectClose(r.coefficients, [271.0, 111.0], 1.0);
  });
  it("test_simple_lime_with_baselines: baseline 4, 100 samples", async () => {
    const r = await lime(net, rows([[20, 50, 30]]), 0, { ...opts, featureMask: maskFrom([0, 0, 1], 1, 1, 3), baselines: 4, nSamples: 100 });
    expectClose(r.attributions.dataSync(), [244.0, 244.0, 100.0], 1.0);
  });
  it("test_simple_batch_lime second row: 800 samples", async () => {
    const r = await lime(net, rows([[10, 14, 4]]), 0, { ...opts, featureMask: elementMask(1, 1, 3), nSamples: 800 });
    expectClose(r.attributions.dataSync(), [32.11, 48.0, 11.0], 1.0);
  });
});

describe("KernelShap (tests/attr/test_kernel_shap.py, delta 1.0 max)", () => {
  const net = basicModelMultiLayer();
  it("test_linear_kernel_shap: baseline [10, 20, 10]", async () => {
    const r = await kernelShap(net, rows([[20, 50, 30]]), 0, { featureMask: elementMask(1, 1, 3), baselines: rows([[10, 20, 10]]), nSamples: 500 });
    expectClose(r.attributions.dataSync(), [40, 120, 80], 1.0);
  });
  it("test_simple_kernel_shap: 500 samples", async () => {
    for (const per of [1, 2, 3]) {
      const r = await kernelShap(net, rows([[20, 50, 30]]), 0, { featureMask: elementMask(1, 1, 3), nSamples: 500, perturbationsPerEval: per });
      expectClose(r.attributions.dataSync(), [76.66666, 196.66666, 116.66666], 1.0);
    }
  });
  it("test_simple_kernel_shap_with_mask and with_baselines: 100 samples", async () => {
    const masked = await kernelShap(net, rows([[20, 50, 30]]), 0, { featureMask: maskFrom([0, 0, 1], 1, 1, 3), nSamples: 100 });
    expectClose(masked.attributions.dataSync(), [275, 275, 115], 1.0);
    expectClose(masked.coefficients, [275, 115], 1.0);
    const based = await kernelShap(net, rows([[20, 50, 30]]), 0, { featureMask: maskFrom([0, 0, 1], 1, 1, 3), baselines: 4, nSamples: 100 });
    expectClose(based.attributions.dataSync(), [248, 248, 104], 1.0);
  });
  it("test_simple_batch_kernel_shap first row: 20000 samples", async () => {
    const r = await kernelShap(net, rows([[2, 10, 3]]), 0, { featureMask: elementMask(1, 1, 3), nSamples: 20000, perturbationsPerEval: 512 });
    expectClose(r.attributions.dataSync(), [7.0, 32.5, 10.5], 1.0);
  });
});

describe("interpretable models", () => {
  it("weighted Lasso follows sklearn's objective: α shrinks an orthogonal design by α / var", async () => {
    // Balanced ±1 design, y = 3 z1 − 2 z2 + 1: sklearn gives coef = sign·max(|β|·var − α, 0)/var.
    const X = [
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ];
    const y = X.map(([a, b]) => 3 * a - 2 * b + 1);
    const fit = lasso(X, y, [1, 1, 1, 1], 0.25);
    expectClose(fit.coef, [2, -1], 1e-9); // var = 0.25, shrink = α / var = 1
    // Weights scale-free: multiplying all weights leaves the fit unchanged.
    expectClose(lasso(X, y, [5, 5, 5, 5], 0.25).coef, [2, -1], 1e-9);
  });
  it("weighted linear regression recovers exact coefficients and intercept", async () => {
    const X = [
      [0, 0, 1],
      [1, 0, 0],
      [0, 1, 1],
      [1, 1, 0],
      [1, 1, 1],
    ];
    const y = X.map(([a, b, c]) => 2 * a - b + 0.5 * c + 3);
    const fit = linearRegression(X, y, [1, 2, 3, 4, 5]);
    expectClose(fit.coef, [2, -1, 0.5], 1e-6);
    expect(Math.abs(fit.intercept - 3)).toBeLessThan(1e-6);
  });
});
