// Imports an operator's trained classifier from ONNX into the sidecar's runtime
// (docs/onnx-import.md): the ModelProto is parsed with the exporter's schema (onnx.proto, the
// official field numbers), each node becomes one op of a graph description (graphNet.ts) and its
// float constants become the weights of a zoo-format checkpoint (checkpoint.ts): Conv kernels OIHW
// → HWIO, Gemm/MatMul weights → [in, out], a BatchNormalization right after a Conv folded into it
// exactly as the zoo folds its own (layers.ts foldBatchNorm), any other BatchNormalization kept as
// a scale and shift. The result is written to the operator's folder (IMPORTED_MODEL_DIR) that the
// Inference service lists and serves beside the zoo's checkpoints (sidecar/inference/models.ts).
//
// Written here rather than taken from a library: onnxruntime-web runs ONNX but has no gradients
// (every attribution method but the perturbation ones needs them) and no hook to change ReLU's
// backward or tap a layer; tfjs's own converter reads TensorFlow SavedModels, not ONNX. The
// graph must run on tfjs ops through the zoo's relu.ts/maxPool.ts for Captum's semantics to hold.
//
// Everything is bounded: the file's size, the node count, each weight's and all weights' sizes,
// the input size, the class count, each intermediate value's size (measured by one forward pass
// on zeros at import), and every operator outside the supported list is refused by name.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as tf from "@tensorflow/tfjs";
import type { ArchName } from "../architectures.ts";
import { BN_EPSILON } from "../layers.ts";
import { modelProto, type AttrMsg, type TensorMsg } from "./proto.ts";
import { fromHalf } from "../half.ts";
import { segCheckpointDir } from "../segmenter.ts";
import { writeCheckpoint, readManifest, checkpointDir, type NamedArray, CheckpointError } from "../checkpoint.ts";
import type { WeightMap } from "../layers.ts";
import { runGraph, importedModelDir, type GraphOp, type GraphSpec, type ImportedManifest, type Operand, type Pads2d } from "./graphNet.ts";

/** Largest ONNX file read (ResNet-152 is 230 MB; weights over this do not fit a worker's memory budget). */
export const MAX_ONNX_BYTES = 256 * 1024 * 1024;
export const MAX_NODES = 4096;
/** All float weights together, in values (64 M float32 = 256 MB). */
export const MAX_WEIGHT_VALUES = 64 * 1024 * 1024;
/** One intermediate value for one image, in values (a 64-channel map of 1024 × 1024 is 67 M: too big). */
export const MAX_VALUE_ELEMENTS = 32 * 1024 * 1024;
export const MAX_INPUT_SIDE = 1024;
export const MAX_CLASSES = 100_000;
export const MAX_LABEL_CHARS = 200;
/** Integer constants (shapes, axes, pads) are kept inline in the graph description; they are small. */
const MAX_INT_CONSTANT = 64;

/** The operators this importer converts (ONNX's default domain). */
export const SUPPORTED_OPERATORS = [
  "Conv",
  "BatchNormalization",
  "Relu",
  "MaxPool",
  "AveragePool",
  "GlobalAveragePool",
  "Gemm",
  "MatMul",
  "Add",
  "Sub",
  "Mul",
  "Div",
  "Concat",
  "Flatten",
  "Reshape",
  "Transpose",
  "Softmax",
  "ReduceMean",
  "Upsample",
  "Resize",
  "Pad",
  "Identity",
  "Dropout",
  "Constant",
] as const;

/** The file cannot be imported; the message says why (an unsupported operator names itself and its node). */
export class OnnxImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OnnxImportError";
  }
}

// The decoded messages (toObject with longs as numbers), as far as the importer reads them.
interface NodeMsg {
  name?: string;
  opType?: string;
  domain?: string;
  input?: string[];
  output?: string[];
  attribute?: AttrMsg[];
}
interface DimMsg {
  dimValue?: number;
  dimParam?: string;
}
interface ValueInfoMsg {
  name: string;
  type?: { tensorType?: { elemType?: number; shape?: { dim?: DimMsg[] } } };
}
interface ModelMsg {
  irVersion?: number;
  producerName?: string;
  producerVersion?: string;
  opsetImport?: Array<{ domain?: string; version?: number }>;
  graph?: { node?: NodeMsg[]; initializer?: TensorMsg[]; input?: ValueInfoMsg[]; output?: ValueInfoMsg[] };
}

/** TensorProto.DataType values the importer reads. */
const DT = { FLOAT: 1, INT32: 6, INT64: 7, FLOAT16: 10, DOUBLE: 11 } as const;

interface Constant {
  dims: number[];
  /** Float values (float16/32/64 tensors) or integer values (int32/int64 tensors). */
  data: Float32Array | number[];
  integer: boolean;
}

const LITTLE_ENDIAN = os.endianness() === "LE";
const count = (dims: number[]): number => dims.reduce((a, b) => a * b, 1);

function tensorValues(t: TensorMsg, what: string): Constant {
  const dims = (t.dims ?? []).map(Number);
  if (dims.some((d) => !Number.isInteger(d) || d < 0)) throw new OnnxImportError(`${what} has invalid dimensions [${dims.join(", ")}]`);
  const n = count(dims);
  if (n > MAX_WEIGHT_VALUES) throw new OnnxImportError(`${what} holds ${n} values, more than the ${MAX_WEIGHT_VALUES} allowed`);
  const raw = t.rawData && t.rawData.length > 0 ? t.rawData : null;
  const view = raw ? new DataView(raw.buffer, raw.byteOffset, raw.byteLength) : null;
  const need = (bytes: number) => {
    if (view && view.byteLength !== n * bytes) throw new OnnxImportError(`${what}: raw data holds ${view.byteLength} bytes for ${n} values`);
  };
  const missing = (len: number | undefined) => {
    if ((len ?? 0) !== n)
      throw new OnnxImportError(
        `${what}: ${len ?? 0} stored values for ${n} (data kept outside the .onnx file — external data — cannot be imported; save the model as one file)`,
      );
  };
  switch (t.dataType) {
    case DT.FLOAT: {
      const data = new Float32Array(n);
      if (view) {
        need(4);
        // raw_data is little-endian: on such a host one copy of the bytes is the array.
        if (LITTLE_ENDIAN) data.set(new Float32Array(raw!.buffer.slice(raw!.byteOffset, raw!.byteOffset + raw!.byteLength)));
        else for (let i = 0; i < n; i++) data[i] = view.getFloat32(i * 4, true);
      } else {
        missing(t.floatData?.length);
        data.set(t.floatData!);
      }
      return { dims, data, integer: false };
    }
    case DT.DOUBLE: {
      if (!view) throw new OnnxImportError(`${what}: float64 values must be stored as raw data`);
      need(8);
      const data = new Float32Array(n);
      for (let i = 0; i < n; i++) data[i] = view.getFloat64(i * 8, true);
      return { dims, data, integer: false };
    }
    case DT.FLOAT16: {
      const data = new Float32Array(n);
      if (view) {
        need(2);
        for (let i = 0; i < n; i++) data[i] = fromHalf(view.getUint16(i * 2, true));
      } else {
        missing(t.int32Data?.length);
        for (let i = 0; i < n; i++) data[i] = fromHalf(t.int32Data![i]);
      }
      return { dims, data, integer: false };
    }
    case DT.INT64: {
      if (view) {
        need(8);
        return { dims, data: Array.from({ length: n }, (_, i) => Number(view.getBigInt64(i * 8, true))), integer: true };
      }
      missing(t.int64Data?.length);
      return { dims, data: t.int64Data!.map(Number), integer: true };
    }
    case DT.INT32: {
      if (view) {
        need(4);
        return { dims, data: Array.from({ length: n }, (_, i) => view.getInt32(i * 4, true)), integer: true };
      }
      missing(t.int32Data?.length);
      return { dims, data: t.int32Data!.map(Number), integer: true };
    }
    default:
      throw new OnnxImportError(`${what} has data type ${t.dataType ?? "undefined"}; only float32/16/64 and int32/64 tensors are read`);
  }
}

export interface ImportOptions {
  /** Checkpoint id (lower-case letters, digits, '.', '_', '-'). */
  id: string;
  /** Dataset id the model belongs to (ModelInfo.dataset): "imagenet" for /imagenet. */
  dataset: string;
  classNames: string[];
  /** Input height and width when the graph leaves them symbolic. */
  size?: [number, number];
  /** Per-channel normalisation the model expects of [0, 1] pixels (e.g. ImageNet's mean and std). */
  mean?: number[];
  std?: number[];
  /** The file's name, for the manifest's record of where the model came from. */
  sourceName?: string;
  /** classification (default): scores [N, classes]; segmentation: per-pixel scores [N, classes, H, W] at the input's size. */
  task?: "classification" | "segmentation";
}

export interface ImportedModel {
  manifest: ImportedManifest;
  arrays: NamedArray[];
}

/** Converts ONNX bytes into a manifest and weights (nothing written); throws OnnxImportError. */
export function convertOnnx(bytes: Uint8Array, opts: ImportOptions): ImportedModel {
  if (bytes.length > MAX_ONNX_BYTES) throw new OnnxImportError(`the file is ${bytes.length} bytes; at most ${MAX_ONNX_BYTES} are imported`);
  let model: ModelMsg;
  try {
    const type = modelProto();
    model = type.toObject(type.decode(bytes), { longs: Number, defaults: false }) as ModelMsg;
  } catch (err) {
    throw new OnnxImportError(`not an ONNX model (the protobuf does not parse: ${(err as Error).message})`);
  }
  const graph = model.graph;
  if (!graph || !graph.node?.length) throw new OnnxImportError("not an ONNX model (no graph or an empty graph)");
  const nodes = graph.node;
  if (nodes.length > MAX_NODES) throw new OnnxImportError(`the graph has ${nodes.length} nodes; at most ${MAX_NODES} are imported`);
  const opset = (model.opsetImport ?? []).find((o) => !o.domain || o.domain === "ai.onnx")?.version ?? 0;
  if (opset < 7) throw new OnnxImportError(`opset ${opset || "(none)"} of the default domain; opset 7 or later is imported`);

  // Every unsupported operator at once, each with its node, so the operator sees the whole list.
  const unsupported = nodes
    .map((n, i) => ({ n, i }))
    .filter(({ n }) => (n.domain && n.domain !== "ai.onnx") || !(SUPPORTED_OPERATORS as readonly string[]).includes(n.opType ?? ""));
  if (unsupported.length) {
    const list = unsupported.map(({ n, i }) => `${n.domain && n.domain !== "ai.onnx" ? `${n.domain}.` : ""}${n.opType} (node "${n.name || `#${i}`}")`);
    throw new OnnxImportError(
      `unsupported ONNX operator${unsupported.length > 1 ? "s" : ""}: ${list.slice(0, 20).join(", ")}${list.length > 20 ? `, … ${list.length - 20} more` : ""}. Supported: ${SUPPORTED_OPERATORS.join(", ")}`,
    );
  }

  const constants = new Map<string, Constant>();
  let weightTotal = 0;
  for (const t of graph.initializer ?? []) {
    if (!t.name) throw new OnnxImportError("an initializer has no name");
    const c = tensorValues(t, `initializer ${t.name}`);
    weightTotal += c.data.length;
    if (weightTotal > MAX_WEIGHT_VALUES) throw new OnnxImportError(`the weights hold more than ${MAX_WEIGHT_VALUES} values`);
    constants.set(t.name, c);
  }

  // The one real input: graph inputs that are not initializers (IR < 4 lists weights as inputs too).
  const inputs = (graph.input ?? []).filter((v) => !constants.has(v.name));
  if (inputs.length !== 1)
    throw new OnnxImportError(`the graph has ${inputs.length} inputs (${inputs.map((v) => v.name).join(", ")}); one image input is imported`);
  const input = inputs[0];
  const dims = input.type?.tensorType?.shape?.dim ?? [];
  if (input.type?.tensorType?.elemType !== DT.FLOAT) throw new OnnxImportError(`input ${input.name} is not float32`);
  if (dims.length !== 4) throw new OnnxImportError(`input ${input.name} has rank ${dims.length}; an image input [N, C, H, W] is imported`);
  const fixed = dims.map((d) => (d.dimValue !== undefined && d.dimValue > 0 ? Number(d.dimValue) : null));
  const channels = fixed[1];
  if (channels !== 1 && channels !== 3)
    throw new OnnxImportError(`input ${input.name} has ${channels ?? "a symbolic number of"} channels; 1 (grey) or 3 (RGB) are imported`);
  let [height, width] = [fixed[2], fixed[3]];
  if (opts.size) {
    if ((height !== null && height !== opts.size[0]) || (width !== null && width !== opts.size[1]))
      throw new OnnxImportError(`--size ${opts.size[0]}x${opts.size[1]} contradicts the graph's input ${height ?? "H"}×${width ?? "W"}`);
    [height, width] = opts.size;
  }
  if (height === null || width === null) throw new OnnxImportError(`input ${input.name} has a symbolic height or width; give --size HxW`);
  if (height > MAX_INPUT_SIDE || width > MAX_INPUT_SIDE || height < 1 || width < 1)
    throw new OnnxImportError(`input ${height}×${width} is outside 1…${MAX_INPUT_SIDE} pixels a side`);
  const outputs = graph.output ?? [];
  if (outputs.length !== 1) throw new OnnxImportError(`the graph has ${outputs.length} outputs; one output (the class scores) is imported`);
  const classNames = opts.classNames;
  if (classNames.length < 2 || classNames.length > MAX_CLASSES) throw new OnnxImportError(`${classNames.length} labels; 2 to ${MAX_CLASSES} are imported`);

  let normalize: GraphSpec["normalize"] = null;
  if (opts.mean || opts.std) {
    const mean = opts.mean ?? Array(channels).fill(0);
    const std = opts.std ?? Array(channels).fill(1);
    if (mean.length !== channels || std.length !== channels) throw new OnnxImportError(`--mean and --std need ${channels} values each (one per channel)`);
    if (![...mean, ...std].every(Number.isFinite) || std.some((s) => s <= 0)) throw new OnnxImportError("--mean must be finite and --std positive");
    normalize = { mean, std };
  }

  // How many nodes read each value (a Conv's output read only by a BatchNormalization can absorb it).
  const readers = new Map<string, number>();
  for (const n of nodes) for (const v of n.input ?? []) if (v) readers.set(v, (readers.get(v) ?? 0) + 1);
  const graphOutput = outputs[0].name;
  readers.set(graphOutput, (readers.get(graphOutput) ?? 0) + 1);

  const arrays: NamedArray[] = [];
  const ops: GraphOp[] = [];
  const produced = new Set<string>([input.name]);
  /** Identity/Dropout outputs → the value they pass on. */
  const alias = new Map<string, string>();
  const stored = new Map<string, string>();
  const resolve = (v: string): string => alias.get(v) ?? v;
  const store = (name: string, shape: number[], data: Float32Array): string => {
    let key = name;
    for (let i = 1; arrays.some((a) => a.name === key); i++) key = `${name}_${i}`;
    arrays.push({ name: key, shape, data });
    return key;
  };
  const convByOutput = new Map<string, Extract<GraphOp, { op: "conv" }>>();

  nodes.forEach((n, index) => {
    const op = n.opType!;
    const node = n.name || `${op}#${index}`;
    const fail = (why: string): never => {
      throw new OnnxImportError(`node "${node}" (${op}): ${why}`);
    };
    const attrs = new Map((n.attribute ?? []).map((a) => [a.name, a]));
    const int = (name: string, dflt: number): number => (attrs.has(name) ? Number(attrs.get(name)!.i ?? 0) : dflt);
    const flt = (name: string, dflt: number): number => (attrs.has(name) ? Number(attrs.get(name)!.f ?? 0) : dflt);
    const ints = (name: string): number[] | undefined => attrs.get(name)?.ints?.map(Number);
    const str = (name: string, dflt: string): string => {
      const s = attrs.get(name)?.s;
      return s ? Buffer.from(s).toString("utf8") : dflt;
    };
    const ins = (n.input ?? []).map((v) => (v ? resolve(v) : ""));
    const outs = n.output ?? [];
    if (outs.length < 1 || !outs[0]) return fail("has no output");
    const out = outs[0];
    // Extra outputs (MaxPool's indices, Dropout's mask, BatchNormalization's training statistics) must be unused.
    for (const extra of outs.slice(1)) if (extra && readers.has(extra)) return fail(`its output ${extra} is used; only the first output is imported`);
    const constant = (v: string | undefined, what: string): Constant => {
      const c = v ? constants.get(v) : undefined;
      if (!c) return fail(`its ${what} must be a constant (an initializer), not a computed value`);
      return c;
    };
    const floatConst = (v: string | undefined, what: string): Float32Array => {
      const c = constant(v, what);
      if (c.integer) return fail(`its ${what} must hold floats`);
      return c.data as Float32Array;
    };
    const intConst = (v: string, what: string): number[] => {
      const c = constant(v, what);
      if (c.data.length > MAX_INT_CONSTANT) return fail(`its ${what} has ${c.data.length} values`);
      return Array.from(c.data, Number);
    };
    const value = (v: string | undefined, what = "input"): string => {
      if (!v) return fail(`has no ${what}`);
      if (!produced.has(v)) {
        if (constants.has(v)) return fail(`its ${what} ${v} is a constant; a computed value is expected`);
        fail(`its ${what} ${v} is not computed before it (the graph must be in topological order)`);
      }
      return v;
    };
    const operand = (v: string): Operand => {
      if (produced.has(v)) return { value: v };
      const c = constants.get(v);
      if (!c) return fail(`its input ${v} is neither computed before it nor a constant`);
      const key = stored.get(v) ?? store(v, c.dims, Float32Array.from(c.data));
      stored.set(v, key);
      return { weight: key };
    };
    const pads2d = (): Pads2d => {
      const auto = str("auto_pad", "NOTSET");
      if (auto === "SAME_UPPER") return "same_upper";
      if (auto === "SAME_LOWER") return "same_lower";
      if (auto !== "NOTSET" && auto !== "VALID") return fail(`auto_pad ${auto} is not supported`);
      const p = auto === "VALID" ? [0, 0, 0, 0] : (ints("pads") ?? [0, 0, 0, 0]);
      if (p.length !== 4 || p.some((x) => x < 0)) return fail(`pads [${p.join(", ")}] are not 2-D pads`);
      return [p[0], p[1], p[2], p[3]];
    };
    const pair = (name: string, dflt: number): [number, number] => {
      const v = ints(name) ?? [dflt, dflt];
      if (v.length !== 2 || v.some((x) => !Number.isInteger(x) || x < 1))
        return fail(`${name} [${v.join(", ")}] are not two positive integers (only 2-D operators are imported)`);
      return [v[0], v[1]];
    };
    const emit = (o: GraphOp) => {
      ops.push(o);
      produced.add(o.out);
    };

    switch (op) {
      case "Constant": {
        const t = attrs.get("value")?.t;
        let c: Constant;
        if (t) c = tensorValues(t, `node "${node}" (Constant)`);
        else if (attrs.has("value_float")) c = { dims: [], data: Float32Array.of(flt("value_float", 0)), integer: false };
        else if (attrs.has("value_floats"))
          c = { dims: [attrs.get("value_floats")!.floats!.length], data: Float32Array.from(attrs.get("value_floats")!.floats!), integer: false };
        else if (attrs.has("value_int")) c = { dims: [], data: [int("value_int", 0)], integer: true };
        else if (attrs.has("value_ints")) c = { dims: [ints("value_ints")!.length], data: ints("value_ints")!, integer: true };
        else return fail("only tensor, float(s) and int(s) constants are imported");
        weightTotal += c.data.length;
        if (weightTotal > MAX_WEIGHT_VALUES) return fail(`the weights hold more than ${MAX_WEIGHT_VALUES} values`);
        constants.set(out, c);
        return;
      }
      case "Identity":
      case "Dropout":
        // Inference: both pass their input on unchanged.
        if (constants.has(ins[0])) constants.set(out, constants.get(ins[0])!);
        else alias.set(out, value(ins[0]));
        return;
      case "Conv": {
        const x = value(ins[0]);
        const w = constant(ins[1], "weight W");
        if (w.integer || w.dims.length !== 4) return fail(`its weight has shape [${w.dims.join(", ")}]; 2-D convolutions (OIHW) are imported`);
        const [cout, cinG, kh, kw] = w.dims;
        const group = int("group", 1);
        if (group < 1 || cout % group !== 0) return fail(`group ${group} does not divide its ${cout} filters`);
        const stride = pair("strides", 1);
        const dilation = pair("dilations", 1);
        if ((stride[0] > 1 || stride[1] > 1) && (dilation[0] > 1 || dilation[1] > 1))
          return fail("strides and dilations both above 1 are not supported by tfjs");
        const data = w.data as Float32Array;
        // OIHW → HWIO [kh, kw, cin/g, cout]; a depthwise conv (one input channel per group) → [kh, kw, cin, cout/cin].
        const depthwise = group > 1 && cinG === 1;
        const mult = cout / group;
        const hwio = new Float32Array(data.length);
        for (let o = 0; o < cout; o++)
          for (let c = 0; c < cinG; c++)
            for (let i = 0; i < kh; i++)
              for (let j = 0; j < kw; j++) {
                const src = data[((o * cinG + c) * kh + i) * kw + j];
                if (depthwise) hwio[((i * kw + j) * group + Math.floor(o / mult)) * mult + (o % mult)] = src;
                else hwio[((i * kw + j) * cinG + c) * cout + o] = src;
              }
        const wShape = depthwise ? [kh, kw, group, mult] : [kh, kw, cinG, cout];
        let bias: string | undefined;
        if (ins[2]) {
          const b = floatConst(ins[2], "bias B");
          if (b.length !== cout) return fail(`its bias has ${b.length} values for ${cout} filters`);
          bias = store(`${ins[2]}`, [cout], Float32Array.from(b));
        }
        const conv: Extract<GraphOp, { op: "conv" }> = {
          op: "conv",
          node,
          in: x,
          out,
          weight: store(ins[1], wShape, hwio),
          bias,
          stride,
          dilation,
          pads: pads2d(),
          group,
        };
        emit(conv);
        convByOutput.set(out, conv);
        return;
      }
      case "BatchNormalization": {
        const x = value(ins[0]);
        const [gamma, beta, mean, variance] = [1, 2, 3, 4].map((k, i) => floatConst(ins[k], ["scale", "B", "mean", "var"][i]));
        const c = gamma.length;
        if ([beta, mean, variance].some((a) => a.length !== c)) return fail("scale, B, mean and var differ in length");
        const eps = flt("epsilon", BN_EPSILON);
        const scale = new Float32Array(c);
        const shift = new Float32Array(c);
        for (let k = 0; k < c; k++) {
          scale[k] = gamma[k] / Math.sqrt(variance[k] + eps);
          shift[k] = beta[k] - mean[k] * scale[k];
        }
        const conv = convByOutput.get(x);
        if (conv && readers.get(x) === 1 && x !== graphOutput && conv.group === 1) {
          // Fold into the conv (layers.ts foldBatchNorm): W·s and (b − μ)·s + β; the conv's output takes the BN's name.
          const k = arrays.find((a) => a.name === conv.weight)!;
          const cout = k.shape[3];
          if (cout !== c) return fail(`normalises ${c} channels after a conv with ${cout} filters`);
          for (let i = 0; i < k.data.length; i++) k.data[i] *= scale[i % cout];
          const b = conv.bias ? arrays.find((a) => a.name === conv.bias)!.data : new Float32Array(c);
          const folded = new Float32Array(c);
          for (let o = 0; o < c; o++) folded[o] = b[o] * scale[o] + shift[o];
          if (conv.bias) arrays.find((a) => a.name === conv.bias)!.data = folded;
          else conv.bias = store(`${ins[0]}.bias`, [c], folded);
          produced.delete(conv.out);
          convByOutput.delete(conv.out);
          conv.out = out;
          produced.add(out);
          return;
        }
        emit({ op: "batchNorm", node, in: x, out, scale: store(`${node}.scale`, [c], scale), shift: store(`${node}.shift`, [c], shift) });
        return;
      }
      case "Relu":
        emit({ op: "relu", node, in: value(ins[0]), out });
        return;
      case "MaxPool": {
        const k = pair("kernel_shape", 0);
        const s = pair("strides", 1);
        if (k[0] !== k[1] || s[0] !== s[1]) return fail(`kernel ${k.join("×")} stride ${s.join("×")}: square windows with equal strides are imported`);
        if ((ints("dilations") ?? [1, 1]).some((d) => d !== 1)) return fail("dilated max pooling is not supported");
        if (int("storage_order", 0) !== 0) return fail("storage_order 1 is not supported");
        emit({ op: "maxPool", node, in: value(ins[0]), out, kernel: k[0], stride: s[0], pads: pads2d(), ceil: int("ceil_mode", 0) === 1 });
        return;
      }
      case "AveragePool": {
        if (int("ceil_mode", 0) !== 0) return fail("ceil_mode 1 is not supported for average pooling");
        emit({
          op: "avgPool",
          node,
          in: value(ins[0]),
          out,
          kernel: pair("kernel_shape", 0),
          stride: pair("strides", 1),
          pads: pads2d(),
          countIncludePad: int("count_include_pad", 0) === 1,
        });
        return;
      }
      case "GlobalAveragePool":
        emit({ op: "globalAvgPool", node, in: value(ins[0]), out });
        return;
      case "ReduceMean": {
        const axes = opset >= 18 && ins[1] ? intConst(ins[1], "axes") : ints("axes");
        if (!axes?.length) return fail("a mean over all axes (no axes) is not supported");
        if (axes.some((a) => a === 0 || a === -4)) return fail("a mean over the batch axis is not supported");
        emit({ op: "reduceMean", node, in: value(ins[0]), out, axes, keepDims: int("keepdims", 1) === 1 });
        return;
      }
      case "Gemm":
      case "MatMul": {
        const x = value(ins[0]);
        const b = constant(ins[1], "weight B");
        if (b.integer || b.dims.length !== 2) return fail(`its weight has shape [${b.dims.join(", ")}]; a 2-D float matrix is imported`);
        const transB = op === "Gemm" && int("transB", 0) === 1;
        if (op === "Gemm" && int("transA", 0) !== 0) return fail("transA = 1 is not supported");
        const alpha = op === "Gemm" ? flt("alpha", 1) : 1;
        const beta = op === "Gemm" ? flt("beta", 1) : 1;
        const [r, c] = b.dims;
        const [fin, fout] = transB ? [c, r] : [r, c];
        const src = b.data as Float32Array;
        const kernel = new Float32Array(fin * fout);
        for (let i = 0; i < fin; i++) for (let o = 0; o < fout; o++) kernel[i * fout + o] = alpha * (transB ? src[o * fin + i] : src[i * fout + o]);
        let bias: string | undefined;
        if (op === "Gemm" && ins[2]) {
          const cb = constant(ins[2], "bias C");
          if (cb.data.length !== fout || count(cb.dims) !== fout) return fail(`its bias C has shape [${cb.dims.join(", ")}]; ${fout} values are imported`);
          bias = store(
            `${ins[2]}`,
            [fout],
            Float32Array.from(cb.data, (v) => beta * v),
          );
        }
        emit({ op: "dense", node, in: x, out, weight: store(ins[1], [fin, fout], kernel), bias });
        return;
      }
      case "Add":
      case "Sub":
      case "Mul":
      case "Div": {
        if (!produced.has(ins[0]) && !produced.has(ins[1])) return fail("both inputs are constants");
        emit({ op: "binary", node, kind: op.toLowerCase() as "add", a: operand(ins[0]), b: operand(ins[1]), out });
        return;
      }
      case "Concat":
        emit({ op: "concat", node, ins: ins.map((v) => value(v)), out, axis: int("axis", 1) });
        return;
      case "Flatten": {
        const axis = int("axis", 1);
        if (axis !== 1) return fail(`axis ${axis}: only Flatten(axis = 1) keeps the batch and is imported`);
        emit({ op: "reshape", node, in: value(ins[0]), out, shape: [0, -1] });
        return;
      }
      case "Reshape": {
        const shape = intConst(ins[1], "shape");
        if (int("allowzero", 0) === 1 && shape.includes(0)) return fail("allowzero with a zero dimension is not supported");
        if (shape.length < 1 || ![0, 1, -1].includes(shape[0])) return fail(`target shape [${shape.join(", ")}] does not keep the batch first`);
        if (shape.slice(1).filter((d) => d === -1).length > (shape[0] === -1 ? 0 : 1)) return fail(`target shape [${shape.join(", ")}] has more than one -1`);
        emit({ op: "reshape", node, in: value(ins[0]), out, shape });
        return;
      }
      case "Transpose": {
        const perm = ints("perm");
        if (!perm || perm[0] !== 0) return fail("a transpose must name its perm and keep the batch axis first");
        emit({ op: "transpose", node, in: value(ins[0]), out, perm });
        return;
      }
      case "Softmax": {
        const axis = int("axis", opset >= 13 ? -1 : 1);
        // Before opset 13 Softmax flattened from `axis` on; the same as opset 13 on [N, classes], which is all a classifier ends in.
        if (opset < 13 && axis !== 1 && axis !== -1) return fail(`axis ${axis} under opset ${opset} is not supported`);
        emit({ op: "softmax", node, in: value(ins[0]), out, axis });
        return;
      }
      case "Upsample":
      case "Resize": {
        const mode = str("mode", "nearest");
        if (mode !== "nearest" && mode !== "linear" && mode !== "bilinear") return fail(`mode ${mode} is not supported (nearest and linear are)`);
        // Before Resize-11 coordinates were "asymmetric" (what Upsample always did).
        const coord = op === "Resize" && opset >= 11 ? str("coordinate_transformation_mode", "half_pixel") : "asymmetric";
        const nearestMode = str("nearest_mode", "round_prefer_floor");
        let alignCorners = false;
        let halfPixel = false;
        if (mode === "nearest") {
          // tfjs's nearest neighbour floors the source coordinate (torch's "nearest" export: asymmetric + floor).
          if (coord !== "asymmetric" || (opset >= 11 && op === "Resize" && nearestMode !== "floor"))
            fail(`nearest resizing with ${coord} coordinates and ${nearestMode} rounding is not supported (asymmetric + floor is)`);
        } else if (coord === "half_pixel" || coord === "pytorch_half_pixel") halfPixel = true;
        else if (coord === "align_corners") alignCorners = true;
        else if (coord !== "asymmetric") return fail(`coordinate_transformation_mode ${coord} is not supported`);
        let scales: number[] | undefined;
        let sizes: number[] | undefined;
        if (op === "Upsample") scales = opset >= 9 ? Array.from(floatConst(ins[1], "scales")) : attrs.get("scales")?.floats?.map(Number);
        else if (opset < 11) scales = Array.from(floatConst(ins[1], "scales"));
        else {
          const sc = ins[2] ? constant(ins[2], "scales") : null;
          if (sc && sc.data.length) scales = Array.from(sc.data, Number);
          else if (ins[3]) sizes = intConst(ins[3], "sizes");
        }
        if (scales && (scales.length !== 4 || scales[0] !== 1 || scales[1] !== 1 || scales[2] <= 0 || scales[3] <= 0))
          fail(`scales [${scales.join(", ")}] must resize only height and width`);
        if (sizes && sizes.length !== 4) return fail(`sizes [${sizes.join(", ")}] must have 4 values`);
        if (!scales && !sizes) return fail("has neither scales nor sizes");
        emit({
          op: "resize",
          node,
          in: value(ins[0]),
          out,
          mode: mode === "nearest" ? "nearest" : "bilinear",
          alignCorners,
          halfPixel,
          scales: scales ? [scales[2], scales[3]] : undefined,
          sizes: sizes ? [sizes[2], sizes[3]] : undefined,
        });
        return;
      }
      case "Pad": {
        const mode = str("mode", "constant");
        if (mode !== "constant" && mode !== "reflect") return fail(`mode ${mode} is not supported (constant and reflect are)`);
        const pads = opset >= 11 ? intConst(ins[1], "pads") : ints("pads");
        if (!pads || pads.some((p) => p < 0)) return fail("negative or missing pads are not supported");
        if (opset >= 18 && ins[3]) return fail("pads on chosen axes are not supported");
        const v = opset >= 11 ? (ins[2] ? Number(constant(ins[2], "constant_value").data[0] ?? 0) : 0) : flt("value", 0);
        if (pads[0] !== 0 || pads[pads.length / 2] !== 0) return fail("padding the batch axis is not supported");
        emit({ op: "pad", node, in: value(ins[0]), out, pads, value: v, mode: mode as "constant" | "reflect" });
        return;
      }
    }
  });

  let output = resolve(graphOutput);
  if (!produced.has(output)) throw new OnnxImportError(`the graph output ${graphOutput} is not computed by any node`);
  // A classifier ending in Softmax: serve its logits (the probabilities are their softmax, as for the zoo's nets).
  const last = ops[ops.length - 1];
  let strippedSoftmax = false;
  if (last?.op === "softmax" && last.out === output) {
    ops.pop();
    output = last.in;
    strippedSoftmax = true;
  }

  const spec: GraphSpec = { format: "metarank-onnx-graph/1", input: input.name, output, ops, normalize, strippedSoftmax };
  const sha256 = crypto.createHash("sha256").update(bytes).digest("hex");
  const importedAt = new Date().toISOString();
  const manifest: ImportedManifest = {
    format: "metarank-checkpoint/1",
    dtype: "float32",
    id: opts.id,
    // Not one of the zoo's architectures: "onnx" tells ListModels' clients the network came from an import.
    arch: "onnx" as ArchName,
    archConfig: { width: 0, stemStride: 1 },
    dataset: opts.dataset,
    inputShape: [height, width, channels],
    classNames,
    // Not measured here: testSize 0 says so (the app shows no accuracy for it).
    testAccuracy: 0,
    trainSize: 0,
    testSize: 0,
    epochs: 0,
    trainedAt: importedAt,
    trainingSeconds: 0,
    backend: "onnx-import",
    layers: [],
    defaultCamLayer: "",
    weightsFile: "",
    weightsSha256: "",
    weights: arrays.map((a) => ({ name: a.name, shape: a.shape })),
    graph: spec,
    task: opts.task ?? "classification",
    source: {
      file: path.basename(opts.sourceName ?? "model.onnx"),
      sha256,
      bytes: bytes.length,
      producer: [model.producerName, model.producerVersion].filter(Boolean).join(" "),
      irVersion: Number(model.irVersion ?? 0),
      opset,
      importedAt,
    },
  };
  if (manifest.task === "segmentation") {
    // The fields the Segmentation service's catalogue reads of a segmenter (segmenter.ts SegmenterManifest):
    // nothing was measured here, so no IoU (testSize 0 says so).
    Object.assign(manifest, { segArch: "onnx", meanIoU: 0, perClassIoU: [], valMeanIoU: 0, command: "npm run -s import-model" });
  }
  checkByRunning(manifest, arrays);
  return { manifest, arrays };
}

/**
 * One forward pass on a zero image: every value within MAX_VALUE_ELEMENTS, the output
 * [1, classes], and the tap-able layers (LayerGradCam) read off the values' ranks: the
 * feature maps that ReLUs and Concats produce, in forward order, the last one the default.
 */
function checkByRunning(manifest: ImportedManifest, arrays: NamedArray[]): void {
  const weights: WeightMap = new Map();
  const layers: string[] = [];
  const convs: string[] = [];
  try {
    for (const a of arrays) weights.set(a.name, tf.variable(tf.tensor(a.data, a.shape), false));
    tf.tidy(() => {
      const y = runGraph(manifest.graph, weights, tf.zeros([1, ...manifest.inputShape]) as tf.Tensor4D, {
        observe(name, v, op) {
          if (v.size > MAX_VALUE_ELEMENTS) throw new OnnxImportError(`value ${name} holds ${v.size} numbers for one image, more than ${MAX_VALUE_ELEMENTS}`);
          if (v.rank === 4 && op && (op.op === "relu" || op.op === "concat")) layers.push(name);
          if (v.rank === 4 && op?.op === "conv") convs.push(name);
        },
      });
      const classes = manifest.classNames.length;
      const [h, w] = manifest.inputShape;
      if (manifest.task === "segmentation") {
        // Held NHWC: the ONNX output [1, classes, H, W].
        if (y.rank !== 4 || y.shape[1] !== h || y.shape[2] !== w || y.shape[3] !== classes)
          throw new OnnxImportError(
            `the graph gives [${[y.shape[0], y.shape[3], y.shape[1], y.shape[2]].join(", ")}] for one image; a segmenter with ${classes} labels gives per-pixel scores [1, ${classes}, ${h}, ${w}] at the input's size`,
          );
      } else if (y.rank !== 2 || y.shape[1] !== classes)
        throw new OnnxImportError(
          `the graph gives [${y.shape.join(", ")}] for one image; a classifier with ${classes} outputs (one per label) gives [1, ${classes}]`,
        );
      if (!Array.from(y.dataSync()).every(Number.isFinite)) throw new OnnxImportError("the graph gives NaN or infinite scores for a black image");
    });
  } catch (err) {
    if (err instanceof OnnxImportError) throw err;
    throw new OnnxImportError(`the converted graph does not run: ${(err as Error).message}`);
  } finally {
    for (const v of weights.values()) v.dispose();
  }
  manifest.layers = layers.length ? layers : convs;
  manifest.defaultCamLayer = manifest.layers[manifest.layers.length - 1] ?? "";
}

/** Labels: one per line (blank lines and surrounding spaces dropped) or a JSON array of strings. */
export function parseLabels(text: string): string[] {
  const trimmed = text.trim();
  let labels: unknown;
  if (trimmed.startsWith("[")) {
    try {
      labels = JSON.parse(trimmed);
    } catch (err) {
      throw new OnnxImportError(`the labels file looks like JSON but does not parse: ${(err as Error).message}`);
    }
  } else
    labels = trimmed
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
  if (!Array.isArray(labels) || labels.some((l) => typeof l !== "string" || !l.trim())) throw new OnnxImportError("labels must be non-empty strings");
  const tooLong = (labels as string[]).find((l) => l.length > MAX_LABEL_CHARS);
  if (tooLong) throw new OnnxImportError(`label "${tooLong.slice(0, 40)}…" is longer than ${MAX_LABEL_CHARS} characters`);
  return labels as string[];
}

/**
 * Converts and writes `<id>.onnx` (the file as given), `<id>.json` + `<id>.weights.bin` into `dir`. Refuses an id that a zoo
 * checkpoint already has (ListModels would show two models under one id) or that exists
 * in `dir` unless `replace` is set.
 */
export function importOnnxModel(bytes: Uint8Array, opts: ImportOptions & { dir?: string; zooDir?: string; replace?: boolean }): ImportedManifest {
  const segmentation = opts.task === "segmentation";
  // Segmenters go to a folder of their own (graphNet.ts importedSegmentationDir), as the zoo's do.
  const dir = segmentation ? path.join(opts.dir ?? importedModelDir(), "segmentation") : (opts.dir ?? importedModelDir());
  const zooDir = opts.zooDir ?? (segmentation ? segCheckpointDir() : checkpointDir());
  try {
    readManifest(opts.id, zooDir);
    throw new OnnxImportError(`id "${opts.id}" is a zoo checkpoint's; choose another --id`);
  } catch (err) {
    if (err instanceof OnnxImportError) throw err;
    if (err instanceof CheckpointError && /not a valid checkpoint id/.test(err.message))
      throw new OnnxImportError(`id "${opts.id}" must be lower-case letters, digits, '.', '_' or '-'`);
  }
  if (!opts.replace && fs.existsSync(path.join(dir, `${opts.id}.json`)))
    throw new OnnxImportError(`${dir} already holds a model "${opts.id}"; pass --replace to overwrite it`);
  const { manifest, arrays } = convertOnnx(bytes, opts);
  const { weights: _w, weightsFile: _f, weightsSha256: _s, format: _fmt, dtype: _d, ...rest } = manifest;
  // The file as given, beside the checkpoint: the sidecar serves it on onnxruntime
  // (sidecar/engine); the converted graph serves it on tfjs. Written first, so no manifest ever
  // names a model whose file is missing.
  fs.mkdirSync(dir, { recursive: true });
  const onnxFile = path.join(dir, `${opts.id}.onnx`);
  fs.writeFileSync(`${onnxFile}.part`, bytes);
  fs.renameSync(`${onnxFile}.part`, onnxFile);
  return writeCheckpoint(dir, rest, arrays, "float32") as ImportedManifest;
}
