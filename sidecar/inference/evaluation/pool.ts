// A small worker_threads pool for evaluation: N threads, each with its own tensor
// runtime, fed one image at a time (whoever is free takes the next), so two threads on
// two cores evaluate about twice as many images per second. Each image's result does
// not depend on which thread ran it (engine.ts: one forward batch per image), so the
// output is the same for any pool size. Cancelling terminates the threads at once.
import { Worker } from "node:worker_threads";
import { EvaluationCancelled, type EvaluationSettings, type ImageResult, type Progress } from "./engine.ts";

export interface WorkerData {
  backend: string;
  /** URL of a module exporting loadTask (tasks.ts, or a test fixture). */
  loaderModule: string;
}

export interface EvalRequest {
  seq: number;
  taskId: string;
  /** How many images of the split the worker loads (the split's first N). */
  images: number;
  index: number;
  algorithm: string;
  params: Record<string, unknown>;
  settings: EvaluationSettings;
}

export type WorkerReply = { type: "image"; seq: number; result: ImageResult } | { type: "error"; seq: number; message: string };

export interface EvalJob {
  taskId: string;
  algorithm: string;
  params: Record<string, unknown>;
  settings: EvaluationSettings;
  /** Images loaded per task (the evaluation split's size). */
  images: number;
  /** Which of them to evaluate; all of them by default. */
  indices?: number[];
}

export interface RunOptions {
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
}

export interface PoolOptions {
  workers: number;
  backend?: string;
  loaderModule?: string;
}

const WORKER_URL = new URL("./workerEntry.mjs", import.meta.url);
const DEFAULT_LOADER = new URL("./tasks.ts", import.meta.url).href;

export class EvaluationPool {
  private workers: Worker[];
  private closed = false;

  constructor(opts: PoolOptions) {
    if (!Number.isInteger(opts.workers) || opts.workers < 1) throw new RangeError(`workers must be a whole number ≥ 1 (got ${opts.workers})`);
    const data: WorkerData = { backend: opts.backend ?? process.env.TENSOR_BACKEND ?? "auto", loaderModule: opts.loaderModule ?? DEFAULT_LOADER };
    // workerEntry.mjs registers tsx in the thread, then loads the TypeScript worker.
    this.workers = Array.from({ length: opts.workers }, () => new Worker(WORKER_URL, { workerData: data }));
  }

  get size(): number {
    return this.workers.length;
  }

  /** Evaluates a job's images over all threads; results sorted by image index. */
  run(job: EvalJob, opts: RunOptions = {}): Promise<ImageResult[]> {
    if (this.closed) return Promise.reject(new Error("the evaluation pool is closed"));
    const indices = job.indices ?? Array.from({ length: job.images }, (_, i) => i);
    const total = indices.length;
    const results: ImageResult[] = [];
    const started = Date.now();
    let next = 0;
    let seq = 0;
    let finished = false;

    return new Promise<ImageResult[]>((resolve, reject) => {
      const cleanups: Array<() => void> = [];
      const finish = (err?: Error) => {
        if (finished) return;
        finished = true;
        for (const c of cleanups) c();
        if (err) reject(err);
        else resolve(results.sort((a, b) => a.index - b.index));
      };
      const onAbort = () => {
        // Terminating is the only way to stop an image mid-attribution; the pool is
        // unusable afterwards, which is what a cancelled job wants.
        void this.close();
        finish(new EvaluationCancelled());
      };
      if (opts.signal?.aborted) return onAbort();
      opts.signal?.addEventListener("abort", onAbort, { once: true });
      cleanups.push(() => opts.signal?.removeEventListener("abort", onAbort));

      const feed = (w: Worker) => {
        if (finished || next >= total) return;
        const req: EvalRequest = {
          seq: seq++,
          taskId: job.taskId,
          images: job.images,
          index: indices[next++],
          algorithm: job.algorithm,
          params: job.params,
          settings: job.settings,
        };
        w.postMessage(req);
      };
      opts.onProgress?.({ done: 0, total, etaSeconds: null });
      if (total === 0) return finish();
      for (const w of this.workers) {
        const onMessage = (reply: WorkerReply) => {
          if (finished) return;
          if (reply.type === "error") return finish(new Error(reply.message));
          results.push(reply.result);
          const done = results.length;
          const elapsed = (Date.now() - started) / 1000;
          opts.onProgress?.({ done, total, etaSeconds: (elapsed / done) * (total - done) });
          if (done === total) finish();
          else feed(w);
        };
        const onError = (err: Error) => finish(err);
        const onExit = (code: number) => finish(new Error(`evaluation worker stopped (exit code ${code})`));
        w.on("message", onMessage);
        w.on("error", onError);
        w.on("exit", onExit);
        cleanups.push(() => {
          w.off("message", onMessage);
          w.off("error", onError);
          w.off("exit", onExit);
        });
        feed(w);
      }
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
