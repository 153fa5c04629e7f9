// Shared vocabulary of the attribution algorithms: the registry entry shape, parameter
// specs and their validation, and the seeded random source used by the sampling
// methods (NoiseTunnel, GradientShap, Lime, KernelShap) so a result can be reproduced.
import type * as tf from "@tensorflow/tfjs";
import type { Net } from "../net.ts";

/** A parameter a person supplied is unknown, of the wrong type, or out of range. */
export class AttributionParamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AttributionParamError";
  }
}

export type ParamType = "int" | "float" | "bool" | "choice" | "string";
export type ParamValue = number | boolean | string;

export interface ParamSpec {
  name: string;
  type: ParamType;
  /** null: computed from the model or input when not given (e.g. the GradCAM layer). */
  default: ParamValue | null;
  min?: number;
  max?: number;
  choices?: string[];
  description?: string;
}

export interface AttributionResult {
  /** Same shape as the input, or the layer map [1, h, w, 1] for LayerGradCam. */
  attribution: tf.Tensor;
  /** Convergence delta Σattr − (F(x) − F(baseline)) where the method defines one. */
  delta?: number;
  /** The baseline the method compared against (its mean for a baseline distribution). */
  baseline?: tf.Tensor4D;
}

/** What one explanation costs before it runs (sidecar/inference/cost.ts, docs/security.md "Compute bounds"). */
export interface Cost {
  /** Model evaluations (forward-pass equivalents; a gradient counts as two). */
  evaluations: number;
  /** The parameters that set the count, as a refusal names them ("n_steps=50"). */
  drivers: string[];
}

/** A model's input: height, width, channels. */
export type InputShape = readonly [number, number, number];

export interface AttributionAlgorithm {
  name: string;
  description: string;
  params: ParamSpec[];
  hasBaseline: boolean;
  /** The cost of one run with these (resolved) parameters on this input shape. */
  cost(params: Record<string, ParamValue | null>, shape: InputShape): Cost;
  run(net: Net, input: tf.Tensor4D, target: number, params: Record<string, unknown>): Promise<AttributionResult>;
}

/**
 * Fills defaults and checks every supplied parameter against its spec. Unknown names,
 * wrong types and out-of-range values throw AttributionParamError naming the
 * parameter and what is allowed.
 */
export function resolveParams(algorithm: string, specs: ParamSpec[], params: Record<string, unknown> | undefined): Record<string, ParamValue | null> {
  const out: Record<string, ParamValue | null> = {};
  const given = params ?? {};
  for (const key of Object.keys(given)) {
    if (!specs.some((s) => s.name === key)) {
      const known = specs.map((s) => s.name).join(", ") || "none";
      throw new AttributionParamError(`${algorithm} has no parameter "${key}" (its parameters: ${known})`);
    }
  }
  for (const spec of specs) {
    const raw = given[spec.name];
    if (raw === undefined || raw === null || raw === "") {
      out[spec.name] = spec.default;
      continue;
    }
    out[spec.name] = coerce(algorithm, spec, raw);
  }
  return out;
}

function coerce(algorithm: string, spec: ParamSpec, raw: unknown): ParamValue {
  const where = `${algorithm} parameter "${spec.name}"`;
  switch (spec.type) {
    case "bool": {
      if (typeof raw === "boolean") return raw;
      if (raw === "true" || raw === 1 || raw === "1") return true;
      if (raw === "false" || raw === 0 || raw === "0") return false;
      throw new AttributionParamError(`${where} must be true or false (got ${JSON.stringify(raw)})`);
    }
    case "int":
    case "float": {
      const v = typeof raw === "number" ? raw : typeof raw === "string" ? Number(raw) : NaN;
      if (!Number.isFinite(v)) throw new AttributionParamError(`${where} must be a number (got ${JSON.stringify(raw)})`);
      if (spec.type === "int" && !Number.isInteger(v)) {
        throw new AttributionParamError(`${where} must be a whole number (got ${v})`);
      }
      if ((spec.min !== undefined && v < spec.min) || (spec.max !== undefined && v > spec.max)) {
        throw new AttributionParamError(`${where} must be between ${spec.min ?? "-∞"} and ${spec.max ?? "∞"} (got ${v})`);
      }
      return v;
    }
    case "choice": {
      const v = String(raw);
      if (!spec.choices?.includes(v)) {
        throw new AttributionParamError(`${where} must be one of ${spec.choices?.join(", ")} (got ${JSON.stringify(raw)})`);
      }
      return v;
    }
    case "string":
      if (typeof raw !== "string") throw new AttributionParamError(`${where} must be text (got ${JSON.stringify(raw)})`);
      return raw;
  }
}

/** Checks a target index against the net before any work is done. */
export function checkTarget(algorithm: string, net: Net, target: number): void {
  const classes = net.classNames.length;
  if (!Number.isInteger(target) || target < 0 || (classes > 0 && target >= classes)) {
    throw new AttributionParamError(`${algorithm}: target must be a class index from 0 to ${classes - 1} (got ${target})`);
  }
}

export const SEED_PARAM: ParamSpec = {
  name: "seed",
  type: "int",
  default: 0,
  min: 0,
  max: 2 ** 31 - 1,
  description: "random seed; the same seed gives the same attribution",
};
