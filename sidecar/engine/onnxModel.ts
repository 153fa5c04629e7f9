// ONNX models as plain objects the engine can read and extend: decoding and encoding through the
// ModelProto subset in sidecar/zoo/onnx/onnx.proto, attribute and initializer readers, and a
// small emitter that appends nodes and constants under fresh names. The gradient graphs
// (gradientGraph.ts) are built with it; nothing here knows about any operator's meaning.
import { modelProto, type AttrMsg, type TensorMsg } from "../zoo/onnx/proto.ts";

/** TensorProto.DataType values the engine meets (onnx.proto). */
export const DT = { FLOAT: 1, UINT8: 2, INT8: 3, INT32: 6, INT64: 7, BOOL: 9, FLOAT16: 10, DOUBLE: 11 } as const;
/** AttributeProto.AttributeType values (onnx.proto). */
const AT = { FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4, FLOATS: 6, INTS: 7 } as const;

export type OnnxTensor = TensorMsg;
export type OnnxAttribute = AttrMsg;
export interface OnnxNode {
  name?: string;
  opType: string;
  domain?: string;
  input: string[];
  output: string[];
  attribute?: OnnxAttribute[];
}
export interface OnnxValueInfo {
  name: string;
  type?: { tensorType?: { elemType?: number; shape?: { dim?: Array<{ dimValue?: number; dimParam?: string }> } } };
}
export interface OnnxGraph {
  name?: string;
  node: OnnxNode[];
  initializer: OnnxTensor[];
  input: OnnxValueInfo[];
  output: OnnxValueInfo[];
  valueInfo?: OnnxValueInfo[];
}
export interface OnnxModel {
  irVersion?: number;
  opsetImport: Array<{ domain?: string; version?: number }>;
  producerName?: string;
  graph: OnnxGraph;
}

export function decodeModel(bytes: Uint8Array): OnnxModel {
  const type = modelProto();
  const obj = type.toObject(type.decode(bytes), { longs: Number, arrays: true }) as OnnxModel;
  for (const n of obj.graph.node) {
    n.input ??= [];
    n.output ??= [];
  }
  obj.graph.valueInfo ??= [];
  return obj;
}

export function encodeModel(model: OnnxModel): Uint8Array {
  const type = modelProto();
  return type.encode(type.fromObject(model as unknown as Record<string, unknown>)).finish();
}

/** The default domain's opset version (the one that fixes every standard operator's meaning). */
export function opsetOf(model: OnnxModel): number {
  const entry = model.opsetImport.find((o) => !o.domain || o.domain === "ai.onnx");
  return entry?.version ?? 0;
}

export function attr(node: OnnxNode, name: string): OnnxAttribute | undefined {
  return node.attribute?.find((a) => a.name === name);
}
export function attrInt(node: OnnxNode, name: string, dflt: number): number {
  return attr(node, name)?.i ?? dflt;
}
export function attrFloat(node: OnnxNode, name: string, dflt: number): number {
  return attr(node, name)?.f ?? dflt;
}
export function attrInts(node: OnnxNode, name: string): number[] | undefined {
  return attr(node, name)?.ints;
}
export function attrString(node: OnnxNode, name: string, dflt: string): string {
  const s = attr(node, name)?.s;
  return s ? Buffer.from(s).toString("utf8") : dflt;
}

/** The values of a float or integer initializer (any storage: raw bytes or typed fields). */
export function tensorValues(t: OnnxTensor): Float64Array {
  const count = (t.dims ?? []).reduce((a, b) => a * b, 1);
  const dt = t.dataType ?? DT.FLOAT;
  const raw = t.rawData && t.rawData.byteLength > 0 ? Buffer.from(t.rawData) : null;
  const out = new Float64Array(count);
  if (raw) {
    for (let i = 0; i < count; i++) {
      if (dt === DT.FLOAT) out[i] = raw.readFloatLE(i * 4);
      else if (dt === DT.INT64) out[i] = Number(raw.readBigInt64LE(i * 8));
      else if (dt === DT.INT32) out[i] = raw.readInt32LE(i * 4);
      else if (dt === DT.DOUBLE) out[i] = raw.readDoubleLE(i * 8);
      else if (dt === DT.UINT8 || dt === DT.BOOL) out[i] = raw.readUInt8(i);
      else if (dt === DT.INT8) out[i] = raw.readInt8(i);
      else throw new Error(`initializer ${t.name}: data type ${dt} is not read by the engine`);
    }
    return out;
  }
  const field = dt === DT.FLOAT ? t.floatData : dt === DT.INT64 ? t.int64Data : t.int32Data;
  (field ?? []).forEach((v, i) => (out[i] = Number(v)));
  return out;
}

export function floatTensor(name: string, dims: number[], data: ArrayLike<number>): OnnxTensor {
  const f = Float32Array.from(data);
  return { name, dims, dataType: DT.FLOAT, rawData: new Uint8Array(f.buffer, f.byteOffset, f.byteLength) };
}
export function int64Tensor(name: string, dims: number[], data: ArrayLike<number>): OnnxTensor {
  const b = new BigInt64Array(data.length);
  for (let i = 0; i < data.length; i++) b[i] = BigInt(Math.trunc(data[i]));
  return { name, dims, dataType: DT.INT64, rawData: new Uint8Array(b.buffer) };
}

export const ints = (name: string, values: number[]): OnnxAttribute => ({ name, type: AT.INTS, ints: values });
export const int = (name: string, value: number): OnnxAttribute => ({ name, type: AT.INT, i: value });
export const float = (name: string, value: number): OnnxAttribute => ({ name, type: AT.FLOAT, f: value });
export const str = (name: string, value: string): OnnxAttribute => ({ name, type: AT.STRING, s: Buffer.from(value, "utf8") });

/** Appends nodes and constants to a graph under names no existing value uses. */
export class Emitter {
  private used: Set<string>;
  private counter = 0;
  constructor(private graph: OnnxGraph) {
    this.used = new Set<string>();
    for (const n of graph.node) for (const o of n.output) this.used.add(o);
    for (const t of graph.initializer) if (t.name) this.used.add(t.name);
    for (const v of graph.input) this.used.add(v.name);
  }
  fresh(base: string): string {
    let name: string;
    do name = `grad/${base}/${this.counter++}`;
    while (this.used.has(name));
    this.used.add(name);
    return name;
  }
  /** One node with one output; returns the output's name. */
  op(opType: string, input: string[], attribute: OnnxAttribute[] = [], hint = opType): string {
    const out = this.fresh(hint);
    this.graph.node.push({ name: out, opType, input, output: [out], attribute });
    return out;
  }
  /** One node with several outputs. */
  opN(opType: string, input: string[], outputs: number, attribute: OnnxAttribute[] = []): string[] {
    const outs = Array.from({ length: outputs }, () => this.fresh(opType));
    this.graph.node.push({ name: outs[0], opType, input, output: outs, attribute });
    return outs;
  }
  constFloat(dims: number[], data: ArrayLike<number>, hint = "const"): string {
    const name = this.fresh(hint);
    this.graph.initializer.push(floatTensor(name, dims, data));
    return name;
  }
  constInt64(data: number[], hint = "shape"): string {
    const name = this.fresh(hint);
    this.graph.initializer.push(int64Tensor(name, [data.length], data));
    return name;
  }
  scalar(value: number): string {
    return this.constFloat([], [value], "scalar");
  }
}
