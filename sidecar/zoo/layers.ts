// The building blocks every zoo architecture is written with. An architecture is
// one function of (ops, input); `ops` decides what a layer means:
//  - TrainOps: convolution + batch norm (batch statistics while training, running
//    statistics when evaluating), weights created on first use with a seeded init;
//  - InferOps: convolution + bias, the batch norm folded into the convolution when
//    a checkpoint is written, so a served net is a plain function over a few
//    tf.Variables (what the attribution engine's Net interface wants).
// Both honour the ReLU mode and the layer tap of ForwardOptions.
import * as tf from "@tensorflow/tfjs";
import type { LayerTap, ReluMode } from "../inference/net.ts";
import { Rng } from "../data/prng.ts";
import { relu } from "./relu.ts";
import { conv2dSameTrainable } from "./convGrad.ts";

export interface ConvOptions {
  kernel?: number;
  stride?: number;
  /**
   * Start the batch norm's scale at 0 instead of 1 (training only): a residual branch then begins
   * as the identity, which deep stacks of bottlenecks need to start learning (Goyal et al. 2017,
   * torchvision's zero_init_residual).
   */
  zeroGamma?: boolean;
}

export interface Ops {
  /** Convolution ("same" padding) with its normalisation; no activation. */
  conv(name: string, x: tf.Tensor4D, filters: number, opts?: ConvOptions): tf.Tensor4D;
  dense(name: string, x: tf.Tensor2D, units: number): tf.Tensor2D;
  relu<T extends tf.Tensor>(x: T): T;
  /** Mark a tap-able layer: records its name and lets a LayerTap read or replace it. */
  tap(name: string, x: tf.Tensor4D): tf.Tensor4D;
}

export const BN_EPSILON = 1e-5;
const BN_MOMENTUM = 0.9;

/** Names and tensors of a network's weights, in creation order (the checkpoint order). */
export type WeightMap = Map<string, tf.Variable>;

/** He-normal initial weights N(0, 2 / fanIn) of `shape`, drawn from `rng` (every trained network's convolutions and dense layers). */
export function heNormal(rng: Rng, shape: number[], fanIn: number): tf.Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  const v = new Float32Array(n);
  const std = Math.sqrt(2 / fanIn);
  for (let i = 0; i < n; i++) v[i] = rng.normal() * std;
  return tf.tensor(v, shape);
}

abstract class BaseOps implements Ops {
  readonly tapNames: string[] = [];
  constructor(
    protected reluMode: ReluMode = "normal",
    protected layerTap?: LayerTap,
  ) {}
  abstract conv(name: string, x: tf.Tensor4D, filters: number, opts?: ConvOptions): tf.Tensor4D;
  abstract dense(name: string, x: tf.Tensor2D, units: number): tf.Tensor2D;
  relu<T extends tf.Tensor>(x: T): T {
    return relu(x, this.reluMode);
  }
  tap(name: string, x: tf.Tensor4D): tf.Tensor4D {
    this.tapNames.push(name);
    if (this.layerTap?.layer === name) {
      const replaced = this.layerTap.fn(x);
      if (replaced) return replaced as tf.Tensor4D;
    }
    return x;
  }
}

/**
 * Training-time layers. Weights live in `weights` (trainable) and `stats` (running
 * batch-norm mean/variance); they are created on the first forward pass. Running
 * statistics updates are queued in `pendingStats` and applied by the trainer after
 * the optimizer step, outside the gradient tape.
 */
export class TrainOps extends BaseOps {
  pendingStats: Array<{ variable: tf.Variable; value: tf.Tensor }> = [];
  constructor(
    readonly weights: WeightMap,
    readonly stats: WeightMap,
    private rng: Rng,
    private training: boolean,
    reluMode: ReluMode = "normal",
    layerTap?: LayerTap,
  ) {
    super(reluMode, layerTap);
  }

  private variable(map: WeightMap, name: string, make: () => tf.Tensor, trainable: boolean): tf.Variable {
    let v = map.get(name);
    if (!v) {
      v = tf.tidy(() => tf.variable(make(), trainable));
      map.set(name, v);
    }
    return v;
  }

  conv(name: string, x: tf.Tensor4D, filters: number, opts: ConvOptions = {}): tf.Tensor4D {
    const k = opts.kernel ?? 3;
    const cin = x.shape[3];
    const w = this.variable(this.weights, `${name}/kernel`, () => heNormal(this.rng, [k, k, cin, filters], k * k * cin), true);
    const gamma = this.variable(this.weights, `${name}/gamma`, () => (opts.zeroGamma ? tf.zeros([filters]) : tf.ones([filters])), true);
    const beta = this.variable(this.weights, `${name}/beta`, () => tf.zeros([filters]), true);
    const runMean = this.variable(this.stats, `${name}/mean`, () => tf.zeros([filters]), false);
    const runVar = this.variable(this.stats, `${name}/variance`, () => tf.ones([filters]), false);
    const y = conv2dSameTrainable(x, w as tf.Tensor4D, opts.stride ?? 1);
    if (this.training) {
      const { mean, variance } = tf.moments(y, [0, 1, 2]);
      this.pendingStats.push(
        { variable: runMean, value: tf.keep(tf.add(tf.mul(runMean, BN_MOMENTUM), tf.mul(mean, 1 - BN_MOMENTUM))) },
        { variable: runVar, value: tf.keep(tf.add(tf.mul(runVar, BN_MOMENTUM), tf.mul(variance, 1 - BN_MOMENTUM))) },
      );
      // Written out instead of tf.batchNorm: its gradient broadcasts with Tile, which
      // profiled as the slowest kernel of a wasm training step; these ops reduce with Sum.
      const scale = tf.mul(gamma, tf.rsqrt(tf.add(variance, BN_EPSILON)));
      return tf.add(tf.mul(tf.sub(y, mean), scale), beta) as tf.Tensor4D;
    }
    return tf.batchNorm(y, runMean, runVar, beta, gamma, BN_EPSILON) as tf.Tensor4D;
  }

  dense(name: string, x: tf.Tensor2D, units: number): tf.Tensor2D {
    const cin = x.shape[1];
    const w = this.variable(this.weights, `${name}/kernel`, () => heNormal(this.rng, [cin, units], cin), true);
    const b = this.variable(this.weights, `${name}/bias`, () => tf.zeros([units]), true);
    return tf.add(tf.matMul(x, w), b);
  }
}

/** Inference-time layers over folded weights (`<conv>/kernel`, `<conv>/bias`, `<dense>/kernel`, `<dense>/bias`). */
export class InferOps extends BaseOps {
  constructor(
    private weights: WeightMap,
    reluMode: ReluMode = "normal",
    layerTap?: LayerTap,
  ) {
    super(reluMode, layerTap);
  }
  private get(name: string): tf.Variable {
    const v = this.weights.get(name);
    if (!v) throw new Error(`network weight ${name} is missing from the checkpoint`);
    return v;
  }
  conv(name: string, x: tf.Tensor4D, _filters: number, opts: ConvOptions = {}): tf.Tensor4D {
    // Plain conv2d + add (not tf.fused.conv2d): the fused op's gradient always
    // computes the filter gradient too, which input-gradient methods do not need.
    return tf.add(tf.conv2d(x, this.get(`${name}/kernel`) as tf.Tensor4D, opts.stride ?? 1, "same"), this.get(`${name}/bias`));
  }
  dense(name: string, x: tf.Tensor2D, _units: number): tf.Tensor2D {
    return tf.add(tf.matMul(x, this.get(`${name}/kernel`)), this.get(`${name}/bias`));
  }
}

/**
 * Fold every conv's batch norm into its kernel and bias:
 *   y = γ (conv(x, W) − μ) / √(σ² + ε) + β = conv(x, W·s) + (β − μ·s),  s = γ / √(σ² + ε).
 * Returns plain Float32Arrays in a stable order for the checkpoint writer.
 */
export function foldBatchNorm(weights: WeightMap, stats: WeightMap): Array<{ name: string; shape: number[]; data: Float32Array }> {
  const out: Array<{ name: string; shape: number[]; data: Float32Array }> = [];
  for (const [name, v] of weights) {
    if (name.endsWith("/gamma") || name.endsWith("/beta")) continue;
    if (name.endsWith("/kernel") && stats.has(name.replace(/\/kernel$/, "/mean"))) {
      const base = name.replace(/\/kernel$/, "");
      const gamma = weights.get(`${base}/gamma`)!.dataSync();
      const beta = weights.get(`${base}/beta`)!.dataSync();
      const mean = stats.get(`${base}/mean`)!.dataSync();
      const variance = stats.get(`${base}/variance`)!.dataSync();
      const cout = gamma.length;
      const scale = new Float32Array(cout);
      for (let c = 0; c < cout; c++) scale[c] = gamma[c] / Math.sqrt(variance[c] + BN_EPSILON);
      const kernel = Float32Array.from(v.dataSync());
      // Kernel layout [kh, kw, cin, cout]: output channel is the fastest-varying index.
      for (let i = 0; i < kernel.length; i++) kernel[i] *= scale[i % cout];
      const bias = new Float32Array(cout);
      for (let c = 0; c < cout; c++) bias[c] = beta[c] - mean[c] * scale[c];
      out.push({ name, shape: v.shape, data: kernel }, { name: `${base}/bias`, shape: [cout], data: bias });
    } else {
      out.push({ name, shape: v.shape, data: Float32Array.from(v.dataSync()) });
    }
  }
  return out;
}
