// The nodes of an ONNX graph, in order, converted into the ops of a graph description
// (graphNet.ts) and the weights they read; importOnnx.ts checks the model around them and drives
// the conversion node by node. The operators are a table (CONVERTERS), one short converter each;
// what every converter reads of its node (attributes, constants, computed values, pads) is
// NodeReader's, and what the whole graph accumulates (weights, ops, values computed so far) is
// GraphBuilder's.
import type { NamedArray } from "../checkpoint.ts";
import { BN_EPSILON } from "../layers.ts";
import type { GraphOp, Operand, Pads2d } from "./graphNet.ts";
import { MAX_INT_CONSTANT, MAX_WEIGHT_VALUES, OnnxImportError, count, tensorValues, type Constant, type NodeMsg } from "./onnxMessages.ts";
import type { AttrMsg } from "./proto.ts";

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

type ConvOp = Extract<GraphOp, { op: "conv" }>;

/** What the conversion accumulates over the graph's nodes. */
export class GraphBuilder {
  readonly arrays: NamedArray[] = [];
  readonly ops: GraphOp[] = [];
  /** Values computed so far (the input, then each op's output). */
  readonly produced: Set<string>;
  /** Identity/Dropout outputs → the value they pass on. */
  readonly alias = new Map<string, string>();
  /** Constants read as operands, stored once as weights: ONNX name → weight name. */
  readonly stored = new Map<string, string>();
  /** Convs by output, while a BatchNormalization right after one may still be folded into it. */
  readonly convByOutput = new Map<string, ConvOp>();

  constructor(
    readonly constants: Map<string, Constant>,
    /** Values the initializers hold; Constant nodes add theirs. */
    public weightTotal: number,
    /** How many nodes read each value (a Conv's output read only by a BatchNormalization can absorb it). */
    readonly readers: Map<string, number>,
    readonly graphOutput: string,
    readonly opset: number,
    input: string,
  ) {
    this.produced = new Set<string>([input]);
  }

  resolve(v: string): string {
    return this.alias.get(v) ?? v;
  }

  /** Adds a weight under `name`, or `name_1`, `name_2`… when taken; returns the name used. */
  store(name: string, shape: number[], data: Float32Array): string {
    let key = name;
    for (let i = 1; this.arrays.some((a) => a.name === key); i++) key = `${name}_${i}`;
    this.arrays.push({ name: key, shape, data });
    return key;
  }

  emit(o: GraphOp): void {
    this.ops.push(o);
    this.produced.add(o.out);
  }
}

/** One node as its converter reads it; every refusal names the node and its operator. */
class NodeReader {
  readonly op: string;
  readonly node: string;
  readonly attrs: Map<string, AttrMsg>;
  /** Input names, Identity/Dropout aliases resolved ("" for an omitted optional input). */
  readonly ins: string[];
  readonly out: string;

  constructor(
    n: NodeMsg,
    index: number,
    readonly g: GraphBuilder,
  ) {
    this.op = n.opType!;
    this.node = n.name || `${this.op}#${index}`;
    this.attrs = new Map((n.attribute ?? []).map((a) => [a.name, a]));
    this.ins = (n.input ?? []).map((v) => (v ? g.resolve(v) : ""));
    const outs = n.output ?? [];
    if (outs.length < 1 || !outs[0]) this.fail("has no output");
    this.out = outs[0];
    // Extra outputs (MaxPool's indices, Dropout's mask, BatchNormalization's training statistics) must be unused.
    for (const extra of outs.slice(1)) if (extra && g.readers.has(extra)) this.fail(`its output ${extra} is used; only the first output is imported`);
  }

  fail(why: string): never {
    throw new OnnxImportError(`node "${this.node}" (${this.op}): ${why}`);
  }
  int(name: string, dflt: number): number {
    return this.attrs.has(name) ? Number(this.attrs.get(name)!.i ?? 0) : dflt;
  }
  flt(name: string, dflt: number): number {
    return this.attrs.has(name) ? Number(this.attrs.get(name)!.f ?? 0) : dflt;
  }
  ints(name: string): number[] | undefined {
    return this.attrs.get(name)?.ints?.map(Number);
  }
  str(name: string, dflt: string): string {
    const s = this.attrs.get(name)?.s;
    return s ? Buffer.from(s).toString("utf8") : dflt;
  }
  constant(v: string | undefined, what: string): Constant {
    const c = v ? this.g.constants.get(v) : undefined;
    if (!c) return this.fail(`its ${what} must be a constant (an initializer), not a computed value`);
    return c;
  }
  floatConst(v: string | undefined, what: string): Float32Array {
    const c = this.constant(v, what);
    if (c.integer) return this.fail(`its ${what} must hold floats`);
    return c.data as Float32Array;
  }
  intConst(v: string, what: string): number[] {
    const c = this.constant(v, what);
    if (c.data.length > MAX_INT_CONSTANT) return this.fail(`its ${what} has ${c.data.length} values`);
    return Array.from(c.data, Number);
  }
  /** A value computed before this node. */
  value(v: string | undefined, what = "input"): string {
    if (!v) return this.fail(`has no ${what}`);
    if (!this.g.produced.has(v)) {
      if (this.g.constants.has(v)) return this.fail(`its ${what} ${v} is a constant; a computed value is expected`);
      this.fail(`its ${what} ${v} is not computed before it (the graph must be in topological order)`);
    }
    return v;
  }
  /** A computed value or a constant (stored as a weight once). */
  operand(v: string): Operand {
    const g = this.g;
    if (g.produced.has(v)) return { value: v };
    const c = g.constants.get(v);
    if (!c) return this.fail(`its input ${v} is neither computed before it nor a constant`);
    const key = g.stored.get(v) ?? g.store(v, c.dims, Float32Array.from(c.data));
    g.stored.set(v, key);
    return { weight: key };
  }
  pads2d(): Pads2d {
    const auto = this.str("auto_pad", "NOTSET");
    if (auto === "SAME_UPPER") return "same_upper";
    if (auto === "SAME_LOWER") return "same_lower";
    if (auto !== "NOTSET" && auto !== "VALID") return this.fail(`auto_pad ${auto} is not supported`);
    const p = auto === "VALID" ? [0, 0, 0, 0] : (this.ints("pads") ?? [0, 0, 0, 0]);
    if (p.length !== 4 || p.some((x) => x < 0)) return this.fail(`pads [${p.join(", ")}] are not 2-D pads`);
    return [p[0], p[1], p[2], p[3]];
  }
  pair(name: string, dflt: number): [number, number] {
    const v = this.ints(name) ?? [dflt, dflt];
    if (v.length !== 2 || v.some((x) => !Number.isInteger(x) || x < 1))
      return this.fail(`${name} [${v.join(", ")}] are not two positive integers (only 2-D operators are imported)`);
    return [v[0], v[1]];
  }
  emit(o: GraphOp): void {
    this.g.emit(o);
  }
}

function convertConstant(r: NodeReader, g: GraphBuilder): void {
  const { attrs, node } = r;
  const t = attrs.get("value")?.t;
  let c: Constant;
  if (t) c = tensorValues(t, `node "${node}" (Constant)`);
  else if (attrs.has("value_float")) c = { dims: [], data: Float32Array.of(r.flt("value_float", 0)), integer: false };
  else if (attrs.has("value_floats"))
    c = { dims: [attrs.get("value_floats")!.floats!.length], data: Float32Array.from(attrs.get("value_floats")!.floats!), integer: false };
  else if (attrs.has("value_int")) c = { dims: [], data: [r.int("value_int", 0)], integer: true };
  else if (attrs.has("value_ints")) c = { dims: [r.ints("value_ints")!.length], data: r.ints("value_ints")!, integer: true };
  else return r.fail("only tensor, float(s) and int(s) constants are imported");
  g.weightTotal += c.data.length;
  if (g.weightTotal > MAX_WEIGHT_VALUES) return r.fail(`the weights hold more than ${MAX_WEIGHT_VALUES} values`);
  g.constants.set(r.out, c);
}

/** Identity and Dropout (at inference) pass their input on unchanged. */
function passOn(r: NodeReader, g: GraphBuilder): void {
  const { ins, out } = r;
  if (g.constants.has(ins[0])) g.constants.set(out, g.constants.get(ins[0])!);
  else g.alias.set(out, r.value(ins[0]));
}

function convertConv(r: NodeReader, g: GraphBuilder): void {
  const { ins, node, out } = r;
  const x = r.value(ins[0]);
  const w = r.constant(ins[1], "weight W");
  if (w.integer || w.dims.length !== 4) return r.fail(`its weight has shape [${w.dims.join(", ")}]; 2-D convolutions (OIHW) are imported`);
  const [cout, cinG, kh, kw] = w.dims;
  const group = r.int("group", 1);
  if (group < 1 || cout % group !== 0) return r.fail(`group ${group} does not divide its ${cout} filters`);
  const stride = r.pair("strides", 1);
  const dilation = r.pair("dilations", 1);
  if ((stride[0] > 1 || stride[1] > 1) && (dilation[0] > 1 || dilation[1] > 1)) return r.fail("strides and dilations both above 1 are not supported by tfjs");
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
    const b = r.floatConst(ins[2], "bias B");
    if (b.length !== cout) return r.fail(`its bias has ${b.length} values for ${cout} filters`);
    bias = g.store(`${ins[2]}`, [cout], Float32Array.from(b));
  }
  const conv: ConvOp = {
    op: "conv",
    node,
    in: x,
    out,
    weight: g.store(ins[1], wShape, hwio),
    bias,
    stride,
    dilation,
    pads: r.pads2d(),
    group,
  };
  g.emit(conv);
  g.convByOutput.set(out, conv);
}

/** Folded into the conv before it when that conv's output is read by it alone (layers.ts foldBatchNorm), else a scale and shift. */
function convertBatchNorm(r: NodeReader, g: GraphBuilder): void {
  const { ins, node, out } = r;
  const x = r.value(ins[0]);
  const [gamma, beta, mean, variance] = [1, 2, 3, 4].map((k, i) => r.floatConst(ins[k], ["scale", "B", "mean", "var"][i]));
  const c = gamma.length;
  if ([beta, mean, variance].some((a) => a.length !== c)) return r.fail("scale, B, mean and var differ in length");
  const eps = r.flt("epsilon", BN_EPSILON);
  const scale = new Float32Array(c);
  const shift = new Float32Array(c);
  for (let k = 0; k < c; k++) {
    scale[k] = gamma[k] / Math.sqrt(variance[k] + eps);
    shift[k] = beta[k] - mean[k] * scale[k];
  }
  const conv = g.convByOutput.get(x);
  if (conv && g.readers.get(x) === 1 && x !== g.graphOutput && conv.group === 1) {
    // Fold into the conv (layers.ts foldBatchNorm): W·s and (b − μ)·s + β; the conv's output takes the BN's name.
    const k = g.arrays.find((a) => a.name === conv.weight)!;
    const cout = k.shape[3];
    if (cout !== c) return r.fail(`normalises ${c} channels after a conv with ${cout} filters`);
    for (let i = 0; i < k.data.length; i++) k.data[i] *= scale[i % cout];
    const b = conv.bias ? g.arrays.find((a) => a.name === conv.bias)!.data : new Float32Array(c);
    const folded = new Float32Array(c);
    for (let o = 0; o < c; o++) folded[o] = b[o] * scale[o] + shift[o];
    if (conv.bias) g.arrays.find((a) => a.name === conv.bias)!.data = folded;
    else conv.bias = g.store(`${ins[0]}.bias`, [c], folded);
    g.produced.delete(conv.out);
    g.convByOutput.delete(conv.out);
    conv.out = out;
    g.produced.add(out);
    return;
  }
  g.emit({ op: "batchNorm", node, in: x, out, scale: g.store(`${node}.scale`, [c], scale), shift: g.store(`${node}.shift`, [c], shift) });
}

function convertMaxPool(r: NodeReader): void {
  const k = r.pair("kernel_shape", 0);
  const s = r.pair("strides", 1);
  if (k[0] !== k[1] || s[0] !== s[1]) return r.fail(`kernel ${k.join("×")} stride ${s.join("×")}: square windows with equal strides are imported`);
  if ((r.ints("dilations") ?? [1, 1]).some((d) => d !== 1)) return r.fail("dilated max pooling is not supported");
  if (r.int("storage_order", 0) !== 0) return r.fail("storage_order 1 is not supported");
  r.emit({ op: "maxPool", node: r.node, in: r.value(r.ins[0]), out: r.out, kernel: k[0], stride: s[0], pads: r.pads2d(), ceil: r.int("ceil_mode", 0) === 1 });
}

function convertAveragePool(r: NodeReader): void {
  if (r.int("ceil_mode", 0) !== 0) return r.fail("ceil_mode 1 is not supported for average pooling");
  r.emit({
    op: "avgPool",
    node: r.node,
    in: r.value(r.ins[0]),
    out: r.out,
    kernel: r.pair("kernel_shape", 0),
    stride: r.pair("strides", 1),
    pads: r.pads2d(),
    countIncludePad: r.int("count_include_pad", 0) === 1,
  });
}

function convertReduceMean(r: NodeReader, g: GraphBuilder): void {
  const axes = g.opset >= 18 && r.ins[1] ? r.intConst(r.ins[1], "axes") : r.ints("axes");
  if (!axes?.length) return r.fail("a mean over all axes (no axes) is not supported");
  if (axes.some((a) => a === 0 || a === -4)) return r.fail("a mean over the batch axis is not supported");
  r.emit({ op: "reduceMean", node: r.node, in: r.value(r.ins[0]), out: r.out, axes, keepDims: r.int("keepdims", 1) === 1 });
}

/** Gemm and MatMul with a constant weight: a dense layer ([in, out] kernel, alpha and beta applied). */
function convertDense(r: NodeReader, g: GraphBuilder): void {
  const { ins, op, node, out } = r;
  const x = r.value(ins[0]);
  const b = r.constant(ins[1], "weight B");
  if (b.integer || b.dims.length !== 2) return r.fail(`its weight has shape [${b.dims.join(", ")}]; a 2-D float matrix is imported`);
  const transB = op === "Gemm" && r.int("transB", 0) === 1;
  if (op === "Gemm" && r.int("transA", 0) !== 0) return r.fail("transA = 1 is not supported");
  const alpha = op === "Gemm" ? r.flt("alpha", 1) : 1;
  const beta = op === "Gemm" ? r.flt("beta", 1) : 1;
  const [rows, cols] = b.dims;
  const [fin, fout] = transB ? [cols, rows] : [rows, cols];
  const src = b.data as Float32Array;
  const kernel = new Float32Array(fin * fout);
  for (let i = 0; i < fin; i++) for (let o = 0; o < fout; o++) kernel[i * fout + o] = alpha * (transB ? src[o * fin + i] : src[i * fout + o]);
  let bias: string | undefined;
  if (op === "Gemm" && ins[2]) {
    const cb = r.constant(ins[2], "bias C");
    if (cb.data.length !== fout || count(cb.dims) !== fout) return r.fail(`its bias C has shape [${cb.dims.join(", ")}]; ${fout} values are imported`);
    bias = g.store(
      `${ins[2]}`,
      [fout],
      Float32Array.from(cb.data, (v) => beta * v),
    );
  }
  g.emit({ op: "dense", node, in: x, out, weight: g.store(ins[1], [fin, fout], kernel), bias });
}

/** Add, Sub, Mul and Div of two values, or a value and a constant. */
function convertBinary(r: NodeReader, g: GraphBuilder): void {
  const { ins } = r;
  if (!g.produced.has(ins[0]) && !g.produced.has(ins[1])) return r.fail("both inputs are constants");
  r.emit({ op: "binary", node: r.node, kind: r.op.toLowerCase() as "add", a: r.operand(ins[0]), b: r.operand(ins[1]), out: r.out });
}

function convertFlatten(r: NodeReader): void {
  const axis = r.int("axis", 1);
  if (axis !== 1) return r.fail(`axis ${axis}: only Flatten(axis = 1) keeps the batch and is imported`);
  r.emit({ op: "reshape", node: r.node, in: r.value(r.ins[0]), out: r.out, shape: [0, -1] });
}

function convertReshape(r: NodeReader): void {
  const shape = r.intConst(r.ins[1], "shape");
  if (r.int("allowzero", 0) === 1 && shape.includes(0)) return r.fail("allowzero with a zero dimension is not supported");
  if (shape.length < 1 || ![0, 1, -1].includes(shape[0])) return r.fail(`target shape [${shape.join(", ")}] does not keep the batch first`);
  if (shape.slice(1).filter((d) => d === -1).length > (shape[0] === -1 ? 0 : 1)) return r.fail(`target shape [${shape.join(", ")}] has more than one -1`);
  r.emit({ op: "reshape", node: r.node, in: r.value(r.ins[0]), out: r.out, shape });
}

function convertTranspose(r: NodeReader): void {
  const perm = r.ints("perm");
  if (!perm || perm[0] !== 0) return r.fail("a transpose must name its perm and keep the batch axis first");
  r.emit({ op: "transpose", node: r.node, in: r.value(r.ins[0]), out: r.out, perm });
}

function convertSoftmax(r: NodeReader, g: GraphBuilder): void {
  const opset = g.opset;
  const axis = r.int("axis", opset >= 13 ? -1 : 1);
  // Before opset 13 Softmax flattened from `axis` on; the same as opset 13 on [N, classes], which is all a classifier ends in.
  if (opset < 13 && axis !== 1 && axis !== -1) return r.fail(`axis ${axis} under opset ${opset} is not supported`);
  r.emit({ op: "softmax", node: r.node, in: r.value(r.ins[0]), out: r.out, axis });
}

/** Upsample and Resize: nearest (asymmetric, floor) or bilinear, by scales or sizes of height and width. */
function convertResize(r: NodeReader, g: GraphBuilder): void {
  const { ins, op } = r;
  const opset = g.opset;
  const mode = r.str("mode", "nearest");
  if (mode !== "nearest" && mode !== "linear" && mode !== "bilinear") return r.fail(`mode ${mode} is not supported (nearest and linear are)`);
  // Before Resize-11 coordinates were "asymmetric" (what Upsample always did).
  const coord = op === "Resize" && opset >= 11 ? r.str("coordinate_transformation_mode", "half_pixel") : "asymmetric";
  const nearestMode = r.str("nearest_mode", "round_prefer_floor");
  let alignCorners = false;
  let halfPixel = false;
  if (mode === "nearest") {
    // tfjs's nearest neighbour floors the source coordinate (torch's "nearest" export: asymmetric + floor).
    if (coord !== "asymmetric" || (opset >= 11 && op === "Resize" && nearestMode !== "floor"))
      r.fail(`nearest resizing with ${coord} coordinates and ${nearestMode} rounding is not supported (asymmetric + floor is)`);
  } else if (coord === "half_pixel" || coord === "pytorch_half_pixel") halfPixel = true;
  else if (coord === "align_corners") alignCorners = true;
  else if (coord !== "asymmetric") return r.fail(`coordinate_transformation_mode ${coord} is not supported`);
  let scales: number[] | undefined;
  let sizes: number[] | undefined;
  if (op === "Upsample") scales = opset >= 9 ? Array.from(r.floatConst(ins[1], "scales")) : r.attrs.get("scales")?.floats?.map(Number);
  else if (opset < 11) scales = Array.from(r.floatConst(ins[1], "scales"));
  else {
    const sc = ins[2] ? r.constant(ins[2], "scales") : null;
    if (sc && sc.data.length) scales = Array.from(sc.data, Number);
    else if (ins[3]) sizes = r.intConst(ins[3], "sizes");
  }
  if (scales && (scales.length !== 4 || scales[0] !== 1 || scales[1] !== 1 || scales[2] <= 0 || scales[3] <= 0))
    r.fail(`scales [${scales.join(", ")}] must resize only height and width`);
  if (sizes && sizes.length !== 4) return r.fail(`sizes [${sizes.join(", ")}] must have 4 values`);
  if (!scales && !sizes) return r.fail("has neither scales nor sizes");
  r.emit({
    op: "resize",
    node: r.node,
    in: r.value(ins[0]),
    out: r.out,
    mode: mode === "nearest" ? "nearest" : "bilinear",
    alignCorners,
    halfPixel,
    scales: scales ? [scales[2], scales[3]] : undefined,
    sizes: sizes ? [sizes[2], sizes[3]] : undefined,
  });
}

function convertPad(r: NodeReader, g: GraphBuilder): void {
  const { ins } = r;
  const opset = g.opset;
  const mode = r.str("mode", "constant");
  if (mode !== "constant" && mode !== "reflect") return r.fail(`mode ${mode} is not supported (constant and reflect are)`);
  const pads = opset >= 11 ? r.intConst(ins[1], "pads") : r.ints("pads");
  if (!pads || pads.some((p) => p < 0)) return r.fail("negative or missing pads are not supported");
  if (opset >= 18 && ins[3]) return r.fail("pads on chosen axes are not supported");
  const v = opset >= 11 ? (ins[2] ? Number(r.constant(ins[2], "constant_value").data[0] ?? 0) : 0) : r.flt("value", 0);
  if (pads[0] !== 0 || pads[pads.length / 2] !== 0) return r.fail("padding the batch axis is not supported");
  r.emit({ op: "pad", node: r.node, in: r.value(ins[0]), out: r.out, pads, value: v, mode: mode as "constant" | "reflect" });
}

/** One converter per supported operator. */
const CONVERTERS: Record<(typeof SUPPORTED_OPERATORS)[number], (r: NodeReader, g: GraphBuilder) => void> = {
  Conv: convertConv,
  BatchNormalization: convertBatchNorm,
  Relu: (r) => r.emit({ op: "relu", node: r.node, in: r.value(r.ins[0]), out: r.out }),
  MaxPool: convertMaxPool,
  AveragePool: convertAveragePool,
  GlobalAveragePool: (r) => r.emit({ op: "globalAvgPool", node: r.node, in: r.value(r.ins[0]), out: r.out }),
  Gemm: convertDense,
  MatMul: convertDense,
  Add: convertBinary,
  Sub: convertBinary,
  Mul: convertBinary,
  Div: convertBinary,
  Concat: (r) => r.emit({ op: "concat", node: r.node, ins: r.ins.map((v) => r.value(v)), out: r.out, axis: r.int("axis", 1) }),
  Flatten: convertFlatten,
  Reshape: convertReshape,
  Transpose: convertTranspose,
  Softmax: convertSoftmax,
  ReduceMean: convertReduceMean,
  Upsample: convertResize,
  Resize: convertResize,
  Pad: convertPad,
  Identity: passOn,
  Dropout: passOn,
  Constant: convertConstant,
};

/** Converts one node (its operator already checked to be supported) into the graph. */
export function convertNode(n: NodeMsg, index: number, g: GraphBuilder): void {
  const r = new NodeReader(n, index, g);
  CONVERTERS[r.op as (typeof SUPPORTED_OPERATORS)[number]]?.(r, g);
}
