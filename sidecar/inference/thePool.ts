// The sidecar's one inference worker pool, shared by every service that runs a model (Inference,
// Inspection, Concepts, Question Answering, Segmentation, MultiLabel, Tree, SeBoW), so all of
// them queue behind one bound of threads and waiting requests (docs/architecture.md "Compute
// bounds"). It starts on the first request that needs it, so a sidecar that never explains pays
// nothing for it; the Inference service reports its slots in the heartbeat and closes it at
// shutdown.
import { InferencePool } from "./pool.ts";

let pool: InferencePool | null = null;

/** The sidecar's one worker pool, started on first use. */
export function thePool(): InferencePool {
  pool ??= new InferencePool();
  return pool;
}

/** The pool if a request has started it, else null (reading its load must not start its threads). */
export function startedPool(): InferencePool | null {
  return pool;
}

/** Closes the pool (awaited by the sidecar's shutdown: its threads must be gone before the process exits). */
export async function closePool(): Promise<void> {
  const closing = pool;
  pool = null;
  await closing?.close();
}

/**
 * A signal that aborts when the call ends without us: the client cancelled, its deadline passed,
 * or the connection dropped (grpc-js emits "cancelled" for all three). A pool job given it is
 * dropped from the queue or its thread stopped.
 */
export function callSignal(call: { on(event: "cancelled", fn: () => void): unknown; cancelled?: boolean }): AbortSignal {
  const ctrl = new AbortController();
  if (call.cancelled) ctrl.abort();
  else call.on("cancelled", () => ctrl.abort());
  return ctrl.signal;
}
