// One method over a suite's tasks: every task's evaluation images through the pool,
// summarised into the result-file pair, localisation and per-image record. Shared by
// the CLI, the bench and the reproduction test (and the web app's queue job later).
import fs from "node:fs";
import path from "node:path";
import { summarise, type ImageResult, type Progress, type TaskSummary } from "./engine.ts";
import type { EvalJob, EvaluationPool } from "./pool.ts";
import { imagesRecord, localisationJson, resultCsv, type TaskImages } from "./resultFiles.ts";
import { pinnedCheckpoint, type SuiteConfig } from "./suite.ts";
import { suiteCheckpoints } from "./taskCheckpoints.ts";
import type { ShardStore } from "./shards.ts";

export interface MethodRun {
  /** Registry name, a method module's name, or the name a researcher gave uploaded maps. */
  algorithm: string;
  params: Record<string, unknown>;
  tasks: string[];
  /** Images per task (the split's first N). */
  images: number;
  /** Given pixel maps per task (N×H×W, N = images) instead of running a method (RunMaps). */
  maps?: Record<string, Float32Array>;
  /** Absolute file URL of a method module (methodModule.ts) instead of the registry method. */
  methodModule?: string;
  /** Keep every image's pixel map in the outcome (the CLI's maps.zip). */
  keepMaps?: boolean;
}

export interface MethodOutcome {
  summaries: Record<string, TaskSummary>;
  perImage: Record<string, TaskImages>;
  seconds: number;
  /** Per task, every image's pixel map (H×W, channels summed) stacked in image order (only when the run kept them). */
  maps?: Record<string, Float32Array>;
}

export interface TaskProgress extends Progress {
  task: string;
  taskNumber: number;
  taskCount: number;
}

export async function evaluateMethod(
  suite: SuiteConfig,
  run: MethodRun,
  pool: EvaluationPool,
  opts: {
    signal?: AbortSignal;
    onProgress?: (p: TaskProgress) => void;
    /**
     * Finished tasks of a registry method are kept here and reused (shards.ts), so a run killed
     * half-way resumes; `backend` is part of each shard's name. Not for maps or method modules,
     * whose inputs live outside the fingerprint.
     */
    shards?: { store: ShardStore; backend: string; onReused?: (task: string) => void };
  } = {},
): Promise<MethodOutcome> {
  const started = Date.now();
  const summaries: Record<string, TaskSummary> = {};
  const perImage: Record<string, TaskImages> = {};
  const maps: NonNullable<MethodOutcome["maps"]> = {};
  const shards = run.maps || run.methodModule || run.keepMaps ? undefined : opts.shards;
  for (const [i, task] of run.tasks.entries()) {
    const spec = shards ? { suite, task, algorithm: run.algorithm, params: run.params, images: run.images, backend: shards.backend } : null;
    const done = spec ? shards!.store.get(spec) : null;
    if (done) {
      summaries[task] = done.summary;
      perImage[task] = done.perImage;
      shards!.onReused?.(task);
      continue;
    }
    const job: EvalJob = { taskId: task, algorithm: run.algorithm, params: run.params, settings: suite.settings, images: run.images };
    const pinned = pinnedCheckpoint(suite, task);
    if (pinned) job.checkpoint = pinned;
    if (run.maps) {
      if (!run.maps[task]) throw new Error(`no maps for task ${task}`);
      job.maps = run.maps[task];
    }
    if (run.methodModule) job.methodModule = run.methodModule;
    if (run.keepMaps) job.returnMaps = true;
    const replies = await pool.runWithMaps(job, {
      signal: opts.signal,
      onProgress: (p) => opts.onProgress?.({ ...p, task, taskNumber: i + 1, taskCount: run.tasks.length }),
    });
    const results: ImageResult[] = replies.map((r) => r.result);
    summaries[task] = summarise(results, suite.settings.grid.length);
    perImage[task] = imagesRecord(results);
    if (spec) shards!.store.put(spec, { summary: summaries[task], perImage: perImage[task] });
    if (run.keepMaps) maps[task] = stackMaps(task, replies);
  }
  const outcome: MethodOutcome = { summaries, perImage, seconds: (Date.now() - started) / 1000 };
  if (run.keepMaps) outcome.maps = maps;
  return outcome;
}

/** The images' pixel maps, one after another in image order (N × H·W). */
function stackMaps(task: string, replies: Array<{ map?: Float32Array }>): Float32Array {
  const per = replies[0]?.map?.length ?? 0;
  const data = new Float32Array(per * replies.length);
  replies.forEach((r, i) => {
    if (!r.map || r.map.length !== per) throw new Error(`task ${task}: image ${i} came back without its pixel map`);
    data.set(r.map, i * per);
  });
  return data;
}

export interface MethodMeta {
  contributor: string;
  institute: string;
  algorithm: string;
}

/** Writes morf.csv, lerf.csv, images.json, localisation.json (when a task has masks) and method.json (when given). */
export function writeMethodFolder(
  dir: string,
  suite: SuiteConfig,
  run: MethodRun,
  outcome: MethodOutcome,
  extra: { backend: string; meta?: MethodMeta },
): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  const put = (name: string, text: string) => {
    fs.writeFileSync(path.join(dir, name), text);
    written.push(path.join(dir, name));
  };
  put("morf.csv", resultCsv("morf", suite.settings.grid, run.tasks, outcome.summaries));
  put("lerf.csv", resultCsv("lerf", suite.settings.grid, run.tasks, outcome.summaries));
  const loc = localisationJson(run.tasks, outcome.summaries);
  if (Object.keys(loc).length > 0) put("localisation.json", JSON.stringify(loc, null, 2) + "\n");
  put(
    "images.json",
    JSON.stringify(
      {
        suite: suite.id,
        algorithm: run.algorithm,
        params: run.params,
        backend: extra.backend,
        images: run.images,
        settings: suite.settings,
        // The weights behind every number: a retrained checkpoint gives other numbers.
        checkpoints: suiteCheckpoints(suite, run.tasks),
        // One string per image, one character per grid point: 1 = still classified correctly.
        tasks: outcome.perImage,
      },
      null,
      1,
    ) + "\n",
  );
  if (extra.meta) put("method.json", JSON.stringify(extra.meta, null, 2) + "\n");
  return written;
}
