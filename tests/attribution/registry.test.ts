// The public registry: every platform name runs on a small image CNN and returns the
// documented shapes; parameters are validated with actionable errors; input gradients
// wasm and cpu agree on the registry's output.
import { describe, it, expect, beforeAll } from "vitest";
import * as tf from "@tensorflow/tfjs";
import type { Net } from "../../sidecar/inference/net.ts";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { det, tinyCnn } from "./tinyCnn.ts";
import { ALGORITHMS, ALGORITHM_NAMES, AttributionParamError, getAlgorithm } from "../../sidecar/inference/attribution/index.ts";

const PLATFORM_NAMES = [
  "Saliency",
  "InputXGradient",
  "IntegratedGradients",
  "IG_with_noise_tunnel",
  "SmoothGrad",
  "NoiseTunnel",
  "GradientShap",
  "GuidedBackprop",
  "Deconvolution",
  "LayerGradCam",
  "GradCAM",
  "Occlusion",
  "Occlusion_using_larger_sliding_window",
  "FeatureAblation",
  "Lime",
  "KernelShap",
];

let net: Net;
const image = () => det([1, 8, 8, 3], 9).abs() as tf.Tensor4D;

beforeAll(async () => {
  await initBackend("wasm");
  await tf.setBackend("cpu");
  net = tinyCnn();
});

describe("ALGORITHMS registry", () => {
  it("lists exactly the platform's names, each with a description and parameter specs", () => {
    expect([...ALGORITHM_NAMES].sort()).toEqual([...PLATFORM_NAMES].sort());
    for (const name of PLATFORM_NAMES) {
      const a = ALGORITHMS[name];
      expect(a.name).toBe(name);
      expect(a.description.length).toBeGreaterThan(20);
      for (const p of a.params) expect(["int", "float", "bool", "choice", "string"]).toContain(p.type);
    }
    expect(ALGORITHMS.IntegratedGradients.params.find((p) => p.name === "n_steps")!.default).toBe(50);
    expect(ALGORITHMS.IntegratedGradients.params.find((p) => p.name === "method")!.default).toBe("gausslegendre");
    expect(ALGORITHMS.Saliency.params.find((p) => p.name === "abs")!.default).toBe(true);
    expect(ALGORITHMS.GradientShap.params.find((p) => p.name === "n_samples")!.default).toBe(5);
    expect(ALGORITHMS.GradientShap.params.find((p) => p.name === "stdevs")!.default).toBe(0);
    expect(ALGORITHMS.Lime.params.find((p) => p.name === "n_samples")!.default).toBe(50);
    expect(ALGORITHMS.KernelShap.params.find((p) => p.name === "n_samples")!.default).toBe(25);
  });

  it.each(PLATFORM_NAMES)("%s runs with its defaults and returns the documented shapes", async (name) => {
    const x = image();
    const fast: Record<string, Record<string, unknown>> = {
      IntegratedGradients: { n_steps: 20 },
      IG_with_noise_tunnel: { n_steps: 10, nt_samples: 2, stdevs: 0.1 },
      NoiseTunnel: { nt_samples: 3, stdevs: 0.1 },
      SmoothGrad: { stdevs: 0.1 },
      // Captum's Lasso alpha 0.01 zeroes every coefficient of this tiny net's small
      // logit changes; an unregularised surrogate shows the sampling path works.
      Lime: { alpha: 0 },
    };
    const res = await getAlgorithm(name).run(net, x, 1, fast[name] ?? {});
    const expectedShape = name === "LayerGradCam" ? [1, 4, 4, 1] : [1, 8, 8, 3];
    expect(res.attribution.shape).toEqual(expectedShape);
    const values = Array.from(res.attribution.dataSync() as Float32Array);
    expect(values.every(Number.isFinite)).toBe(true);
    expect(values.some((v) => v !== 0)).toBe(true);
    expect(res.baseline !== undefined).toBe(ALGORITHMS[name].hasBaseline);
    if (res.baseline) expect(res.baseline.shape).toEqual([1, 8, 8, 3]);
    if (name === "IntegratedGradients") {
      // Completeness on a real conv net: Σ attr ≈ F(x) − F(0).
      expect(Math.abs(res.delta!)).toBeLessThan(0.01 * Math.max(1, Math.abs(values.reduce((a, b) => a + b, 0))));
    }
    tf.dispose([x, res.attribution, res.baseline ?? []]);
  });

  it("rejects bad parameters with messages a person can act on", async () => {
    const x = image();
    const ig = getAlgorithm("IntegratedGradients");
    await expect(ig.run(net, x, 0, { n_steps: 0 })).rejects.toThrow(AttributionParamError);
    await expect(ig.run(net, x, 0, { n_steps: 0 })).rejects.toThrow(/n_steps" must be between 1 and 1000 \(got 0\)/);
    await expect(ig.run(net, x, 0, { n_steps: 2.5 })).rejects.toThrow(/whole number/);
    await expect(ig.run(net, x, 0, { method: "simpson" })).rejects.toThrow(/must be one of riemann_left/);
    await expect(ig.run(net, x, 0, { method: "riemann_left", n_steps: 1 })).rejects.toThrow(/at least 2/);
    await expect(ig.run(net, x, 0, { steps: 5 })).rejects.toThrow(/no parameter "steps"/);
    await expect(ig.run(net, x, 3, {})).rejects.toThrow(/target must be a class index from 0 to 2/);
    await expect(getAlgorithm("Occlusion").run(net, x, 0, { window: 9 })).rejects.toThrow(/window must be at most 8/);
    await expect(getAlgorithm("GradCAM").run(net, x, 0, { layer: "fc9" })).rejects.toThrow(/layer must be one of conv1, conv2/);
    await expect(getAlgorithm("Saliency").run(net, tf.zeros([1, 4, 4, 3]) as tf.Tensor4D, 0, {})).rejects.toThrow(/expected one image of 8×8×3/);
    expect(() => getAlgorithm("Gradcam")).toThrow(/unknown attribution method "Gradcam"/);
    x.dispose();
  });

  it("sampling methods are reproducible from their seed", async () => {
    const x = image();
    for (const name of ["Lime", "KernelShap", "SmoothGrad", "GradientShap"]) {
      const a = await getAlgorithm(name).run(net, x, 2, { seed: 3 });
      const b = await getAlgorithm(name).run(net, x, 2, { seed: 3 });
      expect(Array.from(a.attribution.dataSync())).toEqual(Array.from(b.attribution.dataSync()));
    }
    x.dispose();
  });
});

describe("wasm smoke parity of the registry", () => {
  it.each(["Saliency", "IntegratedGradients", "GuidedBackprop", "GradCAM", "Occlusion", "KernelShap"])(
    "%s gives the same attribution on wasm as on cpu",
    async (name) => {
      const params = name === "IntegratedGradients" ? { n_steps: 16 } : {};
      const run = async (backend: string) => {
        await tf.setBackend(backend);
        const x = image();
        const r = await getAlgorithm(name).run(net, x, 1, params);
        const v = Array.from(r.attribution.dataSync());
        tf.dispose([x, r.attribution, r.baseline ?? []]);
        return v;
      };
      const cpu = await run("cpu");
      const wasm = await run("wasm");
      await tf.setBackend("cpu");
      const scale = Math.max(1e-6, ...cpu.map(Math.abs));
      for (let i = 0; i < cpu.length; i++) expect(Math.abs(cpu[i] - wasm[i]) / scale).toBeLessThan(1e-3);
    },
  );
});

describe("FeatureAblation's default mask (auto)", () => {
  // A linear score f(x) = Σ w·x: ablating a feature to the baseline 0 drops f by Σ w·x over the
  // feature, and each element of the feature gets that drop, so the answer is known by hand.
  function linearNet(h: number, w: number, weights: Float32Array): Net {
    return {
      id: `linear-${h}`,
      inputShape: [h, w, 1],
      classNames: ["score", "other"],
      layers: [],
      forward: (x) =>
        tf.tidy(
          () =>
            tf.stack(
              [tf.sum(tf.mul(x.reshape([x.shape[0], h * w]), tf.tensor2d(weights, [1, h * w])), 1), tf.zerosLike(tf.sum(x, [1, 2, 3]))],
              1,
            ) as tf.Tensor2D,
        ),
      trainableVariables: () => [],
    };
  }
  const run = async (size: number) => {
    const weights = Float32Array.from({ length: size * size }, (_, i) => ((i * 7) % 5) - 2);
    const pixels = Float32Array.from({ length: size * size }, (_, i) => ((i * 3) % 11) / 10);
    const x = tf.tensor4d(pixels, [1, size, size, 1]);
    const { attribution } = await getAlgorithm("FeatureAblation").run(linearNet(size, size, weights), x, 0, {
      perturbations_per_eval: 1024,
    });
    return { got: attribution.dataSync(), weights, pixels };
  };
  it("is Captum's every scalar on an input of at most 4,096 scalars", async () => {
    const { got, weights, pixels } = await run(40); // 1,600 scalars (the bound itself: tests/unit/cost.test.ts)
    for (let i = 0; i < got.length; i += 37) expect(got[i]).toBeCloseTo(weights[i] * pixels[i], 4);
  });
  it("is a 16 × 16 grid of square cells above that", async () => {
    const size = 80; // 6,400 scalars: cells of 5 × 5 pixels
    const { got, weights, pixels } = await run(size);
    for (const [r, c] of [
      [0, 0],
      [7, 42],
      [79, 79],
      [33, 5],
    ]) {
      const r0 = Math.floor(r / 5) * 5,
        c0 = Math.floor(c / 5) * 5;
      let drop = 0;
      for (let i = r0; i < r0 + 5; i++) for (let j = c0; j < c0 + 5; j++) drop += weights[i * size + j] * pixels[i * size + j];
      expect(got[r * size + c]).toBeCloseTo(drop, 3);
    }
  });
});
