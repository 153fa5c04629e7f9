// One image through the MoRF/LeRF procedure (docs/evaluation.md): attribution for the
// image's true class → per-patch importance → removal orders → every masked copy (both
// protocols, every removal fraction) classified in ONE forward batch per image. Fixing
// the batch to one image's copies makes each image's result independent of how images
// are split over workers or how many are evaluated, which is what lets a `--limit`
// re-run reproduce the committed per-image results exactly.
import * as tf from "@tensorflow/tfjs";
import type { AttributionAlgorithm } from "../attribution/index.ts";
import { interpolateMap } from "../attribution/layerGradCam.ts";
import type { Net } from "../net.ts";
import {
  fillerFor,
  maskImage,
  orderPatches,
  patchGrid,
  patchImportance,
  patchPixels,
  positiveMassInside,
  removalCounts,
  type PatchGrid,
  type Protocol,
} from "./patches.ts";

export interface EvaluationSettings {
  patchSize: number;
  /** Per-channel filler in the model's input space (one value serves every channel). */
  filler: number[];
  /** Removal fractions, strictly increasing from 0 to 1. */
  grid: number[];
}

export interface ImageResult {
  /** Position of the image in the task's evaluation split. */
  index: number;
  label: number;
  /** 1 where the masked copy at grid point g is still classified as `label`. */
  morf: number[];
  lerf: number[];
  /** Share of positive attribution inside the object mask; null: no positive mass; undefined: no mask. */
  localisation?: number | null;
}

/** Collapses an attribution tensor to one value per pixel (H × W), upsampling layer maps first. */
export function pixelMap(attribution: tf.Tensor, height: number, width: number): Float32Array {
  return tf.tidy(() => {
    let a = attribution;
    if (a.rank !== 4 || a.shape[0] !== 1) throw new RangeError(`attribution must be [1, h, w, c] (got [${a.shape.join(", ")}])`);
    if (a.shape[1] !== height || a.shape[2] !== width) {
      // A layer-resolution map (LayerGradCam): nearest upsampling, as Captum's
      // LayerAttribution.interpolate default, so each layer cell covers a block of pixels.
      a = interpolateMap(tf.sum(a, 3, true) as tf.Tensor4D, [height, width], "nearest");
    }
    return tf.sum(a, 3).dataSync() as Float32Array;
  });
}

/** Everything about a task's geometry that is the same for all its images. */
export interface Prepared {
  grid: PatchGrid;
  /** Grid over the channel-summed pixel map used for importance. */
  mapGrid: PatchGrid;
  pixels: Int32Array[];
  counts: number[];
  filler: Float32Array;
}

export function prepare(net: Net, settings: EvaluationSettings): Prepared {
  const [h, w, c] = net.inputShape;
  const grid = patchGrid(h, w, c, settings.patchSize);
  return {
    grid,
    mapGrid: patchGrid(h, w, 1, settings.patchSize),
    pixels: patchPixels(grid),
    counts: removalCounts(settings.grid, grid.count),
    filler: fillerFor(settings.filler, c),
  };
}

/** Builds the [2·G, H, W, C] batch (MoRF copies, then LeRF copies) from two removal orders. */
export function maskedBatch(image: Float32Array, orders: Record<Protocol, Int32Array>, prep: Prepared): Float32Array {
  const { grid, counts } = prep;
  const n = grid.height * grid.width * grid.channels;
  const buf = new Float32Array(2 * counts.length * n);
  let row = 0;
  for (const protocol of ["morf", "lerf"] as const) {
    for (const k of counts) {
      maskImage(image, grid, prep.pixels, orders[protocol], k, prep.filler, buf.subarray(row * n, (row + 1) * n));
      row++;
    }
  }
  return buf;
}

/**
 * Top-1 class of every row of an NHWC batch: on onnxruntime where the net is served natively
 * (the "onnxruntime" evaluation backend attaches net.native), else on tfjs. Ties go to the first
 * maximum either way, as PyTorch's and tfjs's argmax do.
 */
export async function predict(net: Net, batch: Float32Array, rows: number): Promise<Int32Array> {
  const [h, w, c] = net.inputShape;
  if (net.native) {
    const logits = await net.native.logits(batch, rows);
    const classes = logits.length / rows;
    const top = new Int32Array(rows);
    for (let r = 0; r < rows; r++) {
      let best = 0;
      for (let k = 1; k < classes; k++) if (logits[r * classes + k] > logits[r * classes + best]) best = k;
      top[r] = best;
    }
    return top;
  }
  return tf.tidy(() => {
    const x = tf.tensor4d(batch, [rows, h, w, c]);
    return tf.argMax(net.forward(x), 1).dataSync() as Int32Array;
  });
}

/** The image's pixel map (H × W, channels summed) from an attribution method for its true class. */
export async function computeMap(
  net: Net,
  algorithm: AttributionAlgorithm,
  params: Record<string, unknown>,
  prep: Prepared,
  image: Float32Array,
  label: number,
): Promise<Float32Array> {
  const { grid } = prep;
  const input = tf.tensor4d(image, [1, grid.height, grid.width, grid.channels]);
  try {
    const res = await algorithm.run(net, input, label, params);
    try {
      return pixelMap(res.attribution, grid.height, grid.width);
    } finally {
      res.attribution.dispose();
      res.baseline?.dispose();
    }
  } finally {
    input.dispose();
  }
}

/**
 * MoRF and LeRF of one image for a given pixel map (H × W): patch importance → removal orders →
 * the masked batch. Whether the map came from a registry method, a method module or a
 * researcher's upload, the same map gives the same outcome.
 */
export async function evaluateMap(
  net: Net,
  prep: Prepared,
  index: number,
  image: Float32Array,
  label: number,
  map: Float32Array,
  mask?: Uint8Array,
): Promise<ImageResult> {
  if (map.length !== prep.mapGrid.height * prep.mapGrid.width) {
    throw new RangeError(`pixel map of image ${index} has ${map.length} values, expected ${prep.mapGrid.height}×${prep.mapGrid.width}`);
  }
  const importance = patchImportance(map, prep.mapGrid);
  const orders = { morf: orderPatches(importance, "morf"), lerf: orderPatches(importance, "lerf") };
  const G = prep.counts.length;
  const preds = await predict(net, maskedBatch(image, orders, prep), 2 * G);
  const hit = (row: number) => (preds[row] === label ? 1 : 0);
  const result: ImageResult = {
    index,
    label,
    morf: Array.from({ length: G }, (_, g) => hit(g)),
    lerf: Array.from({ length: G }, (_, g) => hit(G + g)),
  };
  if (mask) result.localisation = positiveMassInside(map, mask, prep.mapGrid);
  return result;
}

export async function evaluateImage(
  net: Net,
  algorithm: AttributionAlgorithm,
  params: Record<string, unknown>,
  prep: Prepared,
  index: number,
  image: Float32Array,
  label: number,
  mask?: Uint8Array,
): Promise<ImageResult> {
  const map = await computeMap(net, algorithm, params, prep, image, label);
  return evaluateMap(net, prep, index, image, label, map, mask);
}

export interface TaskSummary {
  images: number;
  /** Top-1 accuracy at each grid point. */
  morf: number[];
  lerf: number[];
  /** Mean localisation over images with positive mass; undefined when the task has no masks. */
  localisation?: number | null;
}

/** Accuracy per grid point over the images, and the mean localisation. */
export function summarise(results: ImageResult[], gridLength: number): TaskSummary {
  const n = results.length;
  const acc = (key: Protocol) => Array.from({ length: gridLength }, (_, g) => (n === 0 ? 0 : results.reduce((s, r) => s + r[key][g], 0) / n));
  const summary: TaskSummary = { images: n, morf: acc("morf"), lerf: acc("lerf") };
  const locs = results.filter((r) => r.localisation !== undefined);
  if (locs.length > 0) {
    const vals = locs.map((r) => r.localisation).filter((v): v is number => typeof v === "number");
    summary.localisation = vals.length > 0 ? vals.reduce((a, b) => a + b, 0) / vals.length : null;
  }
  return summary;
}

export interface SplitData {
  height: number;
  width: number;
  channels: number;
  size: number;
  images: Float32Array;
  labels: Int32Array;
  masks?: Uint8Array;
}

export interface Progress {
  done: number;
  total: number;
  /** Seconds left at the rate so far; null before the first image. */
  etaSeconds: number | null;
}

export class EvaluationCancelled extends Error {
  constructor() {
    super("evaluation cancelled");
    this.name = "EvaluationCancelled";
  }
}

/** Where an image's pixel map comes from: a method run on the image, or a map given per image. */
export type MapSource =
  { kind: "method"; algorithm: AttributionAlgorithm; params: Record<string, unknown> } | { kind: "given"; map: (index: number) => Float32Array };

/** One image's outcome and the pixel map it was evaluated with. */
export interface MappedImageResult {
  result: ImageResult;
  map: Float32Array;
}

/** Evaluates the given image indices of a split in this thread, in order, keeping each image's map. */
export async function evaluateIndicesWithMaps(
  net: Net,
  source: MapSource,
  settings: EvaluationSettings,
  split: SplitData,
  indices: readonly number[],
  opts: { signal?: AbortSignal; onImage?: (r: ImageResult) => void } = {},
): Promise<MappedImageResult[]> {
  const prep = prepare(net, settings);
  const [h, w, c] = net.inputShape;
  if (split.height !== h || split.width !== w || split.channels !== c) {
    throw new RangeError(`images are ${split.height}×${split.width}×${split.channels} but ${net.id} expects ${h}×${w}×${c}`);
  }
  const n = h * w * c;
  const out: MappedImageResult[] = [];
  for (const i of indices) {
    if (opts.signal?.aborted) throw new EvaluationCancelled();
    const image = split.images.subarray(i * n, (i + 1) * n);
    const label = split.labels[i];
    const map = source.kind === "method" ? await computeMap(net, source.algorithm, source.params, prep, image, label) : source.map(i);
    const result = await evaluateMap(net, prep, i, image, label, map, split.masks?.subarray(i * h * w, (i + 1) * h * w));
    out.push({ result, map });
    opts.onImage?.(result);
  }
  return out;
}

/** Evaluates the given image indices of a split in this thread, in order. */
export async function evaluateIndices(
  net: Net,
  algorithm: AttributionAlgorithm,
  params: Record<string, unknown>,
  settings: EvaluationSettings,
  split: SplitData,
  indices: readonly number[],
  opts: { signal?: AbortSignal; onImage?: (r: ImageResult) => void } = {},
): Promise<ImageResult[]> {
  const mapped = await evaluateIndicesWithMaps(net, { kind: "method", algorithm, params }, settings, split, indices, opts);
  return mapped.map((m) => m.result);
}
