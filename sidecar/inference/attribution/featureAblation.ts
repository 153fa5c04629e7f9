// FeatureAblation, as captum.attr.FeatureAblation: every feature of feature_mask (all
// elements sharing an id) is replaced by the baseline together, and F(x) − F(ablated)
// is the attribution of each of its elements. Without a mask every scalar is a feature.
// The registry's default mask, "auto", is Captum's (every scalar) on inputs of at most 4,096
// scalars, the zoo's 28 and 32 px networks, and a 16 × 16 grid of square cells above that: every
// scalar of a 224 px picture is 150,528 forward passes, hours on a CPU (docs/engine.md).
import * as tf from "@tensorflow/tfjs";
import type { Net } from "../net.ts";
import { maskedOutputDrops } from "./common.ts";
import { elementMask, type FeatureMask } from "./featureMask.ts";
import { constantBaseline } from "./common.ts";
import { BASELINE_VALUE, PER_EVAL, maskFor, num, said, str, type AttributionSpec } from "./spec.ts";

export interface FeatureAblationOptions {
  featureMask?: FeatureMask;
  /** A scalar or a tensor of the input's shape; 0 by default. */
  baselines?: number | tf.Tensor4D;
  perturbationsPerEval?: number;
}

/** Feature ablation of one example (inputs [1, H, W, C]) for one target. */
export async function featureAblation(net: Net, inputs: tf.Tensor4D, target: number, opts: FeatureAblationOptions = {}): Promise<tf.Tensor4D> {
  const [n, H, W, C] = inputs.shape;
  if (n !== 1) throw new RangeError("feature ablation attributes one example at a time");
  const mask = opts.featureMask ?? elementMask(H, W, C);
  const size = H * W * C;
  // Captum ablates ids from the mask's minimum to its maximum; absent ids change nothing.
  let minId = Infinity;
  for (const v of mask.ids) minId = Math.min(minId, v);
  const ids = Array.from({ length: mask.count - minId }, (_, i) => minId + i);
  const drops = await maskedOutputDrops(net, inputs, target, opts.baselines, ids.length, opts.perturbationsPerEval ?? 1, (i, rows, offset) => {
    const id = ids[i];
    for (let e = 0; e < size; e++) if (mask.ids[e] === id) rows[offset + e] = 1;
  });
  const byId = new Map<number, number>();
  ids.forEach((id, i) => byId.set(id, drops[i]));
  const attr = new Float32Array(size);
  for (let e = 0; e < size; e++) attr[e] = byId.get(mask.ids[e]) ?? 0;
  return tf.tensor4d(attr, [1, H, W, C]);
}

/** Above this many scalars the "auto" mask is a grid (the comment at the top). */
export const AUTO_ELEMENTS_MAX = 4096;
const AUTO_GRID = 16;

/** What the "auto" mask is for an input: Captum's elements while they are few, else a 16 × 16 grid. */
export function resolvedMask(kind: string, cell: number, [h, w, c]: readonly [number, number, number]): { kind: string; cell: number } {
  if (kind !== "auto") return { kind, cell };
  return h * w * c <= AUTO_ELEMENTS_MAX ? { kind: "elements", cell } : { kind: "grid", cell: Math.ceil(Math.max(h, w) / AUTO_GRID) };
}

/** The registry's entry (index.ts). */
export const featureAblationSpec: AttributionSpec = {
  name: "FeatureAblation",
  description: "Each feature (every scalar, or pixels, or square superpixels) is replaced by the baseline; its attribution is the drop in the class score.",
  params: [
    {
      name: "feature_mask",
      type: "choice",
      default: "auto",
      choices: ["auto", "elements", "pixels", "grid"],
      description: "what one feature is; auto: every scalar up to 4,096 of them (Captum's default), else a 16 × 16 grid",
    },
    { name: "superpixel_size", type: "int", default: 4, min: 1, max: 4096, description: "grid cell size in pixels (feature_mask=grid)" },
    BASELINE_VALUE,
    PER_EVAL,
  ],
  hasBaseline: true,
  compute: async (net, x, t, p) => {
    const baseline = constantBaseline(x, num(p, "baseline_value"));
    const { kind, cell } = resolvedMask(str(p, "feature_mask"), num(p, "superpixel_size"), net.inputShape);
    const attribution = await featureAblation(net, x, t, {
      featureMask: maskFor("FeatureAblation", net, kind, cell),
      baselines: baseline,
      perturbationsPerEval: num(p, "perturbations_per_eval"),
    });
    return { attribution, baseline };
  },
  cost: (p, [h, w, c]) => {
    const { kind, cell } = resolvedMask(str(p, "feature_mask"), num(p, "superpixel_size"), [h, w, c]);
    const features = kind === "elements" ? h * w * c : kind === "pixels" ? h * w : Math.ceil(h / cell) * Math.ceil(w / cell);
    return { evaluations: features + 1, drivers: kind === "grid" ? said(p, "feature_mask", "superpixel_size") : said(p, "feature_mask") };
  },
};
