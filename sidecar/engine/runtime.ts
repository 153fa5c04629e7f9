// onnxruntime-node under the sidecar's tensor work: which execution provider sessions run on and
// with how many threads. EXECUTION_PROVIDER=auto|cpu|cuda|tensorrt|webgpu (auto: the best one
// this host has: the CUDA and TensorRT providers exist only where a GPU host installed them,
// docs/performance.md "GPU hosts"), SIDECAR_THREADS intra-op threads per session (default: the
// cores divided among the SIDECAR_WORKERS workers, so workers × threads fit the machine).
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import * as ort from "onnxruntime-node";
import { guardedRun } from "./nativeGuard.ts";

export type ProviderName = "cpu" | "cuda" | "tensorrt" | "webgpu";
const PROVIDERS: readonly ProviderName[] = ["cpu", "cuda", "tensorrt", "webgpu"];

export class ProviderUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProviderUnavailableError";
  }
}

/** The shared library a provider that is not bundled needs beside the binding (what --onnxruntime-node-install=cuda12 puts there). */
const PROVIDER_LIBRARY: Partial<Record<ProviderName, string>> = {
  cuda: "libonnxruntime_providers_cuda.so",
  tensorrt: "libonnxruntime_providers_tensorrt.so",
};

function bindingFolder(): string {
  const pkg = path.dirname(createRequire(import.meta.url).resolve("onnxruntime-node/package.json"));
  return path.join(pkg, "bin", "napi-v6", process.platform, process.arch);
}

/**
 * What onnxruntime-node offers on this host: the bundled providers, and those listed as not
 * bundled only where their library was installed (the package lists CUDA everywhere on Linux).
 */
export function installedProviders(): ProviderName[] {
  const listed = ort.listSupportedBackends?.() ?? [{ name: "cpu", bundled: true }];
  return listed
    .filter((b) => PROVIDERS.includes(b.name as ProviderName))
    .filter((b) => b.bundled || fs.existsSync(path.join(bindingFolder(), PROVIDER_LIBRARY[b.name as ProviderName] ?? "")))
    .map((b) => b.name as ProviderName);
}

/**
 * The provider sessions are created on. "auto" prefers CUDA (then TensorRT) where installed,
 * else the CPU: WebGPU is bundled on every Linux host but needs a Vulkan GPU, so it is used only
 * when asked for (make gpu-check tries it).
 */
export function chosenProvider(value = process.env.EXECUTION_PROVIDER): ProviderName {
  const v = (value ?? "auto").trim().toLowerCase();
  const have = installedProviders();
  if (v === "" || v === "auto") return have.includes("cuda") ? "cuda" : have.includes("tensorrt") ? "tensorrt" : "cpu";
  if (!PROVIDERS.includes(v as ProviderName)) {
    throw new ProviderUnavailableError(`EXECUTION_PROVIDER must be one of auto, ${PROVIDERS.join(", ")} (got "${value}")`);
  }
  if (!have.includes(v as ProviderName)) {
    throw new ProviderUnavailableError(
      `EXECUTION_PROVIDER=${v} but onnxruntime-node on this host offers ${have.join(", ")}; a GPU host installs CUDA with npm install --onnxruntime-node-install=cuda12`,
    );
  }
  return v as ProviderName;
}

/** ENGINE=native (default) serves networks on onnxruntime; ENGINE=tfjs keeps everything on tfjs. */
export function nativeEngineOn(): boolean {
  return (process.env.ENGINE ?? "native").trim().toLowerCase() !== "tfjs";
}

/** What runs this sidecar's networks, as its heartbeat and /server_detail say it: a provider, or "tfjs". */
export function engineProvider(): string {
  if (!nativeEngineOn()) return "tfjs";
  try {
    return chosenProvider();
  } catch (err) {
    return `unavailable: ${(err as Error).message}`.slice(0, 64);
  }
}

/** Intra-op threads per session: SIDECAR_THREADS, else the cores shared among the workers. */
export function threadsPerSession(workers = Number(process.env.SIDECAR_WORKERS) || os.availableParallelism()): number {
  const set = Number(process.env.SIDECAR_THREADS);
  if (Number.isInteger(set) && set >= 1) return set;
  return Math.max(1, Math.floor(os.availableParallelism() / Math.max(1, workers)));
}

export interface SessionOptions {
  provider?: ProviderName;
  threads?: number;
}

/**
 * A session whose creation, runs and release are each guarded (nativeGuard.ts): onnxruntime
 * works on its own threads during all three, and a job must not be stopped by terminating its
 * worker thread meanwhile.
 */
export async function createSession(bytes: Uint8Array, opts: SessionOptions = {}): Promise<ort.InferenceSession> {
  const session = await guardedRun(() => openSession(bytes, opts));
  const run = session.run.bind(session) as (...args: unknown[]) => Promise<ort.InferenceSession.ReturnType>;
  const release = session.release.bind(session);
  session.run = ((...args: unknown[]) => guardedRun(() => run(...args))) as typeof session.run;
  session.release = () => guardedRun(release);
  return session;
}

function openSession(bytes: Uint8Array, opts: SessionOptions): Promise<ort.InferenceSession> {
  const provider = opts.provider ?? chosenProvider();
  return ort.InferenceSession.create(bytes, {
    executionProviders: provider === "cpu" ? ["cpu"] : [provider, "cpu"],
    intraOpNumThreads: opts.threads ?? threadsPerSession(),
    interOpNumThreads: 1,
    graphOptimizationLevel: "all",
    // The arena keeps a run's peak for the next one; the engine sizes batches to a budget
    // (memory.ts), so returning memory between runs matters more than allocation speed.
    enableCpuMemArena: false,
  });
}

export { ort };
