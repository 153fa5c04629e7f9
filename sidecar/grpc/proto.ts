// Loads .proto files from the repository's proto/ folder. The sidecar and the app
// meet only in proto/, so each side has its own tiny loader.
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

export const PROTO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../proto");

export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: false,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_ROOT],
};

const cache = new Map<string, grpc.GrpcObject>();

/** Load one proto file (path relative to proto/, e.g. "metarank/v1/metascore.proto"). */
export function loadProto(file: string): grpc.GrpcObject {
  let pkg = cache.get(file);
  if (!pkg) {
    const def = protoLoader.loadSync(file, LOADER_OPTIONS);
    pkg = grpc.loadPackageDefinition(def);
    cache.set(file, pkg);
  }
  return pkg;
}

/** The `metarank.v1` namespace of a loaded proto file. */
export function metarankV1(file: string): grpc.GrpcObject {
  const root = loadProto(file) as any;
  return root.metarank.v1 as grpc.GrpcObject;
}

/** A gRPC error with a status code and a message a person can act on. */
export function grpcError(code: grpc.status, message: string): grpc.ServiceError {
  const err = new Error(message) as grpc.ServiceError;
  err.code = code;
  err.details = message;
  err.metadata = new grpc.Metadata();
  return err;
}
