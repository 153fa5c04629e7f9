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
import { EvaluationCancelled } from "./engine.ts";
import { MapsError, validateMaps } from "./maps.ts";
import { EvaluationPool } from "./pool.ts";
import { localisationJson, resultCsv } from "./resultFiles.ts";
import { evaluateMethod, type MethodRun } from "./run.ts";
import { BadEvaluationRequest, evaluationWorkers, listSuiteConfigs, maxConcurrentRuns, splitImages } from "./runRules.ts";
import type { SuiteConfig } from "./suite.ts";
import { suiteCheckpoints, suiteTaskAvailability } from "./taskCheckpoints.ts";
import type { EvaluationEvent } from "../../../proto/generated/metarank/v1/EvaluationEvent.ts";
import { etaEstimator } from "./eta.ts";
import type { EvaluationProgress } from "../../../proto/generated/metarank/v1/EvaluationProgress.ts";
import type { EvaluationResult } from "../../../proto/generated/metarank/v1/EvaluationResult.ts";
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
  const suiteId = String(req.suiteId ?? "").trim();
  if (!suiteId) throw new BadEvaluationRequest("suite_id is required (a suite id from ListSuites, e.g. metarank-local)");
  const suite = find(suiteId);
  if (!suite) {
    const known = listSuiteConfigs().suites.map((s) => s.id);
    throw new BadEvaluationRequest(`unknown suite "${suiteId}" (this sidecar can evaluate: ${known.join(", ") || "none"})`);
  }
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
  if (ctx.activeRuns.size >= maxConcurrentRuns()) {
    call.emit(
      "error",
      grpcError(grpc.status.RESOURCE_EXHAUSTED, `This compute server is already running ${ctx.activeRuns.size} evaluation run(s), its limit; try again later.`),
    );
    return;
  }
  const ctrl = new AbortController();
  ctx.activeRuns.add(ctrl);
  call.on("cancelled", () => ctrl.abort());
  const backend = ctx.backend ?? suite.evaluation?.backend ?? process.env.TENSOR_BACKEND ?? "auto";
  const pool = new EvaluationPool({ workers: evaluationWorkers(), backend, loaderModule: ctx.loaderModule });
  const total = run.tasks.length * run.images;
  const timeLeft = etaEstimator(total);
  const log = { rpc: "Evaluation.RunMaps", suite: suite.id, method: methodName, images: run.images, tasks: run.tasks.length };
  logger.info(log, "maps evaluation started");
  try {
    const outcome = await evaluateMethod(suite, run, pool, {
      signal: ctrl.signal,
      onProgress: (p) => {
        if (call.cancelled || !call.writable) return;
        const done = (p.taskNumber - 1) * run.images + p.done;
        const progress: EvaluationProgress = { imagesDone: done, imagesTotal: total, task: p.task, taskNumber: p.taskNumber, taskCount: p.taskCount };
        const eta = timeLeft(done);
        if (eta !== undefined) progress.etaSeconds = eta;
        call.write({ progress });
      },
    });
    const loc = localisationJson(run.tasks, outcome.summaries);
    const result: EvaluationResult = {
      morfCsv: resultCsv("morf", suite.settings.grid, run.tasks, outcome.summaries),
      lerfCsv: resultCsv("lerf", suite.settings.grid, run.tasks, outcome.summaries),
      localisation: Object.entries(loc).map(([task, share]) => (share === null ? { task } : { task, share })),
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
      tasks: run.tasks,
      imagesPerTask: run.images,
      seconds: outcome.seconds,
      backend,
    };
    if (!call.cancelled) {
      call.write({ result });
      call.end();
    }
    logger.info({ ...log, seconds: outcome.seconds }, "maps evaluation finished");
  } catch (err) {
    if (err instanceof EvaluationCancelled || ctrl.signal.aborted) {
      logger.info(log, "maps evaluation cancelled by the client");
      if (!call.cancelled) call.emit("error", grpcError(grpc.status.CANCELLED, "evaluation cancelled"));
      return;
    }
    logger.error({ ...log, err }, "maps evaluation failed");
    if (!call.cancelled) call.emit("error", grpcError(grpc.status.INTERNAL, `evaluation of the maps on ${suite.id} failed: ${(err as Error).message}`));
  } finally {
    // The run counts until its threads are gone: a stopping sidecar waits for that.
    await pool.close().finally(() => ctx.activeRuns.delete(ctrl));
  }
}
