// The ONNX ModelProto subset (onnx.proto beside this file), loaded once for every reader and
// writer of ONNX files in the sidecar: the importer, the exporter and the engine
// (sidecar/engine/onnxModel.ts), with the decoded shapes they share.
import path from "node:path";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";

const PROTO_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), "onnx.proto");
let modelType: protobuf.Type | null = null;
export function modelProto(): protobuf.Type {
  return (modelType ??= protobuf.loadSync(PROTO_FILE).lookupType("onnx.ModelProto"));
}

/** A decoded TensorProto (toObject with longs as numbers). */
export interface TensorMsg {
  name?: string;
  dims?: number[];
  dataType?: number;
  floatData?: number[];
  int32Data?: number[];
  int64Data?: number[];
  rawData?: Uint8Array;
}
/** A decoded AttributeProto. */
export interface AttrMsg {
  name: string;
  type?: number;
  f?: number;
  i?: number;
  s?: Uint8Array;
  t?: TensorMsg;
  floats?: number[];
  ints?: number[];
}
