// The inference worker pool, on piscina (docs/architecture.md "Compute bounds"): SIDECAR_WORKERS
// threads (default: one per core), each with its own tfjs runtime and model cache, fed from one
// bounded FIFO queue. Three guarantees (docs/security.md "Compute bounds"):
//  - a full queue answers at once (`busy` → RESOURCE_EXHAUSTED) instead of growing without end;
//  - a job whose caller went away (cancelled call, passed deadline) is aborted: a running job's
//    thread is terminated and replaced, so the worker is free for the next request at once;
//  - every job has a time limit (from its cost, sidecar/inference/cost.ts), after which it is
//    aborted the same way.
// A worker that dies (crash, out of memory) fails only the request it was running.
import os from "node:os";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { FixedThreadPool } from "./threadPool.ts";
import type { ExplainRequest, ExplainResult, PredictRequest, PredictResult } from "./explain.ts";
import { CHECKPOINT_ERROR_NAMES, INPUT_ERROR_NAMES } from "./errors.ts";
import type { FlaggedTask, TcavProgressMessage, WorkerInit, WorkerReply, WorkerTask } from "./poolProtocol.ts";
import { newJobFlags, requestStop } from "../engine/nativeGuard.ts";
import type { TcavJob, TcavJobResult } from "../concepts/experiment.ts";
import type { VqaJob, VqaJobResult } from "../vqa/job.ts";
import type { SegExplainRequest, SegExplainResult, SegmentRequest, SegmentResult } from "./segmentation/job.ts";
import type { TreeJob, TreeJobResult } from "../tree/predict.ts";
import type { ClassifyRequest, ClassifyResult, MultiLabelExplainRequest, MultiLabelExplainResult } from "./multilabel/job.ts";
import type { SebowExplainJob, SebowExplainResult } from "../sebow/job.ts";
import type { CrackPhotoRequest, CrackPhotoResult } from "../inspection/photo.ts";

const WORKER_FILE = new URL("./workerEntry.mjs", import.meta.url).pathname;

export type PoolErrorKind = "input" | "checkpoint" | "internal" | "busy" | "cancelled" | "timeout";

/** Why a pooled request failed: the caller's input, a broken checkpoint, a full queue, an abort, a time limit, or the runtime. */
export class PoolRequestError extends Error {
  constructor(
    readonly kind: PoolErrorKind,
    message: string,
    readonly originalName: string,
  ) {
    super(message);
    this.name = "PoolRequestError";
  }
}

const queueFull = () => new PoolRequestError("busy", "The compute server is busy with other requests. Please try again in a moment.", "QueueFull");

export interface PoolOptions {
  workers?: number;
  backend?: string;
  checkpointDir?: string;
  /** Requests that may wait for a worker; more are refused at once (default SIDECAR_QUEUE_MAX, else 4 per worker). */
  maxQueue?: number;
}

/** Per request: the caller's signal (call cancelled) and the job's time limit. */
export interface JobOptions {
  signal?: AbortSignal;
  timeLimitMs?: number;
}

/** A TCAV request's options: also where its progress goes (CAVs done of total). */
export interface TcavOptions extends JobOptions {
  onProgress?: (done: number, total: number) => void;
}

export function defaultWorkerCount(): number {
  const env = Number(process.env.SIDECAR_WORKERS);
  if (Number.isInteger(env) && env >= 1) return env;
  return Math.max(1, os.availableParallelism?.() ?? os.cpus().length);
}

export function defaultQueueMax(workers: number): number {
  const env = Number(process.env.SIDECAR_QUEUE_MAX);
  if (Number.isInteger(env) && env >= 0) return env;
  return 4 * workers;
}

export class InferencePool extends FixedThreadPool<FlaggedTask, WorkerReply> {
  readonly maxQueue: number;
  backend = "starting";
  private running = 0;

  constructor(opts: PoolOptions = {}) {
    const size = opts.workers ?? defaultWorkerCount();
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`the pool needs at least one worker (got ${size})`);
    const maxQueue = opts.maxQueue ?? defaultQueueMax(size);
    const init: WorkerInit = { backend: opts.backend ?? process.env.TENSOR_BACKEND, checkpointDir: opts.checkpointDir ?? process.env.CHECKPOINT_DIR };
    super(size, WORKER_FILE, init, maxQueue);
    this.maxQueue = maxQueue;
  }

  private async submit<T>(task: WorkerTask, opts: JobOptions = {}, transferList: MessagePort[] = []): Promise<T> {
    if (this.closed) throw new PoolRequestError("internal", "the inference pool is closed", "PoolClosed");
    // The bound is counted here, not left to piscina's maxQueue: piscina keeps a job that carries
    // an AbortSignal (every gRPC call's does, and every time-limited job's) in a second, unbounded
    // queue that its maxQueue never counts, so with the default settings nothing was ever refused.
    // Jobs admitted = running on a worker + waiting; at most one per worker plus maxQueue.
    if (this.running >= this.size + this.maxQueue) throw queueFull();
    const timeLimit = opts.timeLimitMs && opts.timeLimitMs > 0 ? AbortSignal.timeout(opts.timeLimitMs) : null;
    const signals = [opts.signal, timeLimit].filter((s): s is AbortSignal => Boolean(s));
    const signal = signals.length ? AbortSignal.any(signals) : undefined;
    // piscina stops a job by terminating its thread, which must not happen mid onnxruntime run
    // (sidecar/engine/nativeGuard.ts): the stop reaches piscina once no run is in flight.
    const flags = newJobFlags();
    const stopped = (): PoolRequestError | null => {
      if (timeLimit?.aborted)
        return new PoolRequestError(
          "timeout",
          `the request ran longer than its time limit of ${Math.round(opts.timeLimitMs! / 1000)} s and was stopped`,
          "TimeLimit",
        );
      if (opts.signal?.aborted) return new PoolRequestError("cancelled", "the request was cancelled by its caller", "Cancelled");
      return null;
    };
    const stop = new AbortController();
    const onAbort = () => void requestStop(flags).then(() => stop.abort());
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    this.running++;
    let reply: WorkerReply;
    try {
      reply = await this.piscina.run({ ...task, flags }, { ...(signal ? { signal: stop.signal } : {}), ...(transferList.length ? { transferList } : {}) });
    } catch (err) {
      const e = err as Error;
      if (e?.message === "Task queue is at limit" || e?.message === "No task queue available and all Workers are busy") throw queueFull();
      throw (
        stopped() ??
        new PoolRequestError(
          "internal",
          `the inference worker stopped while running this request (${e?.message ?? String(err)}); it has been restarted, try again`,
          "WorkerCrashed",
        )
      );
    } finally {
      signal?.removeEventListener("abort", onAbort);
      this.running--;
    }
    this.backend = reply.backend;
    if (reply.ok) return reply.result as T;
    // The job noticed the stop between two onnxruntime runs and ended itself.
    if (reply.error.name === "NativeRunStopped") throw stopped() ?? new PoolRequestError("cancelled", "the request was stopped", "Cancelled");
    const kind = INPUT_ERROR_NAMES.has(reply.error.name) ? "input" : CHECKPOINT_ERROR_NAMES.has(reply.error.name) ? "checkpoint" : "internal";
    throw new PoolRequestError(kind, reply.error.message, reply.error.name);
  }

  predict(req: PredictRequest, opts?: JobOptions): Promise<PredictResult> {
    return this.submit({ kind: "predict", req }, opts);
  }

  explain(req: ExplainRequest, opts?: JobOptions): Promise<ExplainResult> {
    return this.submit({ kind: "explain", req }, opts);
  }

  /** Crack detection on one inspection photo (pure JavaScript, but seconds on a large photo: off the event loop). */
  detectCracks(req: CrackPhotoRequest, opts?: JobOptions): Promise<CrackPhotoResult> {
    return this.submit({ kind: "detectCracks", req }, opts);
  }

  async tcav(req: TcavJob, opts: TcavOptions = {}): Promise<TcavJobResult> {
    const { onProgress, ...jobOpts } = opts;
    if (!onProgress) return this.submit({ kind: "tcav", req }, jobOpts);
    // A channel per request: the worker posts on its end while the job runs (a synchronous tfjs
    // loop, but posting needs no turn of the worker's event loop); ours closes with the request.
    const { port1, port2 } = new MessageChannel();
    port1.on("message", (m: TcavProgressMessage) => onProgress(m.done, m.total));
    try {
      return await this.submit<TcavJobResult>({ kind: "tcav", req, progress: port2 }, jobOpts, [port2]);
    } finally {
      port1.close();
    }
  }

  /** One question answered and explained over the image and the words (sidecar/vqa/job.ts). */
  vqa(req: VqaJob, opts?: JobOptions): Promise<VqaJobResult> {
    return this.submit({ kind: "vqa", req }, opts);
  }

  /** The per-pixel prediction of a segmentation network (sidecar/inference/segmentation/job.ts). */
  segment(req: SegmentRequest, opts?: JobOptions): Promise<SegmentResult> {
    return this.submit({ kind: "segment", req }, opts);
  }

  /** One predicted class of a segmentation explained (Feature_Ablation or LayerGradCAM over the class-sum wrapper). */
  segExplain(req: SegExplainRequest, opts?: JobOptions): Promise<SegExplainResult> {
    return this.submit({ kind: "segExplain", req }, opts);
  }

  /** A SeBoW model's prediction explained by DI or SPI (sidecar/sebow/job.ts). */
  sebowExplain(req: SebowExplainJob, opts?: JobOptions): Promise<SebowExplainResult> {
    return this.submit({ kind: "sebowExplain", req }, opts);
  }

  /** The k highest-scoring classes of a multi-label classifier (sidecar/inference/multilabel/job.ts). */
  multiLabelClassify(req: ClassifyRequest, opts?: JobOptions): Promise<ClassifyResult> {
    return this.submit({ kind: "multiLabel", req: { op: "classify", ...req } }, opts);
  }

  /** One class of a multi-label classifier explained (Feature_Ablation or LIME, its logit as the target). */
  multiLabelExplain(req: MultiLabelExplainRequest, opts?: JobOptions): Promise<MultiLabelExplainResult> {
    return this.submit({ kind: "multiLabel", req: { op: "explain", ...req } }, opts);
  }

  /** A Tree service job (sidecar/tree/predict.ts); progress as tcav's (a channel per request). */
  async tree(req: TreeJob, opts: JobOptions & { onProgress?: (fraction: number, message: string) => void } = {}): Promise<TreeJobResult> {
    const { onProgress, ...jobOpts } = opts;
    if (!onProgress) return this.submit({ kind: "tree", req }, jobOpts);
    const { port1, port2 } = new MessageChannel();
    port1.on("message", (m: { fraction: number; message: string }) => onProgress(m.fraction, m.message));
    try {
      return await this.submit<TreeJobResult>({ kind: "tree", req, progress: port2 }, jobOpts, [port2]);
    } finally {
      port1.close();
    }
  }

  /** Load models in every worker ahead of the first request (one warm job per thread). */
  async warm(modelIds: string[]): Promise<void> {
    await Promise.all(Array.from({ length: this.size }, () => this.submit({ kind: "warm", modelIds })));
  }

  /** Resolves once a worker has its runtime up (and tells which backend it runs). */
  async ready(): Promise<void> {
    await this.submit({ kind: "warm", modelIds: [] });
  }

  stats(): { workers: number; busy: number; queued: number; backend: string; restarts: number; maxQueue: number } {
    // From the admission count (above): piscina's queueSize misses jobs with a signal.
    const queued = Math.max(0, this.running - this.size);
    return {
      workers: this.size,
      busy: Math.min(this.size, this.running),
      queued,
      backend: this.backend,
      restarts: this.restarts,
      maxQueue: this.maxQueue,
    };
  }

  /** The pool's live threads (tests check that an aborted job's thread is gone). */
  threadIds(): number[] {
    return this.piscina.threads.map((t) => t.threadId);
  }
}
