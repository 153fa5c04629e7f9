// What an evaluation runs on: the "onnxruntime" backend (forward and gradient passes on
// onnxruntime's CPU provider, docs/engine.md; tfjs on wasm for the rest: pixel maps, and methods
// or models the gradient graph does not cover), or a tfjs backend by name (runtime/backend.ts).
// A suite records the backend its baseline was computed on (suite.json evaluation.backend), and
// every evaluation compared with that baseline runs on the same one (docs/evaluation.md §5).
import { attachNative } from "../models.ts";
import { initBackend, type BackendChoice } from "../runtime/backend.ts";
import type { Net } from "../net.ts";
import type { ZooNet } from "../../zoo/zooNet.ts";

export const ONNXRUNTIME = "onnxruntime";

/** Starts this thread's tensor runtime for an evaluation backend. */
export async function initEvaluationBackend(backend: string): Promise<void> {
  await initBackend((backend === ONNXRUNTIME ? "wasm" : backend) as BackendChoice);
}

/**
 * The task's net, served natively on the "onnxruntime" backend. Only zoo checkpoints are exported
 * (a test's loader may hand a bare Net, which stays on tfjs).
 */
export async function serveTaskNet(net: Net, backend: string, threads?: number): Promise<Net> {
  if (backend !== ONNXRUNTIME || !("manifest" in net)) return net;
  return attachNative(net as ZooNet, undefined, threads);
}
