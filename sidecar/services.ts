// Every gRPC service the sidecar serves. A service module exports one SidecarService;
// add it to this list to serve it (and have health report it as SERVING).
import type * as grpc from "@grpc/grpc-js";
import { metascoreService } from "./metascore/service.ts";
import { telemetryService } from "./telemetry/service.ts";
import { registryService } from "./registry/heartbeat.ts";
import { inferenceService } from "./inference/service.ts";
import { evaluationService } from "./inference/evaluation/service.ts";
import { inspectionService } from "./inspection/service.ts";
import { conceptsService } from "./concepts/service.ts";
import { vqaService } from "./vqa/service.ts";
import { kitsService } from "./kit/service.ts";
import { segmentationService } from "./inference/segmentation/service.ts";
import { treeService } from "./tree/service.ts";
import { multiLabelService } from "./inference/multilabel/service.ts";
import { sebowService } from "./sebow/service.ts";

export interface SidecarService {
  /** Fully-qualified service name, e.g. "metarank.v1.Metascore" (what health checks ask for). */
  name: string;
  register(server: grpc.Server): void | Promise<void>;
  /** Called once the server is bound (background loops: heartbeats, samplers). */
  start?(info: { port: number; callKey: string }): void | Promise<void>;
  /** Ends background loops and worker pools; awaited before the process exits. */
  stop?(): void | Promise<void>;
}

export const SERVICES: SidecarService[] = [
  metascoreService,
  telemetryService,
  registryService,
  inferenceService,
  evaluationService,
  inspectionService,
  conceptsService,
  vqaService,
  kitsService,
  segmentationService,
  treeService,
  multiLabelService,
  sebowService,
];
