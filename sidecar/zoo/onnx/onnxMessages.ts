// The parts of an ONNX model the importer (importOnnx.ts) reads, as decoded from the protobuf, with
// the import's limits and its error, and a TensorProto's values read into a constant.
import os from "node:os";
import { fromHalf } from "../half.ts";
import type { AttrMsg, TensorMsg } from "./proto.ts";

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
export const MAX_INT_CONSTANT = 64;

/** The file cannot be imported; the message says why (an unsupported operator names itself and its node). */
export class OnnxImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OnnxImportError";
  }
}

// The decoded messages (toObject with longs as numbers), as far as the importer reads them.
export interface NodeMsg {
  name?: string;
  opType?: string;
  domain?: string;
  input?: string[];
  output?: string[];
  attribute?: AttrMsg[];
}
export interface DimMsg {
  dimValue?: number;
  dimParam?: string;
}
export interface ValueInfoMsg {
  name: string;
  type?: { tensorType?: { elemType?: number; shape?: { dim?: DimMsg[] } } };
}
export interface ModelMsg {
  irVersion?: number;
  producerName?: string;
  producerVersion?: string;
  opsetImport?: Array<{ domain?: string; version?: number }>;
  graph?: { node?: NodeMsg[]; initializer?: TensorMsg[]; input?: ValueInfoMsg[]; output?: ValueInfoMsg[] };
}

/** TensorProto.DataType values the importer reads. */
export const DT = { FLOAT: 1, INT32: 6, INT64: 7, FLOAT16: 10, DOUBLE: 11 } as const;

export interface Constant {
  dims: number[];
  /** Float values (float16/32/64 tensors) or integer values (int32/int64 tensors). */
  data: Float32Array | number[];
  integer: boolean;
}

const LITTLE_ENDIAN = os.endianness() === "LE";
export const count = (dims: number[]): number => dims.reduce((a, b) => a * b, 1);

export function tensorValues(t: TensorMsg, what: string): Constant {
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
