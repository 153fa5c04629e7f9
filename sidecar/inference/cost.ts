// What a request will cost before it runs (every job has a cost bound: docs/security.md "Compute
// bounds"): the number of model evaluations (forward passes; a gradient counts as two) an
// attribution method makes on a model's input, from its parameters. Above SIDECAR_MAX_EVALUATIONS a
// request is refused with a message naming the parameters that drive the cost; below it, the job
// gets a time limit in proportion (docs/security.md "Compute bounds").
import { ALGORITHMS } from "./attribution/index.ts";
import { resolveParams, type Cost, type InputShape, type ParamValue } from "./attribution/types.ts";

export const DEFAULT_MAX_EVALUATIONS = 5000;
/** Generous for the wasm backend on two cores (about 3.5 ms per evaluation of the 28 px ResNet, 10 ms for the 32 px nets). */
export const DEFAULT_MS_PER_EVALUATION = 10;
export const DEFAULT_JOB_TIME_LIMIT_MS = 120_000;
const BASE_MS = 10_000;

export type { Cost } from "./attribution/types.ts";

/** Cost of one explanation; null when the parameters are not valid (the worker then says why). Each method's spec says its own cost. */
export function explainCost(algorithm: string, params: Record<string, unknown>, shape: InputShape): Cost | null {
  const spec = ALGORITHMS[algorithm];
  if (!spec) return null;
  let p: Record<string, ParamValue | null>;
  try {
    p = resolveParams(algorithm, spec.params, params);
  } catch {
    return null;
  }
  return spec.cost(p, shape);
}

export interface Bounds {
  maxEvaluations: number;
  msPerEvaluation: number;
  hardLimitMs: number;
}

export function boundsFromEnv(env: Record<string, string | undefined> = process.env): Bounds {
  const pos = (v: string | undefined, d: number) => (Number(v) > 0 ? Number(v) : d);
  return {
    maxEvaluations: pos(env.SIDECAR_MAX_EVALUATIONS, DEFAULT_MAX_EVALUATIONS),
    msPerEvaluation: pos(env.SIDECAR_MS_PER_EVALUATION, DEFAULT_MS_PER_EVALUATION),
    hardLimitMs: pos(env.SIDECAR_JOB_TIME_LIMIT_MS, DEFAULT_JOB_TIME_LIMIT_MS),
  };
}

/** The refusal message for a cost above the bound, or null when it may run. */
export function overBudget(algorithm: string, cost: Cost, bounds: Bounds): string | null {
  if (cost.evaluations <= bounds.maxEvaluations) return null;
  const by = cost.drivers.length ? ` with ${cost.drivers.join(", ")}` : "";
  return `${algorithm}${by} needs ${cost.evaluations} model evaluations; this server runs at most ${bounds.maxEvaluations} per request. Please lower ${cost.drivers.map((d) => d.split("=")[0]).join(" or ") || "the parameters"}.`;
}

/** The input size `msPerEvaluation` is measured at: the zoo's 32 × 32 networks. */
const REFERENCE_PIXELS = 32 * 32;

/**
 * How many reference evaluations one evaluation of a network with this input costs: a convolutional
 * network's work grows with its pixels, so a 224 px model's pass counts as 49 of the zoo's (ResNet-18
 * at 224 px takes 70 ms a forward on one core, the 32 px zoo nets 1–2 ms; docs/performance.md
 * "Engine"). Never below one: the 28 px nets keep the measured default.
 */
export function evaluationScale(shape: InputShape | null | undefined): number {
  return shape ? Math.max(1, (shape[0] * shape[1]) / REFERENCE_PIXELS) : 1;
}

/** The job's time limit: in proportion to its cost on this input size, never above the hard limit. */
export function timeLimitMs(cost: Cost | null, bounds: Bounds, shape?: InputShape | null): number {
  if (!cost) return bounds.hardLimitMs;
  return Math.min(bounds.hardLimitMs, BASE_MS + cost.evaluations * bounds.msPerEvaluation * evaluationScale(shape));
}
