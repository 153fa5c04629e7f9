// Background jobs (evaluation runs, later training tasks). With REDIS_URL they are bull
// queues, so they survive an app restart and show in bull-board; without it an in-process
// runner with the same interface runs them (embedded `make start`, nothing to install).
//
// Producers:  await enqueueJob("evaluation", { suite, method, limit }, user)
// Workers:    registerJobHandler("evaluation", async (job) => { await job.progress(50); … return result })
//
// A handler that throws a sidecar failure (SidecarUnavailableError, a gRPC error that is not
// the sidecar refusing the input, or RetryableJobError) is retried with exponential backoff;
// any other error fails the job at once, because running it again would fail the same way.
// A handler whose sidecar call finds no compute server (none online, down, busy) waits for one
// through untilSidecarServes instead, without spending an attempt.
import * as grpc from "@grpc/grpc-js";
import Bull from "bull";
import { logger } from "./logger.server.ts";
import { SidecarCallError, SidecarUnavailableError } from "./sidecar.server.ts";

const log = logger("queue");

/** Who asked for a job: every job carries it, so results and failures can go back to them. */
export interface JobUser {
  id: number;
  username: string;
}

/** Payload of each job kind. Other kinds extend this by declaration merging (`declare module`). */
export interface JobPayloads {
  /** An evaluation run of one attribution method on one suite (the evaluation issue). */
  evaluation: {
    suite: string;
    method: string;
    limit: number;
    /** the EvaluationRun row it fills */ runId?: number;
    /** JSON of the method's parameters */ params?: string;
  };
  /** A crack-detection run over a dataset's photos (app/.server/inspection.server.ts). */
  inspection: { runId: number };
}
export type JobKind = keyof JobPayloads & string;
/**
 * Every kind a queue of this app runs (the payloads merged in by trees.server.ts, treeTasks.server.ts
 * and regeneration.server.ts included): their bull queues are made at start so bull-board
 * (/admin/queues, express.server.ts) lists them before their first job.
 */
export const KNOWN_JOB_KINDS: JobKind[] = ["evaluation", "inspection", "tree", "tree-task", "regeneration-shard"];

export type JobState = "waiting" | "active" | "delayed" | "completed" | "failed" | "paused";

export interface JobInfo<P = unknown> {
  id: string;
  kind: string;
  state: JobState;
  payload: P;
  user: JobUser;
  /** 0–100 as the handler last reported it. */
  progress: number;
  /** Runs that have ended (failed ones and the successful one). */
  attemptsMade: number;
  maxAttempts: number;
  result: unknown;
  failedReason: string | null;
  createdAt: number;
  finishedAt: number | null;
}

/** What a handler gets: the payload, the user, and a way to report progress. */
export interface JobContext<P> {
  id: string;
  kind: string;
  payload: P;
  user: JobUser;
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  maxAttempts: number;
  progress(percent: number): Promise<void>;
}

export type JobHandler<P = unknown, R = unknown> = (job: JobContext<P>) => Promise<R>;

/** Throw this (or a sidecar error) to have the job retried with backoff. */
export class RetryableJobError extends Error {
  readonly retryable = true;
}

/** Sidecar failures are worth retrying (it may come back or another may come online); bad input is not. */
export function isRetryable(err: unknown): boolean {
  if (err instanceof RetryableJobError) return true;
  // RESOURCE_EXHAUSTED (a sidecar at its limit of evaluation runs, or its queue full) is `retryable` too.
  if (err instanceof SidecarCallError) return err.kind !== "user";
  return false;
}

// ---- waiting for a compute server ------------------------------------------------------------
// One mechanism for every job that calls a sidecar (evaluation runs, crack detection, tree
// training, tree edits, regeneration shards): a call that fails for want of a compute server —
// none online (before the local sidecar's first heartbeat, say), the chosen one not answering
// (UNAVAILABLE: killed, restarting under its supervisor) or every one busy (RESOURCE_EXHAUSTED) —
// makes the job wait and ask again, backing off, inside the same attempt. Spending attempts on
// it used them all up in about 30 s (docs/architecture.md "Supervision").

export type SidecarWaitReason = "offline" | "busy";

/** Why a sidecar call failed for want of a compute server, or null for any other failure. */
export function sidecarWaitReason(err: unknown): SidecarWaitReason | null {
  if (err instanceof SidecarUnavailableError) return "offline";
  if (!(err instanceof SidecarCallError)) return null;
  if (err.code === grpc.status.UNAVAILABLE) return "offline";
  if (err.code === grpc.status.RESOURCE_EXHAUSTED) return "busy";
  return null;
}

export interface SidecarWaitOptions {
  /** Ends a pause early (the job was cancelled); the failure is then thrown. */
  signal?: AbortSignal;
  /** First pause (default QUEUE_SIDECAR_PAUSE_MS or 2 s); it doubles up to a minute. */
  firstPauseMs?: number;
  /** How long a job may wait in all before the failure is thrown (default QUEUE_SIDECAR_WAIT_MS or 24 h). */
  maxWaitMs?: number;
  /** Before each pause: show the wait where people look (a translated message on the job's row). */
  onWait?: (reason: SidecarWaitReason, pauseMs: number) => Promise<void> | void;
  /** After each pause, before asking again: throw to stop (the job was cancelled meanwhile). */
  onResume?: () => Promise<void> | void;
}

const SIDECAR_PAUSE_MAX_MS = 60_000;

/** Runs `work` until it returns or fails for another reason than a missing or busy compute server. */
export async function untilSidecarServes<T>(work: () => Promise<T>, opts: SidecarWaitOptions = {}): Promise<T> {
  const since = Date.now();
  const maxWaitMs = opts.maxWaitMs ?? (Number(process.env.QUEUE_SIDECAR_WAIT_MS) || 24 * 3600_000);
  for (let pauseMs = opts.firstPauseMs ?? (Number(process.env.QUEUE_SIDECAR_PAUSE_MS) || 2_000); ; pauseMs = Math.min(2 * pauseMs, SIDECAR_PAUSE_MAX_MS)) {
    try {
      return await work();
    } catch (err) {
      const reason = sidecarWaitReason(err);
      if (!reason || opts.signal?.aborted || Date.now() - since + pauseMs > maxWaitMs) throw err;
      await opts.onWait?.(reason, pauseMs);
      log.info({ reason, pauseMs }, reason === "busy" ? "every compute server is busy; waiting" : "no compute server answers; waiting");
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, pauseMs);
        function done() {
          clearTimeout(timer);
          opts.signal?.removeEventListener("abort", done);
          resolve();
        }
        opts.signal?.addEventListener("abort", done, { once: true });
      });
      await opts.onResume?.();
      if (opts.signal?.aborted) throw err;
    }
  }
}

export interface JobOptions {
  /** Runs in all, first included (default QUEUE_ATTEMPTS or 5). */
  attempts?: number;
  /** First retry delay; doubles per retry (default QUEUE_BACKOFF_MS or 5000). */
  backoffMs?: number;
}

export interface QueueConfig {
  /** redis://…; null or "" = in-process runner. */
  redisUrl?: string | null;
  /** Key prefix in Redis, so several apps (or tests) can share one Redis. */
  prefix?: string;
  attempts?: number;
  backoffMs?: number;
  /** How long a job's lock lasts without renewal: after a crash its job re-runs after about this long. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}

interface StoredData {
  payload: unknown;
  user: JobUser;
}

// Jobs of every kind share one store; the public generic methods (JobQueue) give each kind
// its payload type back, so the store itself is untyped on purpose.
/* eslint-disable @typescript-eslint/no-explicit-any */
interface Registered {
  handler: JobHandler<any, any>;
  concurrency: number;
}

/** One queue system: bull on Redis or in-process, behind the same methods. */
export interface JobQueue {
  readonly backend: "redis" | "memory";
  registerJobHandler<K extends JobKind>(kind: K, handler: JobHandler<JobPayloads[K]>, opts?: { concurrency?: number }): void;
  enqueueJob<K extends JobKind>(kind: K, payload: JobPayloads[K], user: JobUser, opts?: JobOptions): Promise<JobInfo<JobPayloads[K]>>;
  getJob<K extends JobKind>(kind: K, id: string): Promise<JobInfo<JobPayloads[K]> | null>;
  listJobs<K extends JobKind>(kind: K, filter?: { userId?: number; states?: JobState[] }): Promise<JobInfo<JobPayloads[K]>[]>;
  /** The bull queues created so far (for bull-board); empty in-process. */
  bullQueues(): Bull.Queue[];
  /** Called with each bull queue as it is created. */
  onQueueCreated(fn: (q: Bull.Queue) => void): void;
  close(): Promise<void>;
}

function checkUser(user: JobUser): JobUser {
  if (!user || !Number.isInteger(user.id) || typeof user.username !== "string") throw new Error("a job needs the user who asked for it");
  return { id: user.id, username: user.username };
}

function makeContext<P>(
  id: string,
  kind: string,
  data: StoredData,
  attempt: number,
  maxAttempts: number,
  progress: (n: number) => Promise<void>,
): JobContext<P> {
  return {
    id,
    kind,
    payload: data.payload as P,
    user: data.user,
    attempt,
    maxAttempts,
    progress: (n: number) => progress(Math.max(0, Math.min(100, Math.round(Number(n) || 0)))),
  };
}

/**
 * A bull job as the app sees it. The job's hash (result, reason, attempts) and its state are two
 * reads: a job that finishes between them reads as completed with no result yet (a regeneration
 * took that for a finished shard without its numbers). A finished job's hash no longer changes,
 * so it is read again once when the state is final and the first read predates the finish.
 */
export async function bullJobInfo(kind: string, fetched: Bull.Job): Promise<JobInfo<any>> {
  let job = fetched;
  const state = (await job.getState()) as string;
  if ((state === "completed" || state === "failed") && job.finishedOn == null) job = (await job.queue.getJob(job.id)) ?? job;
  const data = job.data as StoredData;
  return {
    id: String(job.id),
    kind,
    state: (state === "stuck" ? "waiting" : state) as JobState,
    payload: data.payload,
    user: data.user,
    progress: Number(job.progress()) || 0,
    // bull counts failed attempts only; count the successful run too, as the in-process runner does.
    attemptsMade: job.attemptsMade + (state === "completed" ? 1 : 0),
    maxAttempts: job.opts.attempts ?? 1,
    result: job.returnvalue ?? null,
    failedReason: job.failedReason ?? null,
    createdAt: job.timestamp,
    finishedAt: job.finishedOn ?? null,
  };
}

// ---- Redis (bull) --------------------------------------------------------------------------

function bullQueueSystem(cfg: Required<Pick<QueueConfig, "attempts" | "backoffMs">> & QueueConfig & { redisUrl: string }): JobQueue {
  const queues = new Map<string, Bull.Queue>();
  const handlers = new Map<string, Registered>();
  const listeners: ((q: Bull.Queue) => void)[] = [];
  const settings: Bull.AdvancedSettings = {};
  if (cfg.lockDurationMs) settings.lockDuration = cfg.lockDurationMs;
  if (cfg.stalledIntervalMs) settings.stalledInterval = cfg.stalledIntervalMs;

  const queue = (kind: string) => {
    let q = queues.get(kind);
    if (!q) {
      q = new Bull(kind, cfg.redisUrl, { prefix: cfg.prefix ?? "metarank", settings });
      q.on("error", (err) => log.error({ err, kind }, "queue error"));
      q.on("failed", (job, err) => log.warn({ kind, id: job.id, attemptsMade: job.attemptsMade, err: err.message }, "job attempt failed"));
      queues.set(kind, q);
      for (const fn of listeners) fn(q);
    }
    return q;
  };

  return {
    backend: "redis",
    registerJobHandler(kind, handler, opts = {}) {
      const first = !handlers.has(kind);
      // A second registration replaces the handler: bull allows one process() per queue.
      handlers.set(kind, { handler, concurrency: opts.concurrency ?? 1 });
      if (!first) return;
      void queue(kind).process(opts.concurrency ?? 1, async (job) => {
        const reg = handlers.get(kind)!;
        const maxAttempts = job.opts.attempts ?? 1;
        const ctx = makeContext(String(job.id), kind, job.data as StoredData, job.attemptsMade + 1, maxAttempts, (n) => job.progress(n));
        try {
          return await reg.handler(ctx);
        } catch (err) {
          if (!isRetryable(err)) await job.discard();
          throw err;
        }
      });
    },
    async enqueueJob(kind, payload, user, opts = {}) {
      const job = await queue(kind).add({ payload, user: checkUser(user) } satisfies StoredData, {
        attempts: opts.attempts ?? cfg.attempts,
        backoff: { type: "exponential", delay: opts.backoffMs ?? cfg.backoffMs },
        removeOnComplete: 1000,
        removeOnFail: 1000,
      });
      log.info({ kind, id: job.id, user: user.username }, "job queued");
      return bullJobInfo(kind, job);
    },
    async getJob(kind, id) {
      const job = await queue(kind).getJob(id);
      return job ? bullJobInfo(kind, job) : null;
    },
    async listJobs(kind, filter = {}) {
      const states = filter.states ?? ["waiting", "active", "delayed", "completed", "failed", "paused"];
      const jobs = await queue(kind).getJobs(states as Bull.JobStatus[], 0, 500);
      const list = await Promise.all(jobs.filter(Boolean).map((j) => bullJobInfo(kind, j)));
      return list.filter((j) => filter.userId === undefined || j.user.id === filter.userId).sort((a, b) => b.createdAt - a.createdAt);
    },
    bullQueues: () => [...queues.values()],
    onQueueCreated(fn) {
      listeners.push(fn);
    },
    async close() {
      await Promise.all([...queues.values()].map((q) => q.close(true)));
      queues.clear();
    },
  };
}

// ---- in-process ----------------------------------------------------------------------------

interface MemoryJob {
  info: JobInfo<any>;
  data: StoredData;
  backoffMs: number;
}

function memoryQueueSystem(cfg: Required<Pick<QueueConfig, "attempts" | "backoffMs">>): JobQueue {
  const jobs = new Map<string, Map<string, MemoryJob>>();
  const handlers = new Map<string, Registered>();
  const running = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  let seq = 0;
  let closed = false;
  const of = (kind: string) => {
    let m = jobs.get(kind);
    if (!m) jobs.set(kind, (m = new Map()));
    return m;
  };
  const snapshot = (j: MemoryJob): JobInfo<any> => ({ ...j.info, user: { ...j.info.user } });

  const pump = (kind: string) => {
    const reg = handlers.get(kind);
    if (!reg || closed) return;
    for (const job of of(kind).values()) {
      if ((running.get(kind) ?? 0) >= reg.concurrency) return;
      if (job.info.state === "waiting") void run(kind, job, reg);
    }
  };

  const run = async (kind: string, job: MemoryJob, reg: Registered) => {
    running.set(kind, (running.get(kind) ?? 0) + 1);
    job.info.state = "active";
    const ctx = makeContext(job.info.id, kind, job.data, job.info.attemptsMade + 1, job.info.maxAttempts, async (n) => {
      job.info.progress = n;
    });
    try {
      job.info.result = (await reg.handler(ctx)) ?? null;
      job.info.attemptsMade++;
      job.info.state = "completed";
      job.info.finishedAt = Date.now();
    } catch (err) {
      job.info.attemptsMade++;
      job.info.failedReason = err instanceof Error ? err.message : String(err);
      log.warn({ kind, id: job.info.id, attemptsMade: job.info.attemptsMade, err: job.info.failedReason }, "job attempt failed");
      if (isRetryable(err) && job.info.attemptsMade < job.info.maxAttempts && !closed) {
        job.info.state = "delayed";
        const t = setTimeout(
          () => {
            timers.delete(t);
            job.info.state = "waiting";
            pump(kind);
          },
          job.backoffMs * 2 ** (job.info.attemptsMade - 1),
        );
        timers.add(t);
      } else {
        job.info.state = "failed";
        job.info.finishedAt = Date.now();
      }
    } finally {
      running.set(kind, (running.get(kind) ?? 1) - 1);
      pump(kind);
    }
  };

  return {
    backend: "memory",
    registerJobHandler(kind, handler, opts = {}) {
      handlers.set(kind, { handler, concurrency: opts.concurrency ?? 1 });
      pump(kind);
    },
    async enqueueJob(kind, payload, user, opts = {}) {
      const id = String(++seq);
      const job: MemoryJob = {
        data: { payload, user: checkUser(user) },
        backoffMs: opts.backoffMs ?? cfg.backoffMs,
        info: {
          id,
          kind,
          state: "waiting",
          payload,
          user: checkUser(user),
          progress: 0,
          attemptsMade: 0,
          maxAttempts: opts.attempts ?? cfg.attempts,
          result: null,
          failedReason: null,
          createdAt: Date.now(),
          finishedAt: null,
        },
      };
      of(kind).set(id, job);
      log.info({ kind, id, user: user.username }, "job queued (in-process)");
      const queued = snapshot(job);
      // Start on the next tick so the caller gets the job as queued, as with bull.
      setImmediate(() => pump(kind));
      return queued;
    },
    async getJob(kind, id) {
      const j = of(kind).get(id);
      return j ? snapshot(j) : null;
    },
    async listJobs(kind, filter = {}) {
      return [...of(kind).values()]
        .map(snapshot)
        .filter((j) => (filter.userId === undefined || j.user.id === filter.userId) && (!filter.states || filter.states.includes(j.state)))
        .sort((a, b) => b.createdAt - a.createdAt);
    },
    bullQueues: () => [],
    onQueueCreated() {},
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}

/** A queue system from explicit settings (tests use their own prefix and short timings). */
export function createJobQueue(cfg: QueueConfig = {}): JobQueue {
  const attempts = Math.max(1, cfg.attempts ?? (Number(process.env.QUEUE_ATTEMPTS) || 5));
  const backoffMs = Math.max(1, cfg.backoffMs ?? (Number(process.env.QUEUE_BACKOFF_MS) || 5000));
  return cfg.redisUrl ? bullQueueSystem({ ...cfg, redisUrl: cfg.redisUrl, attempts, backoffMs }) : memoryQueueSystem({ attempts, backoffMs });
}

// ---- the app's queue -----------------------------------------------------------------------
// Created once by startRuntime() (app/.server/runtime.server.ts); the build is the only module
// graph that loads this file, so a plain module variable is the one queue (docs/architecture.md).
let appQueue: JobQueue | null = null;

/**
 * The in-process queue of the leading web process as another process of its group sees it
 * (docs/architecture.md "Several web processes"): without Redis, jobs run in the leader alone, so
 * a job queued through any process is one job, runs once, and reads the same from every process.
 * `call` is ProcessGroup.callLeader; payloads, users and results travel as JSON.
 */
export function leaderQueueProxy(call: (op: string, args: unknown[]) => Promise<unknown>): JobQueue {
  return {
    backend: "memory",
    registerJobHandler(kind) {
      throw new Error(`Only the leading web process runs jobs (a handler for "${kind}" was registered in another).`);
    },
    enqueueJob: async (kind, payload, user, opts) => (await call("enqueueJob", [kind, payload, user, opts ?? {}])) as JobInfo<any>,
    getJob: async (kind, id) => (await call("getJob", [kind, id])) as JobInfo<any> | null,
    listJobs: async (kind, filter) => (await call("listJobs", [kind, filter ?? {}])) as JobInfo<any>[],
    bullQueues: () => [],
    onQueueCreated() {},
    async close() {},
  };
}

/** On the leader: answers leaderQueueProxy's calls from its own queue. */
export function answerQueueCalls(queue: JobQueue): (op: string, args: unknown[]) => Promise<unknown> {
  return async (op, args) => {
    const [kind, a, b, c] = args as [JobKind, any, any, any];
    if (op === "enqueueJob") return queue.enqueueJob(kind, a, b, c);
    if (op === "getJob") return queue.getJob(kind, a);
    if (op === "listJobs") return queue.listJobs(kind, a);
    throw new Error(`unknown queue call ${op}`);
  };
}

/**
 * The app's queue from REDIS_URL and QUEUE_PREFIX; created by startRuntime(), not on import.
 * `leader`: without Redis, a web process that does not lead its group gets the leader's queue
 * through the group (leaderQueueProxy); with Redis every process reaches the same bull queues.
 */
export function createAppQueue(group?: { leader: boolean; callLeader(op: string, args: unknown[]): Promise<unknown> }): JobQueue {
  if (appQueue) return appQueue;
  if (group && !group.leader && !process.env.REDIS_URL) return (appQueue = leaderQueueProxy((op, args) => group.callLeader(op, args)));
  appQueue = createJobQueue({
    redisUrl: process.env.REDIS_URL || null,
    prefix: process.env.QUEUE_PREFIX || "metarank",
    lockDurationMs: Number(process.env.QUEUE_LOCK_DURATION_MS) || undefined,
    stalledIntervalMs: Number(process.env.QUEUE_STALLED_INTERVAL_MS) || undefined,
  });
  return appQueue;
}

/** The queue startRuntime() created; calling it before start-up is a programming error. */
export function jobQueue(): JobQueue {
  if (!appQueue) throw new Error("The job queue is not started: call startRuntime() first (server.ts does).");
  return appQueue;
}

export async function closeAppQueue(): Promise<void> {
  const q = appQueue;
  appQueue = null;
  await q?.close();
}

export const registerJobHandler: JobQueue["registerJobHandler"] = (kind, handler, opts) => jobQueue().registerJobHandler(kind, handler, opts);
export const enqueueJob: JobQueue["enqueueJob"] = (kind, payload, user, opts) => jobQueue().enqueueJob(kind, payload, user, opts);
export const getJob: JobQueue["getJob"] = (kind, id) => jobQueue().getJob(kind, id);
export const listJobs: JobQueue["listJobs"] = (kind, filter) => jobQueue().listJobs(kind, filter);
/* eslint-enable @typescript-eslint/no-explicit-any */
