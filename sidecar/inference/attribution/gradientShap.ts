// GradientShap (Lundberg & Lee 2017), as captum.attr.GradientShap: for each of
// n_samples draws, add N(0, stdevs²) noise to the input, pick a baseline at random from
// the baseline distribution and a point α ~ U(0, 1) on the path between them, and take
// (x̃ − x') ⊙ ∂F/∂x at x' + α (x̃ − x'). The attribution is the mean over draws (Captum
// wraps InputBaselineXGradient in a smoothgrad NoiseTunnel); each draw's convergence
// delta is Σ attr − (F(x̃) − F(x')), whose mean is ≈ 0 in expectation.
import * as tf from "@tensorflow/tfjs";
import type { Net } from "../net.ts";
import { inputGradients, targetOutputsOf, type Targets } from "./gradients.ts";
import { STDEVS, noiseTunnel } from "./noiseTunnel.ts";
import { samplingRng, type SamplingRng } from "../../data/prng.ts";
import { GRADIENT, num, said, str, type AttributionSpec } from "./spec.ts";
import { SEED_PARAM } from "./types.ts";

export interface GradientShapOptions {
  /** Captum default 5. */
  nSamples?: number;
  /** Captum default 0. */
  stdevs?: number;
  seed?: number;
  rng?: SamplingRng;
  batchSize?: number;
}

export interface GradientShapResult {
  attributions: tf.Tensor4D;
  /** One per draw, example-major (Captum's [bsz × n_samples] delta). */
  delta: Float32Array;
}

export async function gradientShap(
  net: Net,
  inputs: tf.Tensor4D,
  baselineDistribution: tf.Tensor4D,
  target: Targets,
  opts: GradientShapOptions = {},
): Promise<GradientShapResult> {
  const nSamples = opts.nSamples ?? 5;
  const rng = opts.rng ?? samplingRng(opts.seed ?? 0);
  const nb = baselineDistribution.shape[0];
  const n = inputs.shape[0];
  const res = await noiseTunnel(
    async (noisy) => {
      const rows = noisy.shape[0]; // n × k, example-major
      const k = rows / n;
      const picks = Array.from({ length: rows }, () => rng.int(nb));
      const alphas = Array.from({ length: rows }, () => rng.uniform());
      const rowTargets = typeof target === "number" ? target : picks.map((_, r) => target[Math.floor(r / k)]);
      const base = tf.gather(baselineDistribution, tf.tensor1d(picks, "int32")) as tf.Tensor4D;
      const diff = tf.sub(noisy, base) as tf.Tensor4D;
      const points = tf.tidy(() => tf.add(base, tf.mul(tf.tensor1d(alphas).reshape([rows, 1, 1, 1]), diff)) as tf.Tensor4D);
      const grads = await inputGradients(net, points, rowTargets, { batchSize: opts.batchSize });
      points.dispose();
      const attributions = tf.mul(diff, grads) as tf.Tensor4D;
      grads.dispose();
      diff.dispose();
      const ends = tf.concat([noisy, base], 0) as tf.Tensor4D;
      const f = await targetOutputsOf(net, ends, typeof rowTargets === "number" ? rowTargets : [...rowTargets, ...rowTargets]);
      ends.dispose();
      base.dispose();
      const sums = tf.tidy(() => tf.sum(attributions.reshape([rows, -1]), 1).dataSync());
      const delta = new Float32Array(rows);
      for (let r = 0; r < rows; r++) delta[r] = sums[r] - (f[r] - f[rows + r]);
      return { attributions, delta };
    },
    inputs,
    { ntType: "smoothgrad", ntSamples: nSamples, stdevs: opts.stdevs ?? 0, rng },
  );
  return { attributions: res.attributions, delta: res.delta! };
}

/** The registry's entry (index.ts). */
export const gradientShapSpec: AttributionSpec = {
  name: "GradientShap",
  description:
    "Expected gradients × (input − baseline) at random points between noisy inputs and baselines drawn from a distribution (Lundberg & Lee 2017). Delta: mean of the per-draw deltas.",
  params: [
    { name: "n_samples", type: "int", default: 5, min: 1, max: 1000, description: "random draws" },
    STDEVS(0),
    {
      name: "baselines",
      type: "choice",
      default: "zero_and_input",
      choices: ["zero_and_input", "zero", "uniform"],
      description: "baseline distribution: {0, x} as in Captum's tutorial, the zero image, or 10 uniform-noise images over the input's range",
    },
    SEED_PARAM,
  ],
  hasBaseline: true,
  compute: async (net, x, t, p) => {
    const kind = str(p, "baselines");
    const seed = num(p, "seed");
    const dist = tf.tidy(() => {
      if (kind === "zero") return tf.zerosLike(x) as tf.Tensor4D;
      if (kind === "zero_and_input") return tf.concat([tf.zerosLike(x), x], 0) as tf.Tensor4D;
      const rng = samplingRng(seed ^ 0x5bd1e995);
      const lo = tf.min(x).dataSync()[0];
      const hi = tf.max(x).dataSync()[0];
      const vals = new Float32Array(10 * x.size).map(() => lo + (hi - lo) * rng.uniform());
      return tf.tensor4d(vals, [10, ...x.shape.slice(1)] as [number, number, number, number]);
    });
    const r = await gradientShap(net, x, dist, t, { nSamples: num(p, "n_samples"), stdevs: num(p, "stdevs"), seed });
    const baseline = tf.mean(dist, 0, true) as tf.Tensor4D;
    dist.dispose();
    let s = 0;
    for (const d of r.delta) s += d;
    return { attribution: r.attributions, delta: s / r.delta.length, baseline };
  },
  cost: (p) => ({ evaluations: GRADIENT * num(p, "n_samples"), drivers: said(p, "n_samples") }),
};
