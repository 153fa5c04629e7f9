// One method over a suite's tasks: every task's evaluation images through the pool,
// summarised into the result-file pair, localisation and per-image record. Shared by
// the CLI, the bench and the reproduction test (and the web app's queue job later).
import fs from "node:fs";
import path from "node:path";
import { summarise, type ImageResult, type Progress, type TaskSummary } from "./engine.ts";
import type { EvaluationPool } from "./pool.ts";
import { imagesRecord, localisationJson, resultCsv, type TaskImages } from "./resultFiles.ts";
import type { SuiteConfig } from "./suite.ts";
import { taskCheckpoint } from "./tasks.ts";

export interface MethodRun {
  algorithm: string;
  params: Record<string, unknown>;
  tasks: string[];
  /** Images per task (the split's first N). */
  images: number;
}

export interface MethodOutcome {
  summaries: Record<string, TaskSummary>;
  perImage: Record<string, TaskImages>;
  seconds: number;
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
  opts: { signal?: AbortSignal; onProgress?: (p: TaskProgress) => void } = {},
): Promise<MethodOutcome> {
  const started = Date.now();
  const summaries: Record<string, TaskSummary> = {};
  const perImage: Record<string, TaskImages> = {};
  for (const [i, task] of run.tasks.entries()) {
    const results: ImageResult[] = await pool.run(
      { taskId: task, algorithm: run.algorithm, params: run.params, settings: suite.settings, images: run.images },
      { signal: opts.signal, onProgress: (p) => opts.onProgress?.({ ...p, task, taskNumber: i + 1, taskCount: run.tasks.length }) },
    );
    summaries[task] = summarise(results, suite.settings.grid.length);
    perImage[task] = imagesRecord(results);
  }
  return { summaries, perImage, seconds: (Date.now() - started) / 1000 };
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
        checkpoints: Object.fromEntries(run.tasks.map((t) => [t, taskCheckpoint(t)])),
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
