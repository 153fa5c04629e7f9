// Picks and initialises the tfjs backend once per process (or worker thread).
// TENSOR_BACKEND=auto|wasm|cpu|tensorflow. "auto" takes the native TensorFlow
// binding when one of its optional packages is importable (a GPU/CPU host that
// could fetch libtensorflow), otherwise the wasm backend, which is SIMD but
// single-threaded in Node; the sidecar's worker pool supplies the parallelism.
import * as tf from "@tensorflow/tfjs";
import { createRequire } from "node:module";
import path from "node:path";
import { registerWasmGradientKernels } from "./conv2dBackpropFilterWasm.ts";

export type BackendChoice = "auto" | "wasm" | "cpu" | "tensorflow";
export type ActiveBackend = "wasm" | "cpu" | "tensorflow";

export interface BackendInfo {
  /** The backend tfjs runs on now. */
  name: ActiveBackend;
  /** What was asked for (TENSOR_BACKEND or the argument). */
  requested: BackendChoice;
  /** The native package that supplied the "tensorflow" backend, when used. */
  nativePackage?: string;
  /** Whether the native package is the CUDA build. */
  gpu: boolean;
}

export class BackendUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackendUnavailableError";
  }
}

let active: BackendInfo | null = null;
let pending: Promise<BackendInfo> | null = null;

const NATIVE_PACKAGES = ["@tensorflow/tfjs-node-gpu", "@tensorflow/tfjs-node"] as const;

function parseChoice(value: string | undefined): BackendChoice {
  const v = (value ?? "auto").trim().toLowerCase();
  if (v === "" || v === "auto") return "auto";
  if (v === "wasm" || v === "cpu" || v === "tensorflow") return v;
  throw new BackendUnavailableError(`TENSOR_BACKEND must be one of auto, wasm, cpu, tensorflow (got "${value}")`);
}

/** Imports the first native binding that loads; it registers the "tensorflow" backend as a side effect. */
async function importNative(): Promise<string | null> {
  for (const pkg of NATIVE_PACKAGES) {
    try {
      // A variable specifier keeps bundlers and tsc from resolving a package that is
      // deliberately not installed on most hosts.
      const specifier: string = pkg;
      await import(/* @vite-ignore */ specifier);
      return pkg;
    } catch {
      // Not installed, or its native library failed to load: try the next one.
    }
  }
  return null;
}

async function setupWasm(): Promise<void> {
  // The wasm backend registers itself on import. Under Node the emscripten loader
  // looks for the .wasm binaries next to the bundle it was loaded from, which is not
  // where tsx/vitest run it from, so point it at the package's dist folder explicitly.
  const wasm = await import("@tensorflow/tfjs-backend-wasm");
  const require = createRequire(import.meta.url);
  const distDir = path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm/package.json")) + "/dist/";
  wasm.setWasmPaths(distDir);
  registerWasmGradientKernels();
}

async function select(choice: BackendChoice): Promise<BackendInfo> {
  if (choice === "tensorflow" || choice === "auto") {
    const pkg = await importNative();
    if (pkg && (await tf.setBackend("tensorflow"))) {
      await tf.ready();
      return { name: "tensorflow", requested: choice, nativePackage: pkg, gpu: pkg.endsWith("-gpu") };
    }
    if (choice === "tensorflow") {
      throw new BackendUnavailableError("TENSOR_BACKEND=tensorflow but neither @tensorflow/tfjs-node-gpu nor @tensorflow/tfjs-node can be loaded on this host");
    }
  }
  if (choice === "wasm" || choice === "auto") {
    await setupWasm();
    if (await tf.setBackend("wasm")) {
      await tf.ready();
      return { name: "wasm", requested: choice, gpu: false };
    }
    throw new BackendUnavailableError("the wasm backend failed to initialise");
  }
  if (await tf.setBackend("cpu")) {
    await tf.ready();
    return { name: "cpu", requested: choice, gpu: false };
  }
  throw new BackendUnavailableError("the cpu backend failed to initialise");
}

/**
 * Initialises the backend (idempotent: later calls return the first result unless a
 * different explicit backend is asked for). `choice` overrides TENSOR_BACKEND.
 */
export async function initBackend(choice?: BackendChoice): Promise<BackendInfo> {
  const wanted = choice ?? parseChoice(process.env.TENSOR_BACKEND);
  if (active && (wanted === "auto" || wanted === active.name)) return active;
  if (pending && !active) return pending;
  pending = select(wanted).then((info) => {
    active = info;
    return info;
  });
  try {
    return await pending;
  } finally {
    pending = null;
  }
}

/** The backend chosen by initBackend, or null before it ran. */
export function activeBackend(): BackendInfo | null {
  return active;
}
