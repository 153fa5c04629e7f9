// What a request will cost before it runs (issue 11 "every job has a cost bound"): the number of
// model evaluations (forward passes; a gradient counts as two) an attribution method makes on a
// model's input, from its parameters. Above SIDECAR_MAX_EVALUATIONS a request is refused with a
// message naming the parameters that drive the cost; below it, the job gets a time limit in
// proportion (docs/security.md "Compute bounds").
import { ALGORITHMS } from "./attribution/index.ts";
import { resolveParams, type ParamValue } from "./attribution/types.ts";

export const DEFAULT_MAX_EVALUATIONS = 5000;
/** Generous for the wasm backend on two cores (about 3.5 ms per evaluation of the 28 px ResNet, 10 ms for the 32 px nets). */
export const DEFAULT_MS_PER_EVALUATION = 10;
export const DEFAULT_JOB_TIME_LIMIT_MS = 120_000;
const BASE_MS = 10_000;

export interface Cost {
  /** Model evaluations (forward-pass equivalents). */
  evaluations: number;
  /** The parameters that set the count, as the message names them. */
  drivers: string[];
}

type Shape = readonly [number, number, number];

const GRADIENT = 2;

function windowsOf(extent: number, win: number, stride: number): number {
  return extent >= win ? Math.floor((extent - win) / stride) + 1 : 1;
}

/** Cost of one explanation; null when the parameters are not valid (the worker then says why). */
export function explainCost(algorithm: string, params: Record<string, unknown>, [h, w, c]: Shape): Cost | null {
  const spec = ALGORITHMS[algorithm];
  if (!spec) return null;
  let p: Record<string, ParamValue | null>;
  try {
    p = resolveParams(algorithm, spec.params, params);
  } catch {
    return null;
  }
  const n = (name: string) => Number(p[name]);
  const said = (...names: string[]) => names.map((k) => `${k}=${p[k]}`);
  switch (algorithm) {
    case "IntegratedGradients":
      return { evaluations: GRADIENT * n("n_steps"), drivers: said("n_steps") };
    case "IG_with_noise_tunnel":
      return { evaluations: GRADIENT * n("n_steps") * n("nt_samples"), drivers: said("nt_samples", "n_steps") };
    case "SmoothGrad":
      return { evaluations: GRADIENT * n("nt_samples"), drivers: said("nt_samples") };
    case "NoiseTunnel": {
      const inner = p.base === "IntegratedGradients" ? n("n_steps") : 1;
      return {
        evaluations: GRADIENT * n("nt_samples") * inner,
        drivers: p.base === "IntegratedGradients" ? said("nt_samples", "n_steps") : said("nt_samples"),
      };
    }
    case "GradientShap":
      return { evaluations: GRADIENT * n("n_samples"), drivers: said("n_samples") };
    case "FeatureAblation": {
      const kind = p.feature_mask;
      const cell = n("superpixel_size");
      const features = kind === "elements" ? h * w * c : kind === "pixels" ? h * w : Math.ceil(h / cell) * Math.ceil(w / cell);
      return { evaluations: features + 1, drivers: kind === "grid" ? said("feature_mask", "superpixel_size") : said("feature_mask") };
    }
    case "Lime":
    case "KernelShap":
      return { evaluations: n("n_samples") + 1, drivers: said("n_samples") };
    case "Occlusion":
    case "Occlusion_using_larger_sliding_window": {
      const [w224, s224] = algorithm === "Occlusion" ? [15, 8] : [60, 50];
      const scaled = (at224: number) => Math.max(1, Math.min(h, Math.round((at224 * h) / 224)));
      const win = p.window === null ? scaled(w224) : n("window");
      const stride = p.stride === null ? scaled(s224) : n("stride");
      return { evaluations: windowsOf(h, win, stride) * windowsOf(w, win, stride) + 1, drivers: said("window", "stride") };
    }
    default:
      // Gradient-based single-pass methods (Saliency, InputXGradient, GuidedBackprop, Deconvolution, GradCAM, …).
      return { evaluations: GRADIENT, drivers: [] };
  }
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

/** The job's time limit: in proportion to its cost, never above the hard limit. */
export function timeLimitMs(cost: Cost | null, bounds: Bounds): number {
  if (!cost) return bounds.hardLimitMs;
  return Math.min(bounds.hardLimitMs, BASE_MS + cost.evaluations * bounds.msPerEvaluation);
}
