// NoiseTunnel (SmoothGrad, Smilkov et al. 2017; VarGrad, Adebayo et al. 2018), as
// captum.attr.NoiseTunnel: the wrapped method is run on nt_samples copies of each
// input with N(0, stdevs²) noise added, and the results are aggregated:
//   smoothgrad:    mean(attr)
//   smoothgrad_sq: mean(attr²)
//   vargrad:       mean(attr²) − mean(attr)²
// Noise comes from a seeded generator so the same seed reproduces the same result.
import * as tf from "@tensorflow/tfjs";
import { repeatRows } from "./common.ts";
import { createRng, type Rng } from "./types.ts";

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
  rng?: Rng;
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
export function addNoise(x: tf.Tensor4D, stdev: number, rng: Rng): tf.Tensor4D {
  if (stdev === 0) return tf.clone(x);
  const noise = new Float32Array(x.size);
  for (let i = 0; i < noise.length; i++) noise[i] = rng.normal() * stdev;
  return tf.tidy(() => tf.add(x, tf.tensor(noise, x.shape)) as tf.Tensor4D);
}

export function noiseTunnel(attribute: (noisy: tf.Tensor4D) => TunnelledResult, inputs: tf.Tensor4D, opts: NoiseTunnelOptions = {}): NoiseTunnelResult {
  const ntType = opts.ntType ?? "smoothgrad";
  const ntSamples = opts.ntSamples ?? 5;
  const stdevs = opts.stdevs ?? 1.0;
  const rng = opts.rng ?? createRng(opts.seed ?? 0);
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
    const res = attribute(noisy);
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
