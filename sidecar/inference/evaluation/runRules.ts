// What both evaluation calls (Run in service.ts, RunMaps in runMaps.ts) check a request against:
// the suites this sidecar holds, how many images a suite evaluates per task, how many runs and
// threads a run may take, and the error that tells the caller what to change. Its own module so
// that neither call's module imports the other.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SUITES_DIR, readSuite, type SuiteConfig } from "./suite.ts";

/** Suites without an "evaluation" block evaluate this many images at most (the CLI's default). */
export const DEFAULT_SPLIT_IMAGES = 100;

/** A request the caller must change; its message says how. */
export class BadEvaluationRequest extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BadEvaluationRequest";
  }
}

/** Suite folders under seeds/suites (or SUITES_DIR), read one by one so one bad folder hides only itself. */
export function listSuiteConfigs(dir = process.env.EVALUATION_SUITES_DIR ?? SUITES_DIR): { suites: SuiteConfig[]; problems: string[] } {
  const suites: SuiteConfig[] = [];
  const problems: string[] = [];
  let names: string[] = [];
  try {
    names = fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch (err) {
    problems.push(`suites folder ${dir} cannot be read: ${(err as Error).message}`);
  }
  for (const name of names) {
    if (!fs.existsSync(path.join(dir, name, "suite.json"))) continue;
    try {
      suites.push(readSuite(path.join(dir, name)));
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  return { suites, problems };
}

export const splitImages = (suite: SuiteConfig) => suite.evaluation?.images ?? DEFAULT_SPLIT_IMAGES;

/** Evaluation runs one sidecar runs at once (EVALUATION_MAX_RUNS, default 1): each takes EVALUATION_WORKERS threads. */
export function maxConcurrentRuns(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.EVALUATION_MAX_RUNS);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** Threads per run: EVALUATION_WORKERS, else two (or one on a one-core host). */
export function evaluationWorkers(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.EVALUATION_WORKERS);
  return Number.isInteger(n) && n >= 1 ? n : Math.max(1, Math.min(2, os.availableParallelism()));
}
