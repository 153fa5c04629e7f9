// Evaluation.RunMaps (proto/metarank/v1/evaluation.proto; docs/evaluation.md "Path 2: attribution
// maps from any framework"): MoRF and LeRF on a suite's models with attribution maps a researcher
// computed in any framework and uploaded as one .npy per task. No method runs here: the maps decide
// the removal orders, the platform's own models and images decide the outcomes, so the numbers are
// the platform's. Everything the caller can get wrong (suite, a task missing or unknown, shape,
// count, dtype, NaN, a checkpoint not installed) is answered INVALID_ARGUMENT before any thread
// starts; cancellation is Run's.
import crypto from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { grpcError } from "../../../proto/contract.ts";
import { logger } from "../../log.ts";
import { readManifest } from "../../zoo/checkpoint.ts";
import { MapsError, validateMaps } from "./maps.ts";
import type { MethodRun } from "./run.ts";
import { requestedSuite, streamEvaluation } from "./streamRun.ts";
import { BadEvaluationRequest, listSuiteConfigs, splitImages } from "./runRules.ts";
import type { SuiteConfig } from "./suite.ts";
import { suiteCheckpoints, suiteTaskAvailability } from "./taskCheckpoints.ts";
import type { EvaluationEvent } from "../../../proto/generated/metarank/v1/EvaluationEvent.ts";
import type { RunMapsRequest } from "../../../proto/generated/metarank/v1/RunMapsRequest.ts";

/** Longest method name recorded in images.json. */
export const MAX_METHOD_NAME = 200;

export interface CheckedMapsRun {
  suite: SuiteConfig;
  methodName: string;
  run: MethodRun;
  /** SHA-256 (hex) of each task's .npy bytes as received. */
  sha256: Record<string, string>;
}

/** Every check of a RunMaps request; BadEvaluationRequest's message is for the researcher. */
export function checkRunMapsRequest(
  req: RunMapsRequest,
  find: (id: string) => SuiteConfig | undefined = (id) => listSuiteConfigs().suites.find((s) => s.id === id),
): CheckedMapsRun {
  const suite = requestedSuite(req.suiteId, find);
  // Control characters would garble the record and the logs.
  const methodName = String(req.methodName ?? "")
    .replace(/\p{Cc}/gu, " ")
    .trim();
  if (!methodName) throw new BadEvaluationRequest("method_name is required: the name of the method that computed the maps");
  if (methodName.length > MAX_METHOD_NAME) throw new BadEvaluationRequest(`method_name is ${methodName.length} characters long; at most ${MAX_METHOD_NAME}`);
  const files = (req.maps ?? []).map((m) => ({ task: String(m.task ?? "").trim(), npy: m.npy instanceof Uint8Array ? m.npy : new Uint8Array() }));
  // Availability first: a task whose checkpoint is missing has no input shape to check against.
  const availability = suite.tasks.map((t) => suiteTaskAvailability(suite, t));
  const missing = availability.filter((a) => !a.available);
  if (missing.length > 0) {
    throw new BadEvaluationRequest(
      `suite ${suite.id} cannot be evaluated on this sidecar: ${missing.map((m) => m.problem).join("; ")}. Install the checkpoints or use another compute server.`,
    );
  }
  const shapes = Object.fromEntries(availability.map((a) => [a.id, readManifest(a.checkpointId).inputShape] as const));
  const images = splitImages(suite);
  let maps: Record<string, Float32Array>;
  try {
    maps = validateMaps({ id: suite.id, tasks: suite.tasks, images }, shapes, files);
  } catch (err) {
    if (err instanceof MapsError) throw new BadEvaluationRequest(err.message);
    throw err;
  }
  const sha256 = Object.fromEntries(
    suite.tasks.map((t) => [
      t,
      crypto
        .createHash("sha256")
        .update(files.find((f) => f.task === t)!.npy)
        .digest("hex"),
    ]),
  );
  return { suite, methodName, sha256, run: { algorithm: methodName, params: {}, tasks: [...suite.tasks], images, maps } };
}

export interface RunMapsContext {
  /** The service's runs in progress (shared with Run, so the cap counts both). */
  activeRuns: Set<AbortController>;
  backend?: string;
  loaderModule?: string;
}

export async function runMaps(call: grpc.ServerWritableStream<RunMapsRequest, EvaluationEvent>, ctx: RunMapsContext): Promise<void> {
  let checked: CheckedMapsRun;
  try {
    checked = checkRunMapsRequest(call.request ?? {});
  } catch (err) {
    if (err instanceof BadEvaluationRequest) {
      call.emit("error", grpcError(grpc.status.INVALID_ARGUMENT, err.message));
      return;
    }
    logger.error({ err }, "Evaluation.RunMaps check failed");
    call.emit("error", grpcError(grpc.status.INTERNAL, `RunMaps failed: ${(err as Error).message}`));
    return;
  }
  const { suite, run, methodName, sha256 } = checked;
  await streamEvaluation(call, ctx.activeRuns, {
    suite,
    run,
    backend: ctx.backend,
    loaderModule: ctx.loaderModule,
    rpc: "Evaluation.RunMaps",
    method: methodName,
    noun: "maps evaluation",
    subject: `evaluation of the maps on ${suite.id}`,
    record: (backend, outcome) => ({
      imagesJson: JSON.stringify({
        suite: suite.id,
        // The maps were supplied, not computed here: which method the researcher says made them,
        // and the exact bytes (SHA-256 per task) the numbers come from.
        source: "maps",
        method: methodName,
        mapsSha256: sha256,
        backend,
        images: run.images,
        settings: suite.settings,
        checkpoints: suiteCheckpoints(suite, run.tasks),
        tasks: outcome.perImage,
      }),
      paramsJson: "{}",
    }),
  });
}
