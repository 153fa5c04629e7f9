// KernelShap (Lundberg & Lee 2017), as captum.attr.KernelShap: Lime with the Shapley
// kernel folded into the sampling. The first two samples are all features on and all
// off (weight 1e6, which pins the surrogate to F(x) and F(baseline)); every later
// sample draws its number of active features k ∈ [1, M−1] with probability
// ∝ (M − 1) / (k (M − k)) and then k features uniformly (Captum thresholds a Gaussian
// vector at its top k), weight 1; the surrogate is weighted linear regression.
// n_samples defaults to 25 as in Captum.
import type * as tf from "@tensorflow/tfjs";
import type { Net } from "../net.ts";
import type { FeatureMask } from "./featureMask.ts";
import { limeBase, type LimeBaseResult } from "./limeBase.ts";
import { linearRegression } from "./linearModel.ts";
import { samplingRng, type SamplingRng } from "../../data/prng.ts";
import { BASELINE_VALUE, PER_EVAL, SUPERPIXEL_SIZE, num, said, superpixelSetup, type AttributionSpec } from "./spec.ts";
import { SEED_PARAM } from "./types.ts";

export const KERNEL_SHAP_INF_WEIGHT = 1000000;

export interface KernelShapOptions {
  featureMask: FeatureMask;
  baselines?: number | tf.Tensor4D;
  nSamples?: number;
  perturbationsPerEval?: number;
  seed?: number;
  rng?: SamplingRng;
}

/** Cumulative distribution of k = 1 … M−1 under the Shapley kernel's size weights. */
function sizeDistribution(m: number): number[] {
  const probs = Array.from({ length: m }, (_, k) => (k === 0 ? 0 : (m - 1) / (k * (m - k))));
  const total = probs.reduce((a, b) => a + b, 0);
  let acc = 0;
  return probs.map((p) => (acc += p / total));
}

export async function kernelShap(net: Net, inputs: tf.Tensor4D, target: number, opts: KernelShapOptions): Promise<LimeBaseResult> {
  const rng = opts.rng ?? samplingRng(opts.seed ?? 0);
  const m = opts.featureMask.count;
  const cdf = m >= 2 ? sizeDistribution(m) : [];
  return limeBase(net, inputs, target, {
    featureMask: opts.featureMask,
    baselines: opts.baselines,
    nSamples: opts.nSamples ?? 25,
    perturbationsPerEval: opts.perturbationsPerEval,
    sample: (k) => {
      if (k === 0) return new Uint8Array(m).fill(1);
      if (k === 1 || m < 2) return new Uint8Array(m).fill(k % 2 === 0 ? 1 : 0);
      const u = rng.uniform();
      let size = cdf.findIndex((c) => u < c);
      if (size < 1) size = m - 1;
      // A uniformly random subset of `size` features: partial Fisher–Yates.
      const order = Array.from({ length: m }, (_, i) => i);
      for (let i = 0; i < size; i++) {
        const j = i + rng.int(m - i);
        [order[i], order[j]] = [order[j], order[i]];
      }
      const z = new Uint8Array(m);
      for (let i = 0; i < size; i++) z[order[i]] = 1;
      return z;
    },
    similarity: (_o, _p, z) => {
      let on = 0;
      for (const v of z) on += v;
      return on === 0 || on === m ? KERNEL_SHAP_INF_WEIGHT : 1.0;
    },
    fit: (X, y, w) => linearRegression(X, y, w),
  });
}

/** The registry's entry (index.ts). */
export const kernelShapSpec: AttributionSpec = {
  name: "KernelShap",
  description: "Shapley values of square superpixels estimated by Shapley-kernel-weighted linear regression (Lundberg & Lee 2017; Captum's defaults).",
  params: [{ name: "n_samples", type: "int", default: 25, min: 2, max: 20000 }, SUPERPIXEL_SIZE, BASELINE_VALUE, PER_EVAL, SEED_PARAM],
  hasBaseline: true,
  compute: async (net, x, t, p) => {
    const { baseline, options } = superpixelSetup("KernelShap", net, x, p);
    const r = await kernelShap(net, x, t, options);
    return { attribution: r.attributions, baseline };
  },
  cost: (p) => ({ evaluations: num(p, "n_samples") + 1, drivers: said(p, "n_samples") }),
};
