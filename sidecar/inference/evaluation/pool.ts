// The evaluation pool, on piscina (like the inference pool, docs/architecture.md "Compute
// bounds"): N long-lived threads, each with its own tensor runtime and its own copy of each
// task's net and images (loaded on a thread's first image of a task, kept for the rest of the
// run), fed one image at a time (whoever is free takes the next), so two threads on two cores
// evaluate about twice as many images per second. Each image's result does not depend on which
// thread ran it (engine.ts: one forward batch per image), so the output is the same for any
// pool size.
//  - Cancelling a run aborts its images: the queued ones are dropped and a thread in the middle
//    of one is terminated (a tfjs kernel cannot be interrupted) and replaced by piscina, so the
//    pool serves the next run (the service makes one pool per run and closes it afterwards).
//  - A thread that dies (crash, out of memory) fails only the run whose image it was computing;
//    piscina starts a replacement.
//  - On the "onnxruntime" backend a thread must not be terminated while onnxruntime runs for it
//    (that aborts the process, engine/nativeGuard.ts): a cancelled run first asks its images to
//    stop and waits until no native run is in flight, then terminates the threads still busy.
import { FixedThreadPool } from "../threadPool.ts";
import { newJobFlags, requestStop } from "../../engine/nativeGuard.ts";
import { threadsPerSession } from "../../engine/runtime.ts";
import { EvaluationCancelled, type EvaluationSettings, type ImageResult, type Progress } from "./engine.ts";

export interface WorkerData {
  backend: string;
  /** onnxruntime intra-op threads per session: the cores shared among the pool's threads. */
  threads: number;
  /** URL of a module exporting loadTask (tasks.ts, or a test fixture). */
  loaderModule: string;
}

export interface EvalRequest {
  taskId: string;
  /** The checkpoint the suite pins for the task (tasks.ts checkpointCandidates). */
  checkpoint?: string;
  /** How many images of the split the worker loads (the split's first N). */
  images: number;
  index: number;
  /** Registry name; ignored when `map` or `methodModule` is given. */
  algorithm: string;
  params: Record<string, unknown>;
  settings: EvaluationSettings;
  /** This image's pixel map (H × W): evaluated as given, no attribution runs. */
  map?: Float32Array;
  /** Absolute file URL of a method module (methodModule.ts) that computes the map instead of the registry. */
  methodModule?: string;
  /** Send the pixel map back with the result (the CLI writes a method module's maps to maps.zip). */
  returnMap?: boolean;
  /** The run's stop flags (engine/nativeGuard.ts). */
  flags?: SharedArrayBuffer;
}

/** Every image is answered, with its result or the error's message (a thrown error loses its class across threads). */
export type WorkerReply = { type: "image"; result: ImageResult; map?: Float32Array } | { type: "error"; message: string };

export interface EvalJob {
  taskId: string;
  /** The checkpoint the suite pins for the task, if it pins one. */
  checkpoint?: string;
  /** Registry name of the method; "" (or anything) when `maps` or `methodModule` says where the maps come from. */
  algorithm: string;
  /**
   * Given pixel maps instead of a method: image i's map (H × W) at [i·H·W, (i+1)·H·W), for every
   * image of the split (`images` of them).
   */
  maps?: Float32Array;
  /** Absolute file URL of a method module computing the maps (methodModule.ts). */
  methodModule?: string;
  /** Keep each image's pixel map (runWithMaps). */
  returnMaps?: boolean;
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

/** How long a stopped run's threads may take to answer before they are terminated. */
const STOP_GRACE_MS = 250;
const WORKER_FILE = new URL("./workerEntry.mjs", import.meta.url).pathname;
const DEFAULT_LOADER = new URL("./tasks.ts", import.meta.url).href;

export class EvaluationPool extends FixedThreadPool<EvalRequest, WorkerReply> {
  constructor(opts: PoolOptions) {
    if (!Number.isInteger(opts.workers) || opts.workers < 1) throw new RangeError(`workers must be a whole number ≥ 1 (got ${opts.workers})`);
    const data: WorkerData = {
      backend: opts.backend ?? process.env.TENSOR_BACKEND ?? "auto",
      threads: threadsPerSession(opts.workers),
      loaderModule: opts.loaderModule ?? DEFAULT_LOADER,
    };
    super(opts.workers, WORKER_FILE, data);
  }

  /** Evaluates a job's images over all threads; results sorted by image index. */
  async run(job: EvalJob, opts: RunOptions = {}): Promise<ImageResult[]> {
    return (await this.runWithMaps(job, opts)).map((r) => r.result);
  }

  /** Like run, with each image's pixel map where the job asked for them (returnMaps). */
  async runWithMaps(job: EvalJob, opts: RunOptions = {}): Promise<Array<{ result: ImageResult; map?: Float32Array }>> {
    if (this.closed) throw new Error("the evaluation pool is closed");
    if (job.maps && (job.images < 1 || job.maps.length % job.images !== 0)) {
      throw new RangeError(`maps hold ${job.maps.length} values, not a whole number of maps for ${job.images} images`);
    }
    const perMap = job.maps ? job.maps.length / job.images : 0;
    const indices = job.indices ?? Array.from({ length: job.images }, (_, i) => i);
    const total = indices.length;
    const results: Array<{ result: ImageResult; map?: Float32Array }> = [];
    const started = Date.now();
    if (opts.signal?.aborted) throw new EvaluationCancelled();
    opts.onProgress?.({ done: 0, total, etaSeconds: null });
    if (total === 0) return results;
    // One signal for the run's images: the caller's cancel, or the first failed image (the
    // others are then dropped or stopped instead of computed for nothing).
    const failed = new AbortController();
    const signal = opts.signal ? AbortSignal.any([opts.signal, failed.signal]) : failed.signal;
    // What piscina sees: aborted (terminating busy threads) once no native run is in flight. A
    // thread whose native run was refused answers by itself within a batch; it is given
    // STOP_GRACE_MS to do so and keep its loaded tasks, since a replacement loads them again.
    const flags = newJobFlags();
    const stop = new AbortController();
    let busy = 0;
    signal.addEventListener(
      "abort",
      () =>
        void requestStop(flags).then(async () => {
          const until = Date.now() + STOP_GRACE_MS;
          while (busy > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
          stop.abort();
        }),
      { once: true },
    );
    let next = 0;
    let firstError: Error | null = null;
    // `size` feeders, each taking the next image when its previous one is done: at most `size`
    // images in flight, so the queue stays empty and the signal has `size` listeners.
    const feeder = async () => {
      while (next < total && !signal.aborted) {
        const index = indices[next++];
        let reply: WorkerReply;
        try {
          const req: EvalRequest = {
            taskId: job.taskId,
            images: job.images,
            index,
            algorithm: job.algorithm,
            params: job.params,
            settings: job.settings,
            flags,
          };
          // A copy of one map (slice, not subarray): the whole run's maps would be cloned otherwise.
          if (job.maps) req.map = job.maps.slice(index * perMap, (index + 1) * perMap);
          if (job.methodModule) req.methodModule = job.methodModule;
          if (job.checkpoint) req.checkpoint = job.checkpoint;
          if (job.returnMaps) req.returnMap = true;
          busy++;
          try {
            reply = await this.piscina.run(req, { signal: stop.signal });
          } finally {
            busy--;
          }
        } catch (err) {
          if (!signal.aborted) {
            firstError ??= new Error(`an evaluation thread stopped while evaluating image ${index} (${(err as Error)?.message ?? String(err)})`);
            failed.abort();
          }
          return;
        }
        if (reply.type === "error") {
          firstError ??= new Error(reply.message);
          failed.abort();
          return;
        }
        if (signal.aborted) return;
        results.push(reply.map ? { result: reply.result, map: reply.map } : { result: reply.result });
        const done = results.length;
        const elapsed = (Date.now() - started) / 1000;
        opts.onProgress?.({ done, total, etaSeconds: (elapsed / done) * (total - done) });
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.size, total) }, feeder));
    if (opts.signal?.aborted) throw new EvaluationCancelled();
    if (firstError) throw firstError;
    return results.sort((a, b) => a.result.index - b.result.index);
  }
}
