// NoiseTunnel (SmoothGrad, Smilkov et al. 2017; VarGrad, Adebayo et al. 2018), as
// captum.attr.NoiseTunnel: the wrapped method is run on nt_samples copies of each
// input with N(0, stdevs²) noise added, and the results are aggregated:
//   smoothgrad:    mean(attr)
//   smoothgrad_sq: mean(attr²)
//   vargrad:       mean(attr²) − mean(attr)²
// Noise comes from a seeded generator so the same seed reproduces the same result.
import * as tf from "@tensorflow/tfjs";
import { repeatRows } from "./common.ts";
import { samplingRng, type SamplingRng } from "../../data/prng.ts";
import type { Net } from "../net.ts";
import type { ApproximationMethod } from "./approximation.ts";
import { constantBaseline } from "./common.ts";
import { deconvolution } from "./deconvolution.ts";
import { guidedBackprop } from "./guidedBackprop.ts";
import { inputXGradient } from "./inputXGradient.ts";
import { INTERNAL_BATCH, METHOD, N_STEPS, checkSteps, integratedGradients } from "./integratedGradients.ts";
import { saliency } from "./saliency.ts";
import { BASELINE_VALUE, GRADIENT, bool, num, said, str, type AttributionSpec, type P } from "./spec.ts";
import { SEED_PARAM, type AttributionResult, type ParamSpec } from "./types.ts";

export const NT_TYPES = ["smoothgrad", "smoothgrad_sq", "vargrad"] as const;
export type NoiseTunnelType = (typeof NT_TYPES)[number];

export interface NoiseTunnelOptions {
  ntType?: NoiseTunnelType;
  /** Captum default 5. */
  ntSamples?: number;
  /** Standard deviation of the Gaussian noise; Captum default 1.0. */
  stdevs?: number;
  /** Noisy copies attributed per call of the wrapped method (Captum's nt_samples_batch_size). */
  ntSamplesBatchSize?: number;
  rng?: SamplingRng;
  seed?: number;
}

/** What the wrapped method returns for a batch of noisy inputs (one attribution per row). */
export interface TunnelledResult {
  attributions: tf.Tensor4D;
  delta?: Float32Array;
}

export interface NoiseTunnelResult {
  attributions: tf.Tensor4D;
  /** Per noisy sample, when the wrapped method reports deltas (ordered example-major). */
  delta?: Float32Array;
}

/** Adds N(0, stdev²) noise to every element, drawn from `rng`. */
export function addNoise(x: tf.Tensor4D, stdev: number, rng: SamplingRng): tf.Tensor4D {
  if (stdev === 0) return tf.clone(x);
  const noise = new Float32Array(x.size);
  for (let i = 0; i < noise.length; i++) noise[i] = rng.normal() * stdev;
  return tf.tidy(() => tf.add(x, tf.tensor(noise, x.shape)) as tf.Tensor4D);
}

export async function noiseTunnel(
  attribute: (noisy: tf.Tensor4D) => TunnelledResult | Promise<TunnelledResult>,
  inputs: tf.Tensor4D,
  opts: NoiseTunnelOptions = {},
): Promise<NoiseTunnelResult> {
  const ntType = opts.ntType ?? "smoothgrad";
  const ntSamples = opts.ntSamples ?? 5;
  const stdevs = opts.stdevs ?? 1.0;
  const rng = opts.rng ?? samplingRng(opts.seed ?? 0);
  if (!NT_TYPES.includes(ntType)) throw new RangeError(`nt_type must be one of ${NT_TYPES.join(", ")}`);
  if (!(ntSamples >= 1)) throw new RangeError("nt_samples must be at least 1");
  const n = inputs.shape[0];
  const [, h, w, c] = inputs.shape;
  const chunk = Math.max(1, Math.min(opts.ntSamplesBatchSize ?? ntSamples, ntSamples));

  let sum = tf.zeros([n, h, w, c]) as tf.Tensor4D;
  let sumSq = tf.zeros([n, h, w, c]) as tf.Tensor4D;
  const deltas: number[][] = Array.from({ length: n }, () => []);
  let haveDelta = false;
  for (let done = 0; done < ntSamples; done += chunk) {
    const k = Math.min(chunk, ntSamples - done);
    const repeated = repeatRows(inputs, k); // [x0 × k, x1 × k, …]
    const noisy = addNoise(repeated, stdevs, rng);
    repeated.dispose();
    const res = await attribute(noisy);
    noisy.dispose();
    const [s, sq] = tf.tidy(() => {
      const a = res.attributions.reshape([n, k, h, w, c]);
      return [tf.add(sum, tf.sum(a, 1)), tf.add(sumSq, tf.sum(tf.square(a), 1))] as tf.Tensor4D[];
    });
    res.attributions.dispose();
    sum.dispose();
    sumSq.dispose();
    sum = s;
    sumSq = sq;
    if (res.delta) {
      haveDelta = true;
      for (let i = 0; i < n; i++) for (let j = 0; j < k; j++) deltas[i].push(res.delta[i * k + j]);
    }
  }
  const attributions = tf.tidy(() => {
    const mean = tf.div(sum, ntSamples);
    const meanSq = tf.div(sumSq, ntSamples);
    if (ntType === "smoothgrad") return mean as tf.Tensor4D;
    if (ntType === "smoothgrad_sq") return meanSq as tf.Tensor4D;
    return tf.sub(meanSq, tf.square(mean)) as tf.Tensor4D;
  });
  sum.dispose();
  sumSq.dispose();
  return { attributions, delta: haveDelta ? Float32Array.from(deltas.flat()) : undefined };
}

// The registry's noise-tunnel entries: the wrapper itself and two presets of it.
const NT_SAMPLES = (def: number): ParamSpec => ({ name: "nt_samples", type: "int", default: def, min: 1, max: 500, description: "noisy copies" });
export const STDEVS = (def: number): ParamSpec => ({
  name: "stdevs",
  type: "float",
  default: def,
  min: 0,
  max: 100,
  description: "standard deviation of the Gaussian noise",
});
const NT_TYPE = (def: NoiseTunnelType): ParamSpec => ({
  name: "nt_type",
  type: "choice",
  default: def,
  choices: [...NT_TYPES],
  description: "aggregation of the noisy attributions",
});

/** Gradient methods that NoiseTunnel can wrap, each attributing a batch of rows. */
const TUNNELABLE: Record<string, (net: Net, x: tf.Tensor4D, target: number, p: P) => Promise<TunnelledResult>> = {
  Saliency: async (net, x, t, p) => ({ attributions: await saliency(net, x, t, { abs: bool(p, "abs") }) }),
  InputXGradient: async (net, x, t) => ({ attributions: await inputXGradient(net, x, t) }),
  GuidedBackprop: async (net, x, t) => ({ attributions: await guidedBackprop(net, x, t) }),
  Deconvolution: async (net, x, t) => ({ attributions: await deconvolution(net, x, t) }),
  IntegratedGradients: async (net, x, t, p) => {
    const baseline = constantBaseline(x, num(p, "baseline_value"));
    const r = await integratedGradients(net, x, baseline, t, {
      nSteps: num(p, "n_steps"),
      method: str(p, "method") as ApproximationMethod,
      internalBatchSize: num(p, "internal_batch_size"),
    });
    baseline.dispose();
    return { attributions: r.attributions, delta: r.delta };
  },
};

async function tunnel(base: string, net: Net, input: tf.Tensor4D, target: number, p: P): Promise<AttributionResult> {
  const res = await noiseTunnel((noisy) => TUNNELABLE[base](net, noisy, target, p), input, {
    ntType: str(p, "nt_type") as NoiseTunnelType,
    ntSamples: num(p, "nt_samples"),
    stdevs: num(p, "stdevs"),
    seed: num(p, "seed"),
    // IG already evaluates n_steps points per copy; one copy at a time bounds memory.
    ntSamplesBatchSize: base === "IntegratedGradients" ? 1 : undefined,
  });
  const result: AttributionResult = { attribution: res.attributions };
  if (res.delta) {
    // One delta per noisy copy; report their mean magnitude.
    let s = 0;
    for (const d of res.delta) s += Math.abs(d);
    result.delta = s / res.delta.length;
  }
  if (base === "IntegratedGradients") result.baseline = constantBaseline(input, num(p, "baseline_value"));
  return result;
}

/** The registry's entry (index.ts). */
export const igWithNoiseTunnelSpec: AttributionSpec = {
  name: "IG_with_noise_tunnel",
  description:
    "Integrated Gradients averaged over noisy copies of the input (NoiseTunnel smoothgrad over IG; Captum's ResNet tutorial uses 10 samples). Delta: mean |delta| over the copies.",
  params: [NT_TYPE("smoothgrad"), NT_SAMPLES(10), STDEVS(1.0), N_STEPS, METHOD, INTERNAL_BATCH, BASELINE_VALUE, SEED_PARAM],
  hasBaseline: true,
  compute: (net, x, t, p) => {
    checkSteps("IG_with_noise_tunnel", str(p, "method"), num(p, "n_steps"));
    return tunnel("IntegratedGradients", net, x, t, p);
  },
  cost: (p) => ({ evaluations: GRADIENT * num(p, "n_steps") * num(p, "nt_samples"), drivers: said(p, "nt_samples", "n_steps") }),
};

/** The registry's entry (index.ts). */
export const smoothGradSpec: AttributionSpec = {
  name: "SmoothGrad",
  description: "Saliency averaged over noisy copies of the input (Smilkov et al. 2017).",
  params: [NT_TYPE("smoothgrad"), NT_SAMPLES(5), STDEVS(1.0), { name: "abs", type: "bool", default: true }, SEED_PARAM],
  hasBaseline: false,
  compute: (net, x, t, p) => tunnel("Saliency", net, x, t, p),
  cost: (p) => ({ evaluations: GRADIENT * num(p, "nt_samples"), drivers: said(p, "nt_samples") }),
};

/** The registry's entry (index.ts). */
export const noiseTunnelSpec: AttributionSpec = {
  name: "NoiseTunnel",
  description: "Any gradient method run on noisy copies of the input and aggregated (smoothgrad, smoothgrad_sq or vargrad).",
  params: [
    { name: "base", type: "choice", default: "Saliency", choices: Object.keys(TUNNELABLE), description: "method to wrap" },
    NT_TYPE("smoothgrad"),
    NT_SAMPLES(5),
    STDEVS(1.0),
    { name: "abs", type: "bool", default: true, description: "Saliency only: |gradient|" },
    N_STEPS,
    METHOD,
    INTERNAL_BATCH,
    BASELINE_VALUE,
    SEED_PARAM,
  ],
  hasBaseline: false,
  compute: (net, x, t, p) => {
    if (str(p, "base") === "IntegratedGradients") checkSteps("NoiseTunnel", str(p, "method"), num(p, "n_steps"));
    return tunnel(str(p, "base"), net, x, t, p);
  },
  cost: (p) => {
    const ig = p.base === "IntegratedGradients";
    return {
      evaluations: GRADIENT * num(p, "nt_samples") * (ig ? num(p, "n_steps") : 1),
      drivers: ig ? said(p, "nt_samples", "n_steps") : said(p, "nt_samples"),
    };
  },
};
