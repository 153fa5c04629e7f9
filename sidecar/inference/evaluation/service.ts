// gRPC service metarank.v1.Evaluation (proto/metarank/v1/evaluation.proto): the same
// MoRF/LeRF evaluation as `npm run -s evaluate`, run for the web app's queue jobs.
// Everything a caller can get wrong (suite, tasks, method, parameters, limit, a task
// whose checkpoint is not installed here) is checked before any thread starts and
// answered INVALID_ARGUMENT, so the app's queue fails the job at once instead of
// retrying it. Each Run gets its own worker pool, because cancelling a run (the client
// cancels the call) terminates the pool's threads — the only way to stop an image
// mid-attribution — and a shared pool would take other runs down with it.
import * as grpc from "@grpc/grpc-js";
import { grpcError, metarankV1 } from "../../../proto/contract.ts";
import { logger } from "../../log.ts";
import type { SidecarService } from "../../services.ts";
import { ALGORITHMS, getAlgorithm, AttributionParamError } from "../attribution/index.ts";
import { resolveParams } from "../attribution/types.ts";
import type { MethodRun } from "./run.ts";
import { requestedSuite, streamEvaluation } from "./streamRun.ts";
import { runMaps } from "./runMaps.ts";
import { BadEvaluationRequest, listSuiteConfigs, splitImages } from "./runRules.ts";
import type { SuiteConfig } from "./suite.ts";
import { TaskUnavailableError, suiteCheckpoints, suiteTaskAvailability } from "./taskCheckpoints.ts";
import type { EvaluationHandlers } from "../../../proto/generated/metarank/v1/Evaluation.ts";
import type { EvaluationSuite } from "../../../proto/generated/metarank/v1/EvaluationSuite.ts";

const PROTO = "metarank/v1/evaluation.proto" as const;

/** The suite's baseline parameters for a method, when its "evaluation" block lists it. */
export function baselineParams(suite: SuiteConfig, method: string): Record<string, unknown> | undefined {
  return suite.evaluation?.methods.find((m) => m.algorithm === method)?.params;
}

export interface CheckedRun {
  suite: SuiteConfig;
  run: MethodRun;
}

/** Every check of a Run request that needs no thread; BadEvaluationRequest says what to change. */
export function checkRunRequest(
  req: { suiteId?: string; method?: string; paramsJson?: string; limit?: number; tasks?: string[] },
  find: (id: string) => SuiteConfig | undefined = (id) => listSuiteConfigs().suites.find((s) => s.id === id),
): CheckedRun {
  const suite = requestedSuite(req.suiteId, find);
  const method = String(req.method ?? "").trim();
  if (!method) throw new BadEvaluationRequest(`method is required (one of ${Object.keys(ALGORITHMS).join(", ")})`);
  let algorithm;
  try {
    algorithm = getAlgorithm(method);
  } catch (err) {
    throw new BadEvaluationRequest((err as Error).message);
  }
  let params: Record<string, unknown> = baselineParams(suite, algorithm.name) ?? {};
  const text = String(req.paramsJson ?? "").trim();
  if (text) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new BadEvaluationRequest(`params_json is not valid JSON (${(err as Error).message}); give an object such as {"n_steps": 20} or leave it empty`);
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new BadEvaluationRequest('params_json must be a JSON object of parameter names to values, e.g. {"n_steps": 20}');
    }
    params = parsed as Record<string, unknown>;
  }
  try {
    // Names, types and ranges; checks that need the net (a GradCAM layer) happen per image.
    resolveParams(algorithm.name, algorithm.params, params);
  } catch (err) {
    if (err instanceof AttributionParamError) throw new BadEvaluationRequest(err.message);
    throw err;
  }
  const max = splitImages(suite);
  const limit = Number(req.limit ?? 0);
  if (!Number.isInteger(limit) || limit < 1 || limit > max) {
    throw new BadEvaluationRequest(
      `limit must be a whole number from 1 to ${max} (suite ${suite.id} evaluates the first ${max} images of each task's test split); got ${req.limit}`,
    );
  }
  const wanted = (req.tasks ?? []).map((t) => String(t).trim()).filter(Boolean);
  for (const t of wanted) {
    if (!suite.tasks.includes(t)) throw new BadEvaluationRequest(`suite ${suite.id} has no task "${t}" (tasks: ${suite.tasks.join(", ")})`);
  }
  const tasks = wanted.length > 0 ? suite.tasks.filter((t) => wanted.includes(t)) : suite.tasks;
  const missing = tasks.map((t) => suiteTaskAvailability(suite, t)).filter((a) => !a.available);
  if (missing.length > 0) {
    throw new BadEvaluationRequest(
      `${missing.length === 1 ? "a task's checkpoint is" : `${missing.length} tasks' checkpoints are`} not installed on this sidecar: ${missing.map((m) => m.problem).join("; ")}. Install the checkpoint or choose other tasks.`,
    );
  }
  return { suite, run: { algorithm: algorithm.name, params, tasks, images: limit } };
}

function suiteToProto(s: SuiteConfig): EvaluationSuite {
  return {
    id: s.id,
    name: s.name,
    tasks: s.tasks.map((t) => suiteTaskAvailability(s, t)),
    splitImages: splitImages(s),
    grid: s.settings.grid,
    patchSize: s.settings.patchSize,
    baselineParams: Object.fromEntries((s.evaluation?.methods ?? []).map((m) => [m.algorithm, JSON.stringify(m.params)])),
  };
}

/** Runs in progress, so stopping the sidecar stops their threads instead of leaving them to finish. */
const activeRuns = new Set<AbortController>();
/** How many Run calls are evaluating right now (tests check that a cancelled run is gone). */
export const activeRunCount = () => activeRuns.size;

export function evaluationHandlers(opts: { loaderModule?: string; backend?: string } = {}): EvaluationHandlers {
  return {
    ListSuites(_call, cb) {
      try {
        const { suites, problems } = listSuiteConfigs();
        cb(null, {
          suites: suites.map(suiteToProto),
          methods: Object.values(ALGORITHMS).map((a) => ({ name: a.name, description: a.description })),
          problems,
        });
      } catch (err) {
        logger.error({ err }, "Evaluation.ListSuites failed");
        cb(grpcError(grpc.status.INTERNAL, `ListSuites failed: ${(err as Error).message}`));
      }
    },

    async Run(call) {
      let checked: CheckedRun;
      try {
        checked = checkRunRequest(call.request ?? {});
      } catch (err) {
        if (err instanceof BadEvaluationRequest || err instanceof TaskUnavailableError) {
          call.emit("error", grpcError(grpc.status.INVALID_ARGUMENT, err.message));
          return;
        }
        logger.error({ err }, "Evaluation.Run check failed");
        call.emit("error", grpcError(grpc.status.INTERNAL, `Run failed: ${(err as Error).message}`));
        return;
      }
      const { suite, run } = checked;
      await streamEvaluation(call, activeRuns, {
        suite,
        run,
        backend: opts.backend,
        loaderModule: opts.loaderModule,
        rpc: "Evaluation.Run",
        method: run.algorithm,
        noun: "evaluation",
        subject: `evaluation of ${run.algorithm} on ${suite.id}`,
        // The CLI's images.json, so a web run can be compared image by image with a committed baseline.
        record: (backend, outcome) => ({
          imagesJson: JSON.stringify({
            suite: suite.id,
            algorithm: run.algorithm,
            params: run.params,
            backend,
            images: run.images,
            settings: suite.settings,
            checkpoints: suiteCheckpoints(suite, run.tasks),
            tasks: outcome.perImage,
          }),
          paramsJson: JSON.stringify(run.params),
        }),
      });
    },

    // runMaps.ts; the same cap on concurrent runs as Run.
    RunMaps(call) {
      return runMaps(call, { activeRuns, backend: opts.backend, loaderModule: opts.loaderModule });
    },
  };
}

export const evaluationService: SidecarService = {
  name: "metarank.v1.Evaluation",
  register(server) {
    server.addService(metarankV1(PROTO).Evaluation.service, evaluationHandlers());
  },
  async stop() {
    for (const ctrl of activeRuns) ctrl.abort();
    // Each run closes its pool as it ends; the process exits only once they are closed.
    const until = Date.now() + 10_000;
    while (activeRuns.size && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  },
};
