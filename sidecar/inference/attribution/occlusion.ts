// Occlusion (Zeiler & Fergus 2014), as captum.attr.Occlusion: a window of
// sliding_window_shapes slides over the input with `strides` (windows at the far edge
// are clipped, as Captum does: ⌈(dim − window)/stride⌉ + 1 positions per axis); each
// window is replaced by the baseline, and F(x) − F(occluded) is credited to every
// element under the window. Elements under several windows get the average.
// Shapes are NHWC [h, w, c] here where Captum's image examples use CHW.
import * as tf from "@tensorflow/tfjs";
import type { Net } from "../net.ts";
import { maskedOutputDrops } from "./common.ts";
import { constantBaseline } from "./common.ts";
import { BASELINE_VALUE, PER_EVAL, num, said, type AttributionSpec } from "./spec.ts";
import { AttributionParamError } from "./types.ts";

export interface OcclusionOptions {
  /** [h, w, c] window. */
  slidingWindowShapes: [number, number, number];
  /** [h, w, c] strides; Captum's default is 1 on every axis. */
  strides?: [number, number, number];
  /** A scalar or a tensor of the input's shape; 0 by default. */
  baselines?: number | tf.Tensor4D;
  perturbationsPerEval?: number;
}

/** Start offsets of the windows along one axis. */
function windowStarts(dim: number, win: number, stride: number): number[] {
  if (win > dim) throw new RangeError(`sliding window ${win} is larger than the input dimension ${dim}`);
  if (stride < 1) throw new RangeError("strides must be at least 1");
  const count = Math.ceil((dim - win) / stride) + 1;
  return Array.from({ length: count }, (_, i) => i * stride);
}

/** Occlusion of one example (inputs [1, H, W, C]) for one target. */
export async function occlusion(net: Net, inputs: tf.Tensor4D, target: number, opts: OcclusionOptions): Promise<tf.Tensor4D> {
  const [n, H, W, C] = inputs.shape;
  if (n !== 1) throw new RangeError("occlusion attributes one example at a time");
  const [wh, ww, wc] = opts.slidingWindowShapes;
  const [sh, sw, sc] = opts.strides ?? [1, 1, 1];
  const hs = windowStarts(H, wh, sh);
  const wsx = windowStarts(W, ww, sw);
  const cs = windowStarts(C, wc, sc);
  const positions: [number, number, number][] = [];
  for (const a of hs) for (const b of wsx) for (const c of cs) positions.push([a, b, c]);
  const size = H * W * C;
  const windowMask = (p: [number, number, number], into: Float32Array, offset: number) => {
    for (let y = p[0]; y < Math.min(H, p[0] + wh); y++)
      for (let x = p[1]; x < Math.min(W, p[1] + ww); x++) for (let ch = p[2]; ch < Math.min(C, p[2] + wc); ch++) into[offset + (y * W + x) * C + ch] = 1;
  };

  const drops = await maskedOutputDrops(net, inputs, target, opts.baselines, positions.length, opts.perturbationsPerEval ?? 1, (i, rows, offset) =>
    windowMask(positions[i], rows, offset),
  );

  const total = new Float64Array(size);
  const weight = new Float64Array(size);
  const one = new Float32Array(size);
  positions.forEach((p, i) => {
    one.fill(0);
    windowMask(p, one, 0);
    const d = drops[i];
    for (let e = 0; e < size; e++) {
      if (one[e]) {
        total[e] += d;
        weight[e] += 1;
      }
    }
  });
  const attr = new Float32Array(size);
  for (let e = 0; e < size; e++) attr[e] = weight[e] > 0 ? total[e] / weight[e] : 0;
  return tf.tensor4d(attr, [1, H, W, C]);
}

/** Captum's tutorial window/stride on 224 px images, scaled to this input's height. */
function scaledWindow(height: number, at224: number): number {
  return Math.max(1, Math.min(height, Math.round((at224 * height) / 224)));
}

/** Window positions along one axis (one when the window does not fit, as occlusion() runs it). */
function windowsOf(extent: number, win: number, stride: number): number {
  return extent >= win ? Math.floor((extent - win) / stride) + 1 : 1;
}

function occlusionPreset(name: string, description: string, window224: number, stride224: number): AttributionSpec {
  return {
    name,
    description,
    params: [
      {
        name: "window",
        type: "int",
        default: null,
        min: 1,
        max: 4096,
        description: `square window side in pixels (all channels); ${window224}/224 of the height by default`,
      },
      { name: "stride", type: "int", default: null, min: 1, max: 4096, description: `stride in pixels; ${stride224}/224 of the height by default` },
      BASELINE_VALUE,
      PER_EVAL,
    ],
    hasBaseline: true,
    compute: async (net, x, t, p) => {
      const [h, w, c] = net.inputShape;
      const win = (p.window as number | null) ?? scaledWindow(h, window224);
      const stride = (p.stride as number | null) ?? scaledWindow(h, stride224);
      if (win > Math.min(h, w)) throw new AttributionParamError(`${name}: window must be at most ${Math.min(h, w)} pixels (got ${win})`);
      const baseline = constantBaseline(x, num(p, "baseline_value"));
      const attribution = await occlusion(net, x, t, {
        slidingWindowShapes: [win, win, c],
        strides: [stride, stride, c],
        baselines: baseline,
        perturbationsPerEval: num(p, "perturbations_per_eval"),
      });
      return { attribution, baseline };
    },
    cost: (p, [h, w]) => {
      const win = (p.window as number | null) ?? scaledWindow(h, window224);
      const stride = (p.stride as number | null) ?? scaledWindow(h, stride224);
      return { evaluations: windowsOf(h, win, stride) * windowsOf(w, win, stride) + 1, drivers: said(p, "window", "stride") };
    },
  };
}

/** The registry's entries (index.ts): Captum's tutorial windows. */
export const occlusionSpec: AttributionSpec = occlusionPreset(
  "Occlusion",
  "A patch slides over the image and is replaced by the baseline; each pixel gets the average drop in the class score. Default window and stride: Captum's tutorial 15 px / 8 px at 224 px, scaled to this input.",
  15,
  8,
);

export const largerWindowOcclusionSpec: AttributionSpec = occlusionPreset(
  "Occlusion_using_larger_sliding_window",
  "Occlusion with the larger window of Captum's tutorial (60 px window, 50 px stride at 224 px, scaled to this input).",
  60,
  50,
);
