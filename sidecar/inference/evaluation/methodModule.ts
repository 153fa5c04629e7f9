// A researcher's own attribution method as a TypeScript/JavaScript module (issue 13 §2 path 1,
// `npm run -s evaluate -- --method-module ./myMethod.ts`): its default export, or a named
// export `attribute`, has the registry's uniform signature (AttributionAlgorithm.run in
// attribution/types.ts) — (net, input [1, H, W, C], target class, params) → { attribution } —
// and it may export `name` (shown in images.json) and `description`. The evaluation threads
// import it by absolute file URL, so each thread has its own copy next to its own runtime.
import path from "node:path";
import { pathToFileURL } from "node:url";
import type * as tf from "@tensorflow/tfjs";
import type { Net } from "../net.ts";
import type { AttributionAlgorithm, AttributionResult } from "../attribution/types.ts";

export type AttributeFunction = (
  net: Net,
  input: tf.Tensor4D,
  target: number,
  params: Record<string, unknown>,
) => AttributionResult | Promise<AttributionResult>;

/** A module that does not provide a usable method; the message says what it must export. */
export class MethodModuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MethodModuleError";
  }
}

/** A path given on the command line (relative to the working directory) as the file URL threads import. */
export function methodModuleUrl(file: string): string {
  return pathToFileURL(path.resolve(file)).href;
}

const SHAPE = "export default function attribute(net, input, target, params) { …; return { attribution } }";

/** Imports a method module and wraps its function as a registry entry (no parameters declared: `params` pass through). */
export async function loadMethodModule(url: string): Promise<AttributionAlgorithm> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(url)) as Record<string, unknown>;
  } catch (err) {
    throw new MethodModuleError(`method module ${url} could not be loaded: ${(err as Error)?.message ?? String(err)}`);
  }
  const fn = typeof mod.default === "function" ? mod.default : mod.attribute;
  if (typeof fn !== "function") {
    throw new MethodModuleError(`method module ${url} exports no function: give it a default export or a named export "attribute" (${SHAPE})`);
  }
  const attribute = fn as AttributeFunction;
  const name = typeof mod.name === "string" && mod.name.trim() ? mod.name.trim() : path.basename(new URL(url).pathname).replace(/\.[cm]?[jt]s$/, "");
  return {
    name,
    description: typeof mod.description === "string" ? mod.description : `method module ${url}`,
    params: [],
    hasBaseline: false,
    // A module's cost is unknown; the CLI runs it on the researcher's own machine, unbounded.
    cost: () => ({ evaluations: 0, drivers: [] }),
    async run(net, input, target, params) {
      const res = await attribute(net, input, target, params);
      const a = (res as Partial<AttributionResult> | undefined)?.attribution;
      if (!a || typeof a !== "object" || !Array.isArray((a as tf.Tensor).shape)) {
        throw new MethodModuleError(`method ${name} returned no attribution tensor: return { attribution } with a tensor of the input's shape [1, H, W, C]`);
      }
      return res;
    },
  };
}
