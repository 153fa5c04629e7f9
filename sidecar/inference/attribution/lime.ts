// Lime (Ribeiro et al. 2016), as captum.attr.Lime with its defaults: interpretable
// samples z ~ Bernoulli(0.5) per feature, similarity exp(−d² / (2·width²)) with d the
// cosine distance between the flattened original and perturbed inputs (kernel width
// 1.0), and a Lasso surrogate (alpha 0.01) fitted with those weights; n_samples 50.
import type * as tf from "@tensorflow/tfjs";
import type { Net } from "../net.ts";
import type { FeatureMask } from "./featureMask.ts";
import { limeBase, type LimeBaseResult } from "./limeBase.ts";
import { lasso } from "./linearModel.ts";
import { samplingRng, type SamplingRng } from "../../data/prng.ts";
import { BASELINE_VALUE, PER_EVAL, SUPERPIXEL_SIZE, num, said, superpixelSetup, type AttributionSpec } from "./spec.ts";
import { SEED_PARAM } from "./types.ts";

export interface LimeOptions {
  featureMask: FeatureMask;
  baselines?: number | tf.Tensor4D;
  nSamples?: number;
  perturbationsPerEval?: number;
  /** Lasso regularisation (Captum's SkLearnLasso(alpha=0.01)). */
  alpha?: number;
  distanceMode?: "cosine" | "euclidean";
  kernelWidth?: number;
  seed?: number;
  rng?: SamplingRng;
}

/** Captum's get_exp_kernel_similarity_function(distance_mode, kernel_width). */
export function expKernelSimilarity(distanceMode: "cosine" | "euclidean" = "cosine", kernelWidth = 1.0) {
  return (original: Float32Array, perturbed: Float32Array): number => {
    let d: number;
    if (distanceMode === "cosine") {
      let dot = 0;
      let na = 0;
      let nb = 0;
      for (let i = 0; i < original.length; i++) {
        dot += original[i] * perturbed[i];
        na += original[i] * original[i];
        nb += perturbed[i] * perturbed[i];
      }
      // torch.nn.CosineSimilarity clamps each norm at eps = 1e-8.
      const cos = dot / (Math.max(Math.sqrt(na), 1e-8) * Math.max(Math.sqrt(nb), 1e-8));
      d = 1 - cos;
    } else {
      let s = 0;
      for (let i = 0; i < original.length; i++) s += (original[i] - perturbed[i]) ** 2;
      d = Math.sqrt(s);
    }
    return Math.exp((-1 * d * d) / (2 * kernelWidth * kernelWidth));
  };
}

export async function lime(net: Net, inputs: tf.Tensor4D, target: number, opts: LimeOptions): Promise<LimeBaseResult> {
  const rng = opts.rng ?? samplingRng(opts.seed ?? 0);
  const count = opts.featureMask.count;
  const alpha = opts.alpha ?? 0.01;
  return limeBase(net, inputs, target, {
    featureMask: opts.featureMask,
    baselines: opts.baselines,
    nSamples: opts.nSamples ?? 50,
    perturbationsPerEval: opts.perturbationsPerEval,
    sample: () => {
      const z = new Uint8Array(count);
      for (let j = 0; j < count; j++) z[j] = rng.uniform() < 0.5 ? 1 : 0;
      return z;
    },
    similarity: expKernelSimilarity(opts.distanceMode ?? "cosine", opts.kernelWidth ?? 1.0),
    fit: (X, y, w) => lasso(X, y, w, alpha),
  });
}

/** The registry's entry (index.ts). */
export const limeSpec: AttributionSpec = {
  name: "Lime",
  description:
    "Lasso surrogate fitted to random on/off patterns of square superpixels, weighted by cosine similarity (Ribeiro et al. 2016; Captum's defaults).",
  params: [
    { name: "n_samples", type: "int", default: 50, min: 1, max: 20000 },
    SUPERPIXEL_SIZE,
    { name: "alpha", type: "float", default: 0.01, min: 0, max: 1e6, description: "Lasso regularisation" },
    { name: "kernel_width", type: "float", default: 1.0, min: 1e-6, max: 1e6, description: "width of the exponential similarity kernel" },
    BASELINE_VALUE,
    PER_EVAL,
    SEED_PARAM,
  ],
  hasBaseline: true,
  compute: async (net, x, t, p) => {
    const { baseline, options } = superpixelSetup("Lime", net, x, p);
    const r = await lime(net, x, t, { ...options, alpha: num(p, "alpha"), kernelWidth: num(p, "kernel_width") });
    return { attribution: r.attributions, baseline };
  },
  cost: (p) => ({ evaluations: num(p, "n_samples") + 1, drivers: said(p, "n_samples") }),
};
