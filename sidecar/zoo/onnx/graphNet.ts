// The runtime of imported ONNX models (importOnnx.ts writes them): a graph description the
// sidecar runs with tfjs ops, over weights stored in the zoo's checkpoint format
// (checkpoint.ts), served as a Net like any zoo checkpoint (zooNet.ts).
//
// Layout: ONNX values are NCHW; tfjs convolutions are NHWC. Every rank-4 value is held as its
// ONNX tensor transposed by [0, 2, 3, 1] (NHWC); values of any other rank are held as ONNX has
// them. Each op below is written against that rule, so operators that care about axes
// (Concat, Flatten/Reshape, Transpose, Softmax, ReduceMean, Pad, constants broadcast against a
// feature map) convert axes or data, and convolutions run natively. Conv kernels were turned
// into HWIO at import; constants of elementwise ops are kept as ONNX shaped them and laid out
// at run time for the rank of the value they meet (a few tiny transposes per forward pass).
//
// Every ReLU goes through the zoo's relu.ts and every max pool through maxPool.ts, so
// GuidedBackprop/Deconvolution's ReLU rules and PyTorch's max-pool gradient hold on imported
// graphs exactly as on the zoo's own networks; LayerGradCam taps any value listed in `layers`.
import path from "node:path";
import * as tf from "@tensorflow/tfjs";
import type { ForwardOptions } from "../../inference/net.ts";
import { CheckpointError, readCheckpoint, type CheckpointManifest } from "../checkpoint.ts";
import { maxPool, maxPoolPadded, samePool } from "../maxPool.ts";
import { relu } from "../relu.ts";
import type { WeightMap } from "../layers.ts";
import { checkForward, serveChecked, servedFields, type ZooNet } from "../zooNet.ts";
import type { Segmenter } from "../segmenter.ts";

/** An operand of an elementwise op: a graph value or a stored constant (ONNX-shaped weight). */
export type Operand = { value: string } | { weight: string };

/** Explicit pads [top, left, bottom, right], or ONNX's auto_pad SAME_UPPER / SAME_LOWER. */
export type Pads2d = [number, number, number, number] | "same_upper" | "same_lower";

interface OpBase {
  /** The ONNX node's name (or op type and index), for error messages. */
  node: string;
  out: string;
}

export type GraphOp =
  | (OpBase & {
      op: "conv";
      in: string;
      /** HWIO kernel [kh, kw, cin / group, cout] (depthwise: [kh, kw, cin, multiplier]). */
      weight: string;
      bias?: string;
      stride: [number, number];
      dilation: [number, number];
      pads: Pads2d;
      group: number;
    })
  | (OpBase & { op: "batchNorm"; in: string; scale: string; shift: string })
  | (OpBase & { op: "relu"; in: string })
  | (OpBase & { op: "maxPool"; in: string; kernel: number; stride: number; pads: Pads2d; ceil: boolean })
  | (OpBase & { op: "avgPool"; in: string; kernel: [number, number]; stride: [number, number]; pads: Pads2d; countIncludePad: boolean })
  | (OpBase & { op: "globalAvgPool"; in: string })
  | (OpBase & { op: "dense"; in: string; weight: string; bias?: string })
  | (OpBase & { op: "binary"; kind: "add" | "sub" | "mul" | "div"; a: Operand; b: Operand })
  | (OpBase & { op: "concat"; ins: string[]; axis: number })
  | (OpBase & { op: "reshape"; in: string; shape: number[] })
  | (OpBase & { op: "transpose"; in: string; perm: number[] })
  | (OpBase & { op: "softmax"; in: string; axis: number })
  | (OpBase & { op: "reduceMean"; in: string; axes: number[]; keepDims: boolean })
  | (OpBase & {
      op: "resize";
      in: string;
      mode: "nearest" | "bilinear";
      alignCorners: boolean;
      halfPixel: boolean;
      scales?: [number, number];
      sizes?: [number, number];
    })
  | (OpBase & { op: "pad"; in: string; pads: number[]; value: number; mode: "constant" | "reflect" });

export interface GraphSpec {
  format: "metarank-onnx-graph/1";
  /** The ONNX graph's input value (NCHW there, NHWC here). */
  input: string;
  output: string;
  ops: GraphOp[];
  /** Per-channel normalisation applied to the [0, 1] pixels before the graph (the operator's --mean/--std). */
  normalize: { mean: number[]; std: number[] } | null;
  /** A final Softmax was removed at import: forward returns logits, like every zoo net (the probabilities are their softmax). */
  strippedSoftmax: boolean;
}

/** An imported model's manifest: a checkpoint manifest (arch "onnx") with its graph and origin. */
export interface ImportedManifest extends CheckpointManifest {
  graph: GraphSpec;
  /** A classifier ([N, classes] scores) or a segmenter (per-pixel scores [N, classes, H, W] in ONNX). */
  task: "classification" | "segmentation";
  source: { file: string; sha256: string; bytes: number; producer: string; irVersion: number; opset: number; importedAt: string };
}

/** The operator's folder of imported models (IMPORTED_MODEL_DIR, default var/models from the working directory). */
export function importedModelDir(): string {
  return path.resolve(process.env.IMPORTED_MODEL_DIR ?? "var/models");
}

/** Imported segmenters: a folder of their own, as the zoo's (segmenter.ts), so ListModels never offers one as a classifier. */
export function importedSegmentationDir(): string {
  return path.join(importedModelDir(), "segmentation");
}

export function isImportedManifest(m: CheckpointManifest): m is ImportedManifest {
  return (m as Partial<ImportedManifest>).graph?.format === "metarank-onnx-graph/1";
}

/** ONNX NCHW axis → the held NHWC axis, for rank-4 values. */
const NCHW_TO_NHWC_AXIS = [0, 3, 1, 2];

function toNchw(x: tf.Tensor): tf.Tensor {
  return x.rank === 4 ? tf.transpose(x, [0, 3, 1, 2]) : x;
}
function fromNchw(x: tf.Tensor): tf.Tensor {
  return x.rank === 4 ? tf.transpose(x, [0, 2, 3, 1]) : x;
}

/** An ONNX axis (possibly negative) of a value of rank r, as held. */
function heldAxis(axis: number, rank: number): number {
  const a = axis < 0 ? axis + rank : axis;
  return rank === 4 ? NCHW_TO_NHWC_AXIS[a] : a;
}

/** A constant broadcast (numpy rules) against a value of rank r, in the value's held layout. */
function laidOut(c: tf.Tensor, rank: number): tf.Tensor {
  if (rank !== 4 || c.rank === 0) return c;
  const full = c.rank < 4 ? tf.reshape(c, [...Array(4 - c.rank).fill(1), ...c.shape]) : c;
  return tf.transpose(full, [0, 2, 3, 1]);
}

/** [top, bottom, left, right] padding of a window op on an NHWC input. */
function resolvePads(pads: Pads2d, h: number, w: number, k: [number, number], s: [number, number]): [number, number, number, number] {
  if (pads === "same_upper" || pads === "same_lower") {
    const ph = samePool(h, k[0], s[0]);
    const pw = samePool(w, k[1], s[1]);
    // samePool puts the odd pixel after (SAME_UPPER); SAME_LOWER puts it before.
    return pads === "same_upper" ? [ph.before, ph.after, pw.before, pw.after] : [ph.after, ph.before, pw.after, pw.before];
  }
  return [pads[0], pads[2], pads[1], pads[3]];
}

function isSame(p: [number, number, number, number], h: number, w: number, k: [number, number], s: [number, number]): boolean {
  const ph = samePool(h, k[0], s[0]);
  const pw = samePool(w, k[1], s[1]);
  return p[0] === ph.before && p[1] === ph.after && p[2] === pw.before && p[3] === pw.after;
}

function zeroPad(x: tf.Tensor4D, p: [number, number, number, number]): tf.Tensor4D {
  return tf.pad(x, [
    [0, 0],
    [p[0], p[1]],
    [p[2], p[3]],
    [0, 0],
  ]);
}

export class GraphRunError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GraphRunError";
  }
}

type Weights = Map<string, tf.Tensor>;

function conv(op: Extract<GraphOp, { op: "conv" }>, x: tf.Tensor4D, weights: Weights): tf.Tensor4D {
  const kernel = weights.get(op.weight) as tf.Tensor4D;
  const [kh, kw] = kernel.shape;
  const [, h, w, cin] = x.shape;
  const effK: [number, number] = [(kh - 1) * op.dilation[0] + 1, (kw - 1) * op.dilation[1] + 1];
  const p = resolvePads(op.pads, h, w, effK, op.stride);
  // The zoo's "same" when the pads are tfjs's, none when zero, else the input padded with zeros.
  let padding: "same" | "valid" = "valid";
  let input = x;
  if (p.every((v) => v === 0)) padding = "valid";
  else if (isSame(p, h, w, effK, op.stride)) padding = "same";
  else input = zeroPad(x, p);
  let y: tf.Tensor4D;
  if (op.group === 1) {
    // Plain conv2d + add as InferOps (layers.ts): the fused op's gradient would also compute the filter gradient.
    y = tf.conv2d(input, kernel, op.stride, padding, "NHWC", op.dilation);
  } else if (op.group === cin && kernel.shape[2] === cin) {
    y = tf.depthwiseConv2d(input, kernel, op.stride, padding, "NHWC", op.dilation);
  } else {
    const xs = tf.split(input, op.group, 3);
    const ks = tf.split(kernel, op.group, 3);
    y = tf.concat(
      xs.map((xi, i) => tf.conv2d(xi as tf.Tensor4D, ks[i] as tf.Tensor4D, op.stride, padding, "NHWC", op.dilation)),
      3,
    );
  }
  return op.bias ? tf.add(y, weights.get(op.bias)!) : y;
}

function maxPoolOp(op: Extract<GraphOp, { op: "maxPool" }>, x: tf.Tensor4D): tf.Tensor4D {
  const [, h, w] = x.shape;
  const k = op.kernel;
  const s = op.stride;
  const p = resolvePads(op.pads, h, w, [k, k], [s, s]);
  if (op.ceil) {
    // ceil_mode: PyTorch's rule: one more window where it still starts inside the input or the left padding.
    const extra = (size: number, before: number, after: number): number => {
      let out = Math.ceil((size + before + after - k) / s) + 1;
      if ((out - 1) * s >= size + before) out--;
      return Math.max(0, (out - 1) * s + k - (size + before + after));
    };
    p[1] += extra(h, p[0], p[1]);
    p[3] += extra(w, p[2], p[3]);
  }
  if (isSame(p, h, w, [k, k], [s, s])) return maxPool(x, k, s);
  return maxPoolPadded(x, k, s, { top: p[0], bottom: p[1], left: p[2], right: p[3] });
}

function avgPoolOp(op: Extract<GraphOp, { op: "avgPool" }>, x: tf.Tensor4D): tf.Tensor4D {
  const [, h, w] = x.shape;
  const p = resolvePads(op.pads, h, w, op.kernel, op.stride);
  if (p.every((v) => v === 0)) return tf.avgPool(x, op.kernel, op.stride, "valid");
  const pooled = tf.avgPool(zeroPad(x, p), op.kernel, op.stride, "valid");
  if (op.countIncludePad) return pooled;
  // count_include_pad = 0 (ONNX's default): divide by the in-image cells of each window, not k².
  const inside = tf.avgPool(zeroPad(tf.ones([1, h, w, 1]), p), op.kernel, op.stride, "valid");
  return tf.div(pooled, inside);
}

function resizeOp(op: Extract<GraphOp, { op: "resize" }>, x: tf.Tensor4D): tf.Tensor4D {
  const [, h, w] = x.shape;
  const size: [number, number] = op.sizes ?? [Math.floor(h * op.scales![0]), Math.floor(w * op.scales![1])];
  return op.mode === "nearest"
    ? tf.image.resizeNearestNeighbor(x, size, op.alignCorners, op.halfPixel)
    : tf.image.resizeBilinear(x, size, op.alignCorners, op.halfPixel);
}

function reshapeOp(op: Extract<GraphOp, { op: "reshape" }>, x: tf.Tensor): tf.Tensor {
  const onnx = toNchw(x);
  // Dimension 0 is the batch whatever the exporter wrote there (1 when traced with one image).
  const shape = op.shape.map((d, i) => (i === 0 ? onnx.shape[0] : d === 0 ? onnx.shape[i] : d));
  return fromNchw(tf.reshape(onnx, shape));
}

/** Runs the graph on an NHWC batch; `observe` sees every value as computed (import checks sizes with it). */
export function runGraph(
  graph: GraphSpec,
  weights: Weights,
  x: tf.Tensor4D,
  opts: ForwardOptions & { observe?: (name: string, value: tf.Tensor, op: GraphOp | null) => void } = {},
): tf.Tensor {
  const values = new Map<string, tf.Tensor>();
  let input: tf.Tensor = x;
  if (graph.normalize) input = tf.div(tf.sub(x, graph.normalize.mean), graph.normalize.std);
  values.set(graph.input, input);
  opts.observe?.(graph.input, input, null);
  const get = (name: string, node: string): tf.Tensor => {
    const v = values.get(name);
    if (!v) throw new GraphRunError(`node ${node}: value ${name} is not computed before it`);
    return v;
  };
  const operand = (o: Operand, node: string): tf.Tensor => ("value" in o ? get(o.value, node) : weights.get(o.weight)!);
  const reluMode = opts.relu ?? "normal";
  for (const op of graph.ops) {
    let y: tf.Tensor;
    switch (op.op) {
      case "conv":
        y = conv(op, get(op.in, op.node) as tf.Tensor4D, weights);
        break;
      case "batchNorm":
        // Scale and shift are [C]: they broadcast over the last (channel) axis of NHWC and of [N, C].
        y = tf.add(tf.mul(get(op.in, op.node), weights.get(op.scale)!), weights.get(op.shift)!);
        break;
      case "relu":
        y = relu(get(op.in, op.node), reluMode);
        break;
      case "maxPool":
        y = maxPoolOp(op, get(op.in, op.node) as tf.Tensor4D);
        break;
      case "avgPool":
        y = avgPoolOp(op, get(op.in, op.node) as tf.Tensor4D);
        break;
      case "globalAvgPool":
        y = tf.mean(get(op.in, op.node), [1, 2], true);
        break;
      case "dense": {
        const v = get(op.in, op.node);
        if (v.rank !== 2) throw new GraphRunError(`node ${op.node}: Gemm/MatMul needs a [N, features] input, got [${v.shape.join(", ")}]`);
        const m = tf.matMul(v as tf.Tensor2D, weights.get(op.weight) as tf.Tensor2D);
        y = op.bias ? tf.add(m, weights.get(op.bias)!) : m;
        break;
      }
      case "binary": {
        let a = operand(op.a, op.node);
        let b = operand(op.b, op.node);
        if ("weight" in op.a) a = laidOut(a, b.rank);
        if ("weight" in op.b) b = laidOut(b, a.rank);
        y = op.kind === "add" ? tf.add(a, b) : op.kind === "sub" ? tf.sub(a, b) : op.kind === "mul" ? tf.mul(a, b) : tf.div(a, b);
        break;
      }
      case "concat": {
        const parts = op.ins.map((n) => get(n, op.node));
        y = tf.concat(parts, heldAxis(op.axis, parts[0].rank));
        break;
      }
      case "reshape":
        y = reshapeOp(op, get(op.in, op.node));
        break;
      case "transpose":
        y = fromNchw(tf.transpose(toNchw(get(op.in, op.node)), op.perm));
        break;
      case "softmax": {
        const v = get(op.in, op.node);
        const axis = heldAxis(op.axis, v.rank);
        if (axis !== v.rank - 1) {
          // tf.softmax works on the last axis: move the axis there and back.
          const perm = [...Array(v.rank).keys()].filter((i) => i !== axis).concat(axis);
          const inverse = perm.map((_, i) => perm.indexOf(i));
          y = tf.transpose(tf.softmax(tf.transpose(v, perm)), inverse);
        } else y = tf.softmax(v);
        break;
      }
      case "reduceMean": {
        const v = get(op.in, op.node);
        y = tf.mean(
          v,
          op.axes.map((a) => heldAxis(a, v.rank)),
          op.keepDims,
        );
        break;
      }
      case "resize":
        y = resizeOp(op, get(op.in, op.node) as tf.Tensor4D);
        break;
      case "pad": {
        const v = get(op.in, op.node);
        const r = v.rank;
        const pairs = [...Array(r).keys()].map((i) => [op.pads[i], op.pads[i + r]] as [number, number]);
        const held = r === 4 ? [pairs[0], pairs[2], pairs[3], pairs[1]] : pairs;
        y = op.mode === "reflect" ? tf.mirrorPad(v, held, "reflect") : tf.pad(v, held, op.value);
        break;
      }
    }
    if (opts.tap?.layer === op.out) {
      const replaced = opts.tap.fn(y);
      if (replaced) y = replaced;
    }
    values.set(op.out, y);
    opts.observe?.(op.out, y, op);
  }
  return get(graph.output, "output");
}

/**
 * What both served forms of an imported graph share (netFromGraph, segmenterFromGraph): the
 * manifest's fields, the weights they own, and a run of the graph on an input of the manifest's
 * shape with a tap on one of its layers; each form checks the output's shape itself.
 */
function servedGraph(manifest: ImportedManifest, weights: WeightMap) {
  return {
    fields: servedFields(manifest, weights),
    run(x: tf.Tensor4D, opts: ForwardOptions): tf.Tensor {
      checkForward(manifest, x, opts);
      return runGraph(manifest.graph, weights, x, opts);
    },
  };
}

/**
 * Loads an imported graph of `task` by id from `dir` and serves it as `serve` makes it;
 * CheckpointError when missing, of another task, or broken. As loadZooNet: one pass on zeros
 * proves the graph and its weights fit before a user's request. `kind` and `noun` name the model
 * in those errors ("classifier"/"model", "segmenter"/"segmenter").
 */
function loadImportedGraph<N extends { forward(x: tf.Tensor4D): tf.Tensor; dispose(): void }>(
  id: string,
  dir: string,
  task: ImportedManifest["task"],
  words: { kind: string; noun: string },
  serve: (manifest: ImportedManifest, weights: WeightMap) => N,
): N {
  const { manifest, arrays } = readCheckpoint(id, dir);
  if (!isImportedManifest(manifest) || manifest.task !== task) throw new CheckpointError(`checkpoint "${id}" in ${dir} is not an imported ONNX ${words.kind}`);
  return serveChecked(
    manifest,
    arrays,
    (weights) => serve(manifest, weights),
    (message) => `imported ${words.noun} "${id}" does not run: ${message}`,
  );
}

/** A served net over an imported graph (the Net interface of sidecar/inference/net.ts). */
export function netFromGraph(manifest: ImportedManifest, weights: WeightMap): ZooNet {
  const graph = servedGraph(manifest, weights);
  const classes = manifest.classNames.length;
  return {
    ...graph.fields,
    forward(x: tf.Tensor4D, opts: ForwardOptions = {}): tf.Tensor2D {
      const y = graph.run(x, opts);
      if (y.rank !== 2 || y.shape[1] !== classes) throw new GraphRunError(`${manifest.id}: the graph gives [${y.shape.join(", ")}], expected [N, ${classes}]`);
      return y as tf.Tensor2D;
    },
  };
}

/** Loads an imported model by id from `dir` onto the current backend; CheckpointError when missing or broken. */
export function loadImportedNet(id: string, dir = importedModelDir()): ZooNet {
  return loadImportedGraph(id, dir, "classification", { kind: "classifier", noun: "model" }, netFromGraph);
}

/**
 * A served segmenter over an imported graph: per-pixel logits [N, H, W, classes] (the ONNX output
 * [N, classes, H, W] held NHWC), what the Segmentation service's class-sum wrapper takes
 * (sidecar/inference/segmentation/classSum.ts PixelClassifier).
 */
export type ImportedSegmenter = Segmenter<ImportedManifest>;

export function segmenterFromGraph(manifest: ImportedManifest, weights: WeightMap): ImportedSegmenter {
  const graph = servedGraph(manifest, weights);
  const [h, w] = manifest.inputShape;
  const classes = manifest.classNames.length;
  return {
    ...graph.fields,
    forward(x: tf.Tensor4D, opts: ForwardOptions = {}): tf.Tensor4D {
      const y = graph.run(x, opts);
      if (y.rank !== 4 || y.shape[1] !== h || y.shape[2] !== w || y.shape[3] !== classes)
        throw new GraphRunError(`${manifest.id}: the graph gives [${y.shape.join(", ")}] (held NHWC), expected [N, ${h}, ${w}, ${classes}]`);
      return y as tf.Tensor4D;
    },
  };
}

/** Loads an imported segmenter by id from `dir` (default IMPORTED_MODEL_DIR/segmentation); CheckpointError when missing or broken. */
export function loadImportedSegmenter(id: string, dir = importedSegmentationDir()): ImportedSegmenter {
  return loadImportedGraph(id, dir, "segmentation", { kind: "segmenter", noun: "segmenter" }, segmenterFromGraph);
}
