// The sampling loop shared by Lime and KernelShap (Captum's LimeBase with the default
// interpretable representation): draw binary vectors z over the interpretable features,
// build x(z) = z[mask] ⊙ x + (1 − z[mask]) ⊙ baseline, evaluate F(x(z))[target], weight
// each sample by a similarity, and fit a linear model of F on z. Its coefficients are the
// attribution of each feature; returned per input element (return_input_shape=True).
import * as tf from "@tensorflow/tfjs";
import type { Net } from "../net.ts";
import { evaluateInBatches } from "./common.ts";
import type { FeatureMask } from "./featureMask.ts";
import type { LinearFit } from "./linearModel.ts";

export interface LimeBaseOptions {
  featureMask: FeatureMask;
  baselines?: number | tf.Tensor4D;
  nSamples: number;
  perturbationsPerEval?: number;
  /** The k-th interpretable sample (0-based). */
  sample: (k: number) => Uint8Array;
  /** Weight of a sample from the original input, the perturbed input and z. */
  similarity: (original: Float32Array, perturbed: Float32Array, z: Uint8Array) => number;
  fit: (X: Uint8Array[], y: Float32Array, w: Float64Array) => LinearFit;
}

export interface LimeBaseResult {
  attributions: tf.Tensor4D;
  coefficients: Float64Array;
}

export async function limeBase(net: Net, inputs: tf.Tensor4D, target: number, opts: LimeBaseOptions): Promise<LimeBaseResult> {
  const [n, H, W, C] = inputs.shape;
  if (n !== 1) throw new RangeError("Lime/KernelShap attribute one example at a time");
  const size = H * W * C;
  const { ids, count } = opts.featureMask;
  const x = inputs.dataSync() as Float32Array;
  const b = typeof opts.baselines === "object" ? (opts.baselines.dataSync() as Float32Array) : new Float32Array(size).fill(opts.baselines ?? 0);
  const samples: Uint8Array[] = [];
  const weights = new Float64Array(opts.nSamples);
  const perturbed = (z: Uint8Array) => {
    const out = new Float32Array(size);
    for (let e = 0; e < size; e++) out[e] = z[ids[e]] ? x[e] : b[e];
    return out;
  };
  for (let k = 0; k < opts.nSamples; k++) {
    const z = opts.sample(k);
    if (z.length !== count) throw new Error(`interpretable sample has ${z.length} features, expected ${count}`);
    samples.push(z);
    weights[k] = opts.similarity(x, perturbed(z), z);
  }
  const outputs = await evaluateInBatches(
    net,
    opts.nSamples,
    Math.max(1, opts.perturbationsPerEval ?? 1),
    (start, m) => {
      const buf = new Float32Array(m * size);
      for (let i = 0; i < m; i++) buf.set(perturbed(samples[start + i]), i * size);
      return tf.tensor4d(buf, [m, H, W, C]);
    },
    target,
  );
  const { coef } = opts.fit(samples, outputs, weights);
  const attr = new Float32Array(size);
  for (let e = 0; e < size; e++) attr[e] = coef[ids[e]];
  return { attributions: tf.tensor4d(attr, [1, H, W, C]), coefficients: coef };
}
