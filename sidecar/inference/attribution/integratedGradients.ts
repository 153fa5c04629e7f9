// IntegratedGradients (Sundararajan et al. 2017), as captum.attr.IntegratedGradients:
//   attr = (x − x') ⊙ Σ_k w_k · ∂F/∂x (x' + α_k (x − x'))
// with (α_k, w_k) from the chosen approximation rule (gausslegendre by default,
// n_steps 50), the path points evaluated internal_batch_size at a time, and the
// convergence delta Σ attr − (F(x) − F(x')) per example.
import * as tf from "@tensorflow/tfjs";
import type { Net, ReluMode } from "../net.ts";
import { APPROXIMATION_METHODS, approximationParameters, type ApproximationMethod } from "./approximation.ts";
import { inputGradients, targetOutputsOf, type Targets } from "./gradients.ts";
import { constantBaseline } from "./common.ts";
import { BASELINE_VALUE, GRADIENT, num, said, str, type AttributionSpec } from "./spec.ts";
import { AttributionParamError, type ParamSpec } from "./types.ts";

export interface IntegratedGradientsOptions {
  nSteps?: number;
  method?: ApproximationMethod;
  /** Path points per backward pass (Captum's internal_batch_size); all at once by default. */
  internalBatchSize?: number;
  relu?: ReluMode;
}

export interface IntegratedGradientsResult {
  attributions: tf.Tensor4D;
  /** Σ attr_i − (F(x_i) − F(x'_i)) for each example i. */
  delta: Float32Array;
}

export async function integratedGradients(
  net: Net,
  inputs: tf.Tensor4D,
  baselines: tf.Tensor4D,
  target: Targets,
  opts: IntegratedGradientsOptions = {},
): Promise<IntegratedGradientsResult> {
  const nSteps = opts.nSteps ?? 50;
  const { stepSizes, alphas } = approximationParameters(opts.method ?? "gausslegendre", nSteps);
  const n = inputs.shape[0];
  const [, h, w, c] = inputs.shape;
  const base = baselines.shape[0] === n ? baselines : (tf.broadcastTo(baselines, inputs.shape) as tf.Tensor4D);
  // Path points in Captum's order: all examples at α_0, then all at α_1, …
  const diff = tf.sub(inputs, base) as tf.Tensor4D;
  const scaled = tf.tidy(() => {
    const a = tf.tensor1d(alphas).reshape([nSteps, 1, 1, 1, 1]);
    return tf.add(base.reshape([1, n, h, w, c]), tf.mul(a, diff.reshape([1, n, h, w, c]))).reshape([nSteps * n, h, w, c]) as tf.Tensor4D;
  });
  const stepTargets = typeof target === "number" ? target : Array.from({ length: nSteps * n }, (_, i) => target[i % n]);
  const grads = await inputGradients(net, scaled, stepTargets, {
    relu: opts.relu,
    batchSize: opts.internalBatchSize ?? nSteps * n,
  });
  scaled.dispose();
  const attributions = tf.tidy(() => {
    const weighted = tf.mul(grads.reshape([nSteps, n, h, w, c]), tf.tensor1d(stepSizes).reshape([nSteps, 1, 1, 1, 1]));
    return tf.mul(tf.sum(weighted, 0), diff) as tf.Tensor4D;
  });
  grads.dispose();
  diff.dispose();

  const ends = tf.concat([inputs, base], 0) as tf.Tensor4D;
  const endTargets = typeof target === "number" ? target : [...Array.from(target), ...Array.from(target)];
  const f = await targetOutputsOf(net, ends, endTargets);
  ends.dispose();
  if (base !== baselines) base.dispose();
  const sums = tf.tidy(() => tf.sum(attributions.reshape([n, -1]), 1).dataSync());
  const delta = new Float32Array(n);
  for (let i = 0; i < n; i++) delta[i] = sums[i] - (f[i] - f[n + i]);
  return { attributions, delta };
}

// Its parameters, shared with the noise-tunnel presets (noiseTunnel.ts).
export const N_STEPS: ParamSpec = { name: "n_steps", type: "int", default: 50, min: 1, max: 1000, description: "integration steps" };
export const METHOD: ParamSpec = {
  name: "method",
  type: "choice",
  default: "gausslegendre",
  choices: [...APPROXIMATION_METHODS],
  description: "integral approximation rule",
};
export const INTERNAL_BATCH: ParamSpec = {
  name: "internal_batch_size",
  type: "int",
  default: 50,
  min: 1,
  max: 1000,
  description: "path points per backward pass (memory vs speed)",
};

export function checkSteps(name: string, method: string, nSteps: number): void {
  if (method !== "gausslegendre" && nSteps < 2) {
    throw new AttributionParamError(`${name}: the ${method} rule needs n_steps of at least 2 (got ${nSteps})`);
  }
}

/** The registry's entry (index.ts). */
export const integratedGradientsSpec: AttributionSpec = {
  name: "IntegratedGradients",
  description: "Path integral of gradients from a baseline to the input (Sundararajan et al. 2017); reports the convergence delta.",
  params: [N_STEPS, METHOD, INTERNAL_BATCH, BASELINE_VALUE],
  hasBaseline: true,
  compute: async (net, x, t, p) => {
    checkSteps("IntegratedGradients", str(p, "method"), num(p, "n_steps"));
    const baseline = constantBaseline(x, num(p, "baseline_value"));
    const r = await integratedGradients(net, x, baseline, t, {
      nSteps: num(p, "n_steps"),
      method: str(p, "method") as ApproximationMethod,
      internalBatchSize: num(p, "internal_batch_size"),
    });
    return { attribution: r.attributions, delta: r.delta[0], baseline };
  },
  cost: (p) => ({ evaluations: GRADIENT * num(p, "n_steps"), drivers: said(p, "n_steps") }),
};
