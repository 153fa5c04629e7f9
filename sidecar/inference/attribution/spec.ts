// One attribution method as the registry (index.ts) offers it, following Captum's layout
// (attr/_core: one algorithm a file): each algorithm's file exports its spec — its public name,
// its parameters with defaults and bounds, and `compute`, which runs the algorithm for one image
// and one target with the parameters already checked (types.ts resolveParams). This file holds
// what several specs share. docs/adding-an-attribution-method.md says how to add one.
import type * as tf from "@tensorflow/tfjs";
import type { Net } from "../net.ts";
import { constantBaseline } from "./common.ts";
import { elementMask, gridMask, type FeatureMask } from "./featureMask.ts";
import { AttributionParamError, type AttributionResult, type Cost, type InputShape, type ParamSpec, type ParamValue } from "./types.ts";

/** Parameters after resolveParams: every declared name present, defaults filled in. */
export type P = Record<string, ParamValue | null>;
export const num = (p: P, k: string) => p[k] as number;
export const str = (p: P, k: string) => p[k] as string;
export const bool = (p: P, k: string) => p[k] as boolean;

export interface AttributionSpec {
  name: string;
  description: string;
  params: ParamSpec[];
  hasBaseline: boolean;
  compute(net: Net, input: tf.Tensor4D, target: number, p: P): AttributionResult | Promise<AttributionResult>;
  /** Model evaluations of one run (cost.ts bounds them); one gradient when absent. */
  cost?(p: P, shape: InputShape): Cost;
}

/** A gradient costs a forward and a backward pass: two evaluations. */
export const GRADIENT = 2;
/** The cost of the single-pass gradient methods (Saliency, InputXGradient, GuidedBackprop, Grad-CAM, …). */
export const ONE_GRADIENT: Cost = { evaluations: GRADIENT, drivers: [] };
/** The parameters named in a refusal, with their values ("n_steps=50"). */
export const said = (p: P, ...names: string[]) => names.map((k) => `${k}=${p[k]}`);

export const BASELINE_VALUE: ParamSpec = {
  name: "baseline_value",
  type: "float",
  default: 0,
  min: -1e6,
  max: 1e6,
  description: "value of every element of the baseline image (Captum's default baseline is 0)",
};
export const PER_EVAL: ParamSpec = {
  name: "perturbations_per_eval",
  type: "int",
  default: 32,
  min: 1,
  max: 1024,
  description: "perturbed images per forward pass",
};

export function maskFor(name: string, net: Net, kind: string, cell: number): FeatureMask {
  const [h, w, c] = net.inputShape;
  if (kind === "elements") return elementMask(h, w, c);
  if (kind === "pixels") return gridMask(h, w, c, 1);
  if (cell > Math.max(h, w)) throw new AttributionParamError(`${name}: superpixel_size must be at most ${Math.max(h, w)} (got ${cell})`);
  return gridMask(h, w, c, cell);
}

export const SUPERPIXEL_SIZE: ParamSpec = {
  name: "superpixel_size",
  type: "int",
  default: null,
  min: 1,
  max: 4096,
  description: "superpixel side in pixels; a 4×4 grid by default",
};

/**
 * Lime and KernelShap perturb square superpixels (a 4×4 grid unless superpixel_size says
 * otherwise) towards a constant baseline; both also take n_samples, perturbations_per_eval and a
 * seed. Returns the baseline and those options.
 */
export function superpixelSetup(name: string, net: Net, x: tf.Tensor4D, p: P) {
  const cell = (p.superpixel_size as number | null) ?? Math.ceil(net.inputShape[0] / 4);
  const baseline = constantBaseline(x, num(p, "baseline_value"));
  const featureMask: FeatureMask = maskFor(name, net, "grid", cell);
  return {
    baseline,
    options: { featureMask, baselines: baseline, nSamples: num(p, "n_samples"), perturbationsPerEval: num(p, "perturbations_per_eval"), seed: num(p, "seed") },
  };
}
