// What Evaluation.Run and Evaluation.RunMaps do once a request has passed its checks
// (service.ts, runMaps.ts; docs/evaluation.md "Running an evaluation from the web app"): the cap
// on concurrent runs, a worker pool of the run's own, progress with an ETA over the whole run,
// the result files, and cancellation. The two differ only in what their images.json and
// params.json record and in the words of their logs and failure.
import * as grpc from "@grpc/grpc-js";
import { grpcError } from "../../../proto/contract.ts";
import { logger } from "../../log.ts";
import { EvaluationCancelled } from "./engine.ts";
import { etaEstimator } from "./eta.ts";
import { EvaluationPool } from "./pool.ts";
import { localisationJson, resultCsv } from "./resultFiles.ts";
import { evaluateMethod, type MethodOutcome, type MethodRun } from "./run.ts";
import { BadEvaluationRequest, evaluationWorkers, listSuiteConfigs, maxConcurrentRuns } from "./runRules.ts";
import type { SuiteConfig } from "./suite.ts";
import type { EvaluationEvent } from "../../../proto/generated/metarank/v1/EvaluationEvent.ts";
import type { EvaluationProgress } from "../../../proto/generated/metarank/v1/EvaluationProgress.ts";
import type { EvaluationResult } from "../../../proto/generated/metarank/v1/EvaluationResult.ts";

/** The suite a request names; BadEvaluationRequest when it names none or one this sidecar lacks. */
export function requestedSuite(
  suiteId: string | undefined,
  find: (id: string) => SuiteConfig | undefined = (id) => listSuiteConfigs().suites.find((s) => s.id === id),
): SuiteConfig {
  const id = String(suiteId ?? "").trim();
  if (!id) throw new BadEvaluationRequest("suite_id is required (a suite id from ListSuites, e.g. metarank-local)");
  const suite = find(id);
  if (!suite) {
    const known = listSuiteConfigs().suites.map((s) => s.id);
    throw new BadEvaluationRequest(`unknown suite "${id}" (this sidecar can evaluate: ${known.join(", ") || "none"})`);
  }
  return suite;
}

export interface StreamedRun {
  suite: SuiteConfig;
  run: MethodRun;
  /** The sidecar's forced backend (tests, the CLI), else the suite's, else TENSOR_BACKEND. */
  backend?: string;
  loaderModule?: string;
  /** Log fields and words: `rpc`, the method's name, and the noun of the log lines ("evaluation", "maps evaluation"). */
  rpc: string;
  method: string;
  noun: string;
  /** The INTERNAL message's subject, e.g. "evaluation of Saliency on metarank-local". */
  subject: string;
  /** What the result's images.json and params.json record besides the per-image outcomes. */
  record(backend: string, outcome: MethodOutcome): { imagesJson: string; paramsJson: string };
}

/**
 * Runs a checked request on the call's stream. `activeRuns` is the service's set of runs in
 * progress, shared by Run and RunMaps so that the cap counts both.
 */
export async function streamEvaluation(
  call: grpc.ServerWritableStream<unknown, EvaluationEvent>,
  activeRuns: Set<AbortController>,
  r: StreamedRun,
): Promise<void> {
  const { suite, run } = r;
  // Capped before any thread starts: a further run is refused at once, and the app's queue job
  // retries it later (app/.server/queue.server.ts isRetryable).
  if (activeRuns.size >= maxConcurrentRuns()) {
    call.emit(
      "error",
      grpcError(grpc.status.RESOURCE_EXHAUSTED, `This compute server is already running ${activeRuns.size} evaluation run(s), its limit; try again later.`),
    );
    return;
  }
  const ctrl = new AbortController();
  activeRuns.add(ctrl);
  let finished = false;
  // The client went away (cancelled, deadline, connection lost): stop the threads.
  call.on("cancelled", () => ctrl.abort());
  const backend = r.backend ?? suite.evaluation?.backend ?? process.env.TENSOR_BACKEND ?? "auto";
  const pool = new EvaluationPool({ workers: evaluationWorkers(), backend, loaderModule: r.loaderModule });
  const total = run.tasks.length * run.images;
  const timeLeft = etaEstimator(total);
  const log = { rpc: r.rpc, suite: suite.id, method: r.method, images: run.images, tasks: run.tasks.length };
  logger.info(log, `${r.noun} started`);
  try {
    const outcome = await evaluateMethod(suite, run, pool, {
      signal: ctrl.signal,
      onProgress: (p) => {
        if (call.cancelled || !call.writable) return;
        const done = (p.taskNumber - 1) * run.images + p.done;
        const progress: EvaluationProgress = { imagesDone: done, imagesTotal: total, task: p.task, taskNumber: p.taskNumber, taskCount: p.taskCount };
        // Over the whole run, not the current task's rate alone (which restarts, with loading
        // the next net, at every task).
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
      ...r.record(backend, outcome),
      tasks: run.tasks,
      imagesPerTask: run.images,
      seconds: outcome.seconds,
      backend,
    };
    if (!call.cancelled) {
      call.write({ result });
      finished = true;
    }
    logger.info({ ...log, seconds: outcome.seconds }, `${r.noun} finished`);
  } catch (err) {
    if (err instanceof EvaluationCancelled || ctrl.signal.aborted) {
      logger.info(log, `${r.noun} cancelled by the client`);
      if (!call.cancelled) call.emit("error", grpcError(grpc.status.CANCELLED, "evaluation cancelled"));
      return;
    }
    logger.error({ ...log, err }, `${r.noun} failed`);
    if (!call.cancelled) call.emit("error", grpcError(grpc.status.INTERNAL, `${r.subject} failed: ${(err as Error).message}`));
  } finally {
    // The run counts until its threads are gone: a stopping sidecar waits for that. Its stream
    // ends only then, so a caller that starts the next run on hearing the end finds the room free
    // (a regeneration shard queue does exactly that).
    await pool.close().finally(() => activeRuns.delete(ctrl));
    if (finished && !call.cancelled) call.end();
  }
}
