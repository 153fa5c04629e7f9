// A suite's baseline board regenerated over every online sidecar (docs/evaluation.md "5. Running
// it"): one queue job per task × method (bull on Redis, so several app processes and GPU hosts
// share one run, and a lost worker's job runs again; in-process without Redis), each an
// Evaluation.Run of one method on one task on the least busy sidecar; the app gathers the per-task
// results into the same method folders `npm run -s evaluate -- --all-methods` writes
// (sidecar/inference/evaluation/run.ts writeMethodFolder), byte for byte on the same backend:
// every number a task contributes is computed by the same engine code on the same checkpoint, and
// the folder's files are assembled in the suite's task order with the same formatting. The command:
// scripts/regenerate.ts (npm run -s regenerate).
import fs from "node:fs";
import path from "node:path";
import { untilSidecarServes, type JobQueue, type JobUser } from "./queue.server.ts";
import { SidecarUnavailableError, rpc, serverStream, type SidecarTarget } from "./sidecar.server.ts";
import type { EvaluationEvent__Output } from "../../proto/generated/metarank/v1/EvaluationEvent.ts";

declare module "./queue.server.ts" {
  interface JobPayloads {
    /** One task × method of a board regeneration (app/.server/regeneration.server.ts). */
    "regeneration-shard": { suite: string; algorithm: string; params: string; task: string; images: number };
  }
}

/** What one shard brings back: its task's rows and records, and where it ran. */
export interface ShardResult {
  task: string;
  morfRow: string;
  lerfRow: string;
  header: string;
  /** null: the task has masks but no image had positive mass; undefined: no masks. */
  localisation?: number | null;
  images: Record<string, unknown>;
  backend: string;
  sidecar: string;
  seconds: number;
}

export interface BoardMethodSpec {
  folder: string;
  algorithm: string;
  params: Record<string, unknown>;
}

/**
 * The sidecars a shard may run on: a fixed list (`--sidecars`, SIDECARS), or a function asked
 * again before each try (the server registry's online sidecars), so a sidecar that comes online
 * while a regeneration waits is used.
 */
export type ShardTargets = SidecarTarget[] | (() => Promise<SidecarTarget[]>);

export interface ShardHandlerOptions {
  /** Shards one sidecar runs at once (default 1). */
  perSidecar?: number;
  /** Shards run at once in this process when `targets` is a function (default 1 × perSidecar). */
  concurrency?: number;
  /** First pause of a shard waiting for a compute server (default QUEUE_SIDECAR_PAUSE_MS; it doubles to a minute). */
  firstPauseMs?: number;
  /** Longest wait before the shard fails after all (default QUEUE_SIDECAR_WAIT_MS, 24 h). */
  maxWaitMs?: number;
}

/**
 * Spreads shard jobs over the given sidecars: each job runs on the sidecar with the fewest shards
 * in flight, so N sidecars each evaluate one shard at a time while the queue holds the rest.
 *
 * A shard that finds no compute server — none online yet, the chosen one not answering
 * (UNAVAILABLE: killed, restarting under its supervisor) or at its limit of evaluation runs
 * (RESOURCE_EXHAUSTED) — waits and asks again, choosing afresh, inside the same attempt, as every
 * other queued job does (app/.server/queue.server.ts untilSidecarServes; docs/architecture.md
 * "Supervision"): a regeneration's shards used to spend their attempts in seconds and fail the
 * whole board when a sidecar restarted or another run held it.
 */
export function registerShardHandler(queue: JobQueue, targets: ShardTargets, opts: ShardHandlerOptions = {}): void {
  if (Array.isArray(targets) && targets.length === 0) throw new Error("no sidecar to regenerate on");
  const listTargets = Array.isArray(targets) ? async () => targets : targets;
  const inFlight = new Map<string, number>();
  const busy = (t: SidecarTarget) => inFlight.get(t.address) ?? 0;
  const perSidecar = opts.perSidecar ?? 1;
  queue.registerJobHandler(
    "regeneration-shard",
    (job) =>
      untilSidecarServes(
        async () => {
          const candidates = await listTargets();
          if (candidates.length === 0) throw new SidecarUnavailableError();
          const target = candidates.reduce((best, t) => (busy(t) < busy(best) ? t : best));
          inFlight.set(target.address, busy(target) + 1);
          try {
            return await runShard(job.payload, target, (percent) => void job.progress(percent));
          } finally {
            inFlight.set(target.address, busy(target) - 1);
          }
        },
        { firstPauseMs: opts.firstPauseMs, maxWaitMs: opts.maxWaitMs },
      ),
    { concurrency: opts.concurrency ?? (Array.isArray(targets) ? targets.length : 1) * perSidecar },
  );
}

/** One Evaluation.Run of one method on one task, on the given sidecar. */
async function runShard(
  payload: { suite: string; algorithm: string; params: string; task: string; images: number },
  target: SidecarTarget,
  progress: (percent: number) => void,
): Promise<ShardResult> {
  let result: EvaluationEvent__Output["result"] = null;
  const { suite, algorithm, params, task, images } = payload;
  await serverStream(
    rpc().evaluation.Run,
    { suiteId: suite, method: algorithm, paramsJson: params, limit: images, tasks: [task] },
    (event) => {
      if (event.progress && event.progress.imagesTotal > 0) progress(Math.floor((100 * event.progress.imagesDone) / event.progress.imagesTotal));
      if (event.result) result = event.result;
    },
    { address: target },
  );
  const r = result as EvaluationEvent__Output["result"];
  if (!r) throw new Error(`${algorithm} on ${task}: the sidecar ended without a result`);
  const [header, morfRow] = r.morfCsv.trimEnd().split("\n");
  const lerfRow = r.lerfCsv.trimEnd().split("\n")[1];
  const loc = r.localisation.find((l) => l.task === task);
  const out: ShardResult = {
    task,
    header,
    morfRow,
    lerfRow,
    images: JSON.parse(r.imagesJson) as Record<string, unknown>,
    backend: r.backend,
    sidecar: target.address,
    seconds: r.seconds,
  };
  if (loc) out.localisation = loc.share ?? null;
  return out;
}

/** The folder files of one method from its tasks' shards, as writeMethodFolder formats them. */
export function methodFolderFiles(tasks: readonly string[], method: BoardMethodSpec, shards: Map<string, ShardResult>): Record<string, string> {
  const ordered = tasks.map((t) => {
    const s = shards.get(t);
    if (!s) throw new Error(`${method.algorithm}: no result for task ${t}`);
    return s;
  });
  const backends = new Set(ordered.map((s) => s.backend));
  // One board, one backend: numbers from different backends may round differently (docs/evaluation.md §6).
  if (backends.size > 1) throw new Error(`${method.algorithm}: tasks ran on different backends (${[...backends].join(", ")})`);
  const files: Record<string, string> = {
    "morf.csv": [ordered[0].header, ...ordered.map((s) => s.morfRow)].join("\n") + "\n",
    "lerf.csv": [ordered[0].header, ...ordered.map((s) => s.lerfRow)].join("\n") + "\n",
  };
  const loc = Object.fromEntries(ordered.filter((s) => s.localisation !== undefined).map((s) => [s.task, s.localisation]));
  if (Object.keys(loc).length > 0) files["localisation.json"] = JSON.stringify(loc, null, 2) + "\n";
  const first = ordered[0].images as { suite: string; algorithm: string; params: unknown; backend: string; images: number; settings: unknown };
  const record = {
    suite: first.suite,
    algorithm: first.algorithm,
    params: first.params,
    backend: first.backend,
    images: first.images,
    settings: first.settings,
    checkpoints: Object.fromEntries(ordered.map((s) => [s.task, (s.images.checkpoints as Record<string, unknown>)[s.task]])),
    tasks: Object.fromEntries(ordered.map((s) => [s.task, (s.images.tasks as Record<string, unknown>)[s.task]])),
  };
  files["images.json"] = JSON.stringify(record, null, 1) + "\n";
  files["method.json"] = JSON.stringify({ contributor: "Meta-Rank baseline", institute: "Meta-Rank platform", algorithm: method.algorithm }, null, 2) + "\n";
  return files;
}

export interface RegenerationProgress {
  done: number;
  total: number;
  /** Shards finished per sidecar address. */
  bySidecar: Record<string, number>;
}

/**
 * Enqueues every task × method, waits for all of them (a failed shard fails the run with its
 * reason after the queue's retries), then writes each method's folder under `outDir` (each file
 * to a temporary name, then renamed). Returns where each shard ran.
 */
export async function regenerateBoard(
  queue: JobQueue,
  run: { suite: string; tasks: readonly string[]; images: number; methods: readonly BoardMethodSpec[]; outDir: string; user: JobUser },
  onProgress?: (p: RegenerationProgress) => void,
  pollMs = 500,
): Promise<RegenerationProgress> {
  const jobs: { method: BoardMethodSpec; task: string; id: string }[] = [];
  for (const method of run.methods) {
    for (const task of run.tasks) {
      const payload = { suite: run.suite, algorithm: method.algorithm, params: JSON.stringify(method.params), task, images: run.images };
      const job = await queue.enqueueJob("regeneration-shard", payload, run.user);
      jobs.push({ method, task, id: job.id });
    }
  }
  const results = new Map<string, ShardResult>();
  const progress: RegenerationProgress = { done: 0, total: jobs.length, bySidecar: {} };
  while (results.size < jobs.length) {
    for (const j of jobs) {
      const key = `${j.method.folder}\u0000${j.task}`;
      if (results.has(key)) continue;
      const info = await queue.getJob("regeneration-shard", j.id);
      if (info?.state === "failed") throw new Error(`${j.method.algorithm} on ${j.task} failed: ${info.failedReason ?? "no reason given"}`);
      if (info?.state === "completed") {
        const r = info.result as ShardResult;
        results.set(key, r);
        progress.done = results.size;
        progress.bySidecar[r.sidecar] = (progress.bySidecar[r.sidecar] ?? 0) + 1;
        onProgress?.({ ...progress, bySidecar: { ...progress.bySidecar } });
      }
    }
    if (results.size < jobs.length) await new Promise((r) => setTimeout(r, pollMs));
  }
  for (const method of run.methods) {
    const shards = new Map(run.tasks.map((t) => [t, results.get(`${method.folder}\u0000${t}`)!]));
    const dir = path.join(run.outDir, method.folder);
    fs.mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(methodFolderFiles(run.tasks, method, shards))) {
      const tmp = path.join(dir, `.${name}.tmp`);
      fs.writeFileSync(tmp, text);
      fs.renameSync(tmp, path.join(dir, name));
    }
  }
  return progress;
}
