// Stopping a job safely while onnxruntime works for it. The inference pool stops a cancelled or
// overdue job by terminating its worker thread; a thread terminated while an onnxruntime run is
// in flight takes the whole sidecar down (the run's completion calls into a torn-down Node.js
// environment and the native addon aborts the process). So each job carries two shared flags:
// [0] stop requested (set by the pool), [1] runs in flight (kept here). A run never starts once
// a stop is requested, and the pool terminates the thread only when no run is in flight, which
// is at most one batch later (nativeModel.ts sizes batches).
let flags: Int32Array | null = null;

export class NativeRunStopped extends Error {
  constructor() {
    super("the job was stopped");
    this.name = "NativeRunStopped";
  }
}

/** The current job's flags (the worker sets them per task; null outside the pool). */
export function setJobFlags(buffer: SharedArrayBuffer | undefined): void {
  flags = buffer ? new Int32Array(buffer) : null;
}

export async function guardedRun<T>(run: () => Promise<T>): Promise<T> {
  const f = flags;
  if (!f) return run();
  Atomics.add(f, 1, 1);
  if (Atomics.load(f, 0) !== 0) {
    Atomics.sub(f, 1, 1);
    throw new NativeRunStopped();
  }
  try {
    return await run();
  } finally {
    Atomics.sub(f, 1, 1);
  }
}

/** For the pool: flags of a new job. */
export function newJobFlags(): SharedArrayBuffer {
  return new SharedArrayBuffer(8);
}

/** For the pool: asks the job to stop; resolves when no onnxruntime run of it is in flight. */
export async function requestStop(buffer: SharedArrayBuffer): Promise<void> {
  const f = new Int32Array(buffer);
  Atomics.store(f, 0, 1);
  while (Atomics.load(f, 1) !== 0) await new Promise((r) => setTimeout(r, 5));
}
