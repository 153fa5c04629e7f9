// A researcher's own attribution method as a TypeScript/JavaScript module (docs/evaluation.md
// "Path 1: a method module in the platform's runtime",
// `npm run -s evaluate -- --method-module ./myMethod.ts`): its default export, or a named export `attribute`, has the registry's uniform
// signature (AttributionAlgorithm.run in attribution/types.ts) — (net, input [1, H, W, C], target
// class, params) → { attribution } — and it may export `name` (shown in images.json) and
// `description`. The evaluation threads import it by absolute file URL, so each thread has its own
// copy next to its own runtime. The module may live anywhere: methodModuleHooks.mjs resolves its
// bare imports of the platform's packages (the tensor library above all) from this checkout, and
// the function is also handed the platform's tf as a fifth argument, { tf }, for a module that
// imports nothing (docs/adding-an-attribution-method.md "A method module in your own folder").
import Module, { register } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as tf from "@tensorflow/tfjs";
import type { Net } from "../net.ts";
import type { AttributionAlgorithm, AttributionResult } from "../attribution/types.ts";

export type AttributeFunction = (
  net: Net,
  input: tf.Tensor4D,
  target: number,
  params: Record<string, unknown>,
  platform: MethodModuleContext,
) => AttributionResult | Promise<AttributionResult>;

/** What the platform hands a method module besides its inputs: its tensor library, the one `net` and `input` belong to. */
export interface MethodModuleContext {
  tf: typeof tf;
}

/** The checkout's root as a file URL with a trailing slash (this file is sidecar/inference/evaluation/). */
const PLATFORM_ROOT = new URL("../../../", import.meta.url).href;
let hooksRegistered = false;

/**
 * Registers the resolution hooks once in this thread (the CLI's thread and each evaluation
 * thread import the module, and Node keeps customization hooks per thread).
 */
export function registerMethodModuleResolution(): void {
  if (hooksRegistered) return;
  hooksRegistered = true;
  register(new URL("./methodModuleHooks.mjs", import.meta.url), { data: { platformRoot: PLATFORM_ROOT } });
  resolveRequiresFromPlatform(fileURLToPath(PLATFORM_ROOT));
}

type ResolveFilename = (request: string, parent: { filename?: string | null } | undefined, isMain: boolean, options?: { paths?: string[] }) => string;

/**
 * The same rule for CommonJS: a .ts file in a folder without `"type": "module"` (~/research has no
 * package.json) is compiled by tsx to CommonJS, whose require() does not pass through the hooks
 * above but through Module._resolveFilename (Node 20 has no in-thread resolution hooks). The
 * platform's tfjs is itself CommonJS (its package "main"), so a require resolved to the platform's
 * file is the very module instance the platform's ESM import loaded.
 */
function resolveRequiresFromPlatform(root: string): void {
  const M = Module as unknown as { _resolveFilename: ResolveFilename };
  const original = M._resolveFilename;
  const fromPlatform = { paths: [root] };
  M._resolveFilename = function (this: unknown, request, parent, isMain, options) {
    const file = parent?.filename;
    if (!file || file.startsWith(root) || !isBareSpecifier(request)) return original.call(this, request, parent, isMain, options);
    if (request.startsWith("@tensorflow/")) return original.call(this, request, parent, isMain, fromPlatform);
    try {
      return original.call(this, request, parent, isMain, options);
    } catch (err) {
      if ((err as NodeJS.ErrnoException)?.code !== "MODULE_NOT_FOUND") throw err;
      return original.call(this, request, parent, isMain, fromPlatform);
    }
  };
}

function isBareSpecifier(specifier: string): boolean {
  return !/^(\.{1,2}([\\/]|$)|[\\/]|[a-zA-Z][a-zA-Z0-9+.-]*:)/.test(specifier) && !Module.isBuiltin(specifier);
}

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
  registerMethodModuleResolution();
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
      const res = await attribute(net, input, target, params, { tf });
      const a = (res as Partial<AttributionResult> | undefined)?.attribution;
      if (!a || typeof a !== "object" || !Array.isArray((a as tf.Tensor).shape)) {
        throw new MethodModuleError(`method ${name} returned no attribution tensor: return { attribution } with a tensor of the input's shape [1, H, W, C]`);
      }
      return res;
    },
  };
}
