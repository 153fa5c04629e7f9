// Loads the gRPC contract from this folder, typed by the code that `make proto` generates into
// proto/generated/ (docs/grpc.md). The sidecar and the web app meet only in proto/: both load
// the same files with the same options through this module.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import type { ProtoGrpcType as ConceptsProto } from "./generated/concepts.ts";
import type { ProtoGrpcType as EvaluationProto } from "./generated/evaluation.ts";
import type { ProtoGrpcType as InferenceProto } from "./generated/inference.ts";
import type { ProtoGrpcType as InspectionProto } from "./generated/inspection.ts";
import type { ProtoGrpcType as KitProto } from "./generated/kit.ts";
import type { ProtoGrpcType as MetascoreProto } from "./generated/metascore.ts";
import type { ProtoGrpcType as MultiLabelProto } from "./generated/multilabel.ts";
import type { ProtoGrpcType as SebowProto } from "./generated/sebow.ts";
import type { ProtoGrpcType as SegmentationProto } from "./generated/segmentation.ts";
import type { ProtoGrpcType as TelemetryProto } from "./generated/telemetry.ts";
import type { ProtoGrpcType as TreeProto } from "./generated/tree.ts";
import type { ProtoGrpcType as VqaProto } from "./generated/vqa.ts";

/**
 * This folder. Bundled into the web app's build, this module no longer sits in it, so the
 * folder is then found from the working directory (both processes start at the repository root).
 */
export const PROTO_ROOT =
  [path.dirname(fileURLToPath(import.meta.url)), path.resolve(process.cwd(), "proto")].find((dir) =>
    fs.existsSync(path.join(dir, "metarank/v1/inference.proto")),
  ) ?? path.resolve(process.cwd(), "proto");

/** The options the generated types assume (Makefile PROTO_GEN): camelCase fields, numbers, enum names, defaults, oneofs. */
export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: false,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_ROOT],
};

/** Each contract file and the generated type of what it loads. */
export interface ContractFiles {
  "metarank/v1/concepts.proto": ConceptsProto;
  "metarank/v1/evaluation.proto": EvaluationProto;
  "metarank/v1/inference.proto": InferenceProto;
  "metarank/v1/inspection.proto": InspectionProto;
  "metarank/v1/kit.proto": KitProto;
  "metarank/v1/metascore.proto": MetascoreProto;
  "metarank/v1/multilabel.proto": MultiLabelProto;
  "metarank/v1/sebow.proto": SebowProto;
  "metarank/v1/segmentation.proto": SegmentationProto;
  "metarank/v1/telemetry.proto": TelemetryProto;
  "metarank/v1/tree.proto": TreeProto;
  "metarank/v1/vqa.proto": VqaProto;
}

const cache = new Map<string, grpc.GrpcObject>();

/** Loads one contract file (path relative to proto/) as its generated type. */
export function loadContract<F extends keyof ContractFiles>(file: F): ContractFiles[F] {
  let pkg = cache.get(file);
  if (!pkg) {
    pkg = grpc.loadPackageDefinition(protoLoader.loadSync(file, LOADER_OPTIONS));
    cache.set(file, pkg);
  }
  // The generated ProtoGrpcType describes exactly what loadPackageDefinition returns for this file.
  return pkg as unknown as ContractFiles[F];
}

/** The `metarank.v1` namespace of a contract file. */
export function metarankV1<F extends keyof ContractFiles>(file: F): ContractFiles[F]["metarank"]["v1"] {
  return loadContract(file).metarank.v1;
}

/** A gRPC error with a status code and a message a person can act on. */
export function grpcError(code: grpc.status, message: string): grpc.ServiceError {
  const err = new Error(message) as grpc.ServiceError;
  err.code = code;
  err.details = message;
  err.metadata = new grpc.Metadata();
  return err;
}
