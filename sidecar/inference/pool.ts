// The inference worker pool: SIDECAR_WORKERS threads (default: one per core), each
// with its own tfjs runtime and model cache. A request goes to an idle worker, or
// waits in a FIFO queue for the first one to finish (so work always lands on the
// least busy thread). A worker that dies (crash, out of memory) fails only the
// request it was running; it is replaced and the pool keeps serving.
import os from "node:os";
import { Worker } from "node:worker_threads";
import type { ExplainRequest, ExplainResult, PredictRequest, PredictResult } from "./explain.ts";
import { CHECKPOINT_ERROR_NAMES, INPUT_ERROR_NAMES } from "./errors.ts";
import type { WorkerInit, WorkerReady, WorkerReply, WorkerRequest } from "./poolProtocol.ts";

const WORKER_URL = new URL("./workerEntry.mjs", import.meta.url);

/** Why a pooled request failed: the caller's input, a broken checkpoint, or the runtime. */
export class PoolRequestError extends Error {
  constructor(
    readonly kind: "input" | "checkpoint" | "internal",
    message: string,
    readonly originalName: string,
  ) {
    super(message);
    this.name = "PoolRequestError";
  }
}

export interface PoolOptions {
  workers?: number;
  backend?: string;
  checkpointDir?: string;
}

/** A request without its id, per variant (Omit over a union would merge the variants). */
type Unnumbered<T> = T extends unknown ? Omit<T, "id"> : never;

type Job = { msg: WorkerRequest; resolve: (v: unknown) => void; reject: (e: Error) => void };

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Job | null;
  /** Set once the thread ended (crash or close) so late events are ignored. */
  gone: boolean;
}

export function defaultWorkerCount(): number {
  const env = Number(process.env.SIDECAR_WORKERS);
  if (Number.isInteger(env) && env >= 1) return env;
  return Math.max(1, os.availableParallelism?.() ?? os.cpus().length);
}

export class InferencePool {
  readonly size: number;
  backend = "starting";
  restarts = 0;
  private slots: Slot[] = [];
  private queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private init: WorkerInit;
  private readyWaiters: Array<() => void> = [];

  constructor(opts: PoolOptions = {}) {
    this.size = opts.workers ?? defaultWorkerCount();
    if (!Number.isInteger(this.size) || this.size < 1) throw new RangeError(`the pool needs at least one worker (got ${this.size})`);
    this.init = { backend: opts.backend ?? process.env.TENSOR_BACKEND, checkpointDir: opts.checkpointDir ?? process.env.CHECKPOINT_DIR };
    for (let i = 0; i < this.size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_URL, { workerData: this.init });
    const slot: Slot = { worker, ready: false, job: null, gone: false };
    worker.on("message", (m: WorkerReady | WorkerReply) => {
      if ("ready" in m) {
        slot.ready = true;
        this.backend = m.backend;
        this.readyWaiters.splice(0).forEach((f) => f());
        this.pump();
        return;
      }
      const job = slot.job;
      slot.job = null;
      if (job && job.msg.id === m.id) {
        if (m.ok) job.resolve(m.result);
        else {
          const kind = INPUT_ERROR_NAMES.has(m.error.name) ? "input" : CHECKPOINT_ERROR_NAMES.has(m.error.name) ? "checkpoint" : "internal";
          job.reject(new PoolRequestError(kind, m.error.message, m.error.name));
        }
      }
      this.pump();
    });
    const onGone = (why: string) => {
      if (slot.gone) return;
      slot.gone = true;
      const job = slot.job;
      slot.job = null;
      job?.reject(
        new PoolRequestError("internal", `the inference worker stopped while running this request (${why}); it has been restarted, try again`, "WorkerCrashed"),
      );
      if (this.closed) return;
      // Replace the thread in place; a restart storm (e.g. a backend that cannot start) is slowed down.
      this.restarts++;
      const idx = this.slots.indexOf(slot);
      const delay = Math.min(5000, 100 * this.restarts);
      setTimeout(
        () => {
          if (this.closed || idx < 0) return;
          this.slots[idx] = this.spawn();
        },
        this.restarts > 3 ? delay : 0,
      ).unref();
    };
    worker.on("error", (err) => onGone(err.message));
    worker.on("exit", (code) => onGone(`exit code ${code}`));
    return slot;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => s.ready && !s.gone && s.job === null);
      if (!slot) return;
      const job = this.queue.shift()!;
      slot.job = job;
      slot.worker.postMessage(job.msg);
    }
  }

  private submit<T>(msg: Unnumbered<WorkerRequest>): Promise<T> {
    if (this.closed) return Promise.reject(new PoolRequestError("internal", "the inference pool is closed", "PoolClosed"));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ msg: { ...msg, id: this.nextId++ } as WorkerRequest, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  predict(req: PredictRequest): Promise<PredictResult> {
    return this.submit({ kind: "predict", req });
  }

  explain(req: ExplainRequest): Promise<ExplainResult> {
    return this.submit({ kind: "explain", req });
  }

  /** Load models in every worker ahead of the first request. */
  async warm(modelIds: string[]): Promise<void> {
    await this.ready();
    await Promise.all(this.slots.map(() => this.submit({ kind: "warm", modelIds })));
  }

  /** Resolves once at least one worker has its runtime up. */
  ready(): Promise<void> {
    if (this.slots.some((s) => s.ready && !s.gone)) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  stats(): { workers: number; busy: number; queued: number; backend: string; restarts: number } {
    return {
      workers: this.size,
      busy: this.slots.filter((s) => s.job !== null).length,
      queued: this.queue.length,
      backend: this.backend,
      restarts: this.restarts,
    };
  }

  /** Test hook: end one worker thread abruptly, as a crash would. */
  async killWorker(index = 0): Promise<void> {
    await this.slots[index].worker.terminate();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new PoolRequestError("internal", "the inference pool is closed", "PoolClosed"));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
