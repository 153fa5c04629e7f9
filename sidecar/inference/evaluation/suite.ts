// What the evaluation needs from a suite folder (seeds/suites/<id>/suite.json): the
// scoring fields every suite has (tasks, patchSize, filler, grid) and the optional
// "evaluation" block that pins how the platform's own baseline was computed, so a
// number in a committed result file can be reproduced from the folder alone.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseSuiteJson } from "../../metascore/suite.ts";
import type { EvaluationSettings } from "./engine.ts";

export const DEFAULT_GRID = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
/** Repository root (this file is sidecar/inference/evaluation/suite.ts). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const SUITES_DIR = path.join(REPO_ROOT, "seeds/suites");

export interface BaselineMethod {
  /** Folder name under the suite. */
  folder: string;
  /** Registry name (sidecar/inference/attribution/index.ts). */
  algorithm: string;
  /** Parameters given to the algorithm; everything else is the registry default. */
  params: Record<string, unknown>;
}

export interface EvaluationConfig {
  /** Which split of every dataset the images come from. */
  split: "test";
  /** The first `images` images of that split, in file/generation order. */
  images: number;
  /** Tensor backend the committed numbers were computed on. */
  backend: string;
  methods: BaselineMethod[];
  /** Task → zoo checkpoint id the suite pins (tasks.ts checkpointCandidates); tasks not named use the default ids. */
  checkpoints: Record<string, string>;
}

export interface SuiteConfig {
  id: string;
  dir: string;
  name: string;
  tasks: string[];
  settings: EvaluationSettings;
  evaluation?: EvaluationConfig;
}

export class SuiteConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SuiteConfigError";
  }
}

/** A suite id (folder under seeds/suites) or a path to a suite folder. */
export function resolveSuiteDir(idOrPath: string): string {
  if (fs.existsSync(path.join(idOrPath, "suite.json"))) return path.resolve(idOrPath);
  const dir = path.join(SUITES_DIR, idOrPath);
  if (fs.existsSync(path.join(dir, "suite.json"))) return dir;
  throw new SuiteConfigError(`no suite "${idOrPath}": expected ${path.relative(process.cwd(), dir)}/suite.json`);
}

export function readSuite(idOrPath: string): SuiteConfig {
  const dir = resolveSuiteDir(idOrPath);
  const file = path.join(dir, "suite.json");
  const text = fs.readFileSync(file, "utf8");
  const parsed = parseSuiteJson(text);
  if ("problems" in parsed) throw new SuiteConfigError(`${file}: ${parsed.problems.join("; ")}`);
  const json = JSON.parse(text.replace(/^\uFEFF/, "")) as Record<string, unknown>;
  const patchSize = json.patchSize ?? 2;
  if (typeof patchSize !== "number" || !Number.isInteger(patchSize) || patchSize < 1) {
    throw new SuiteConfigError(`${file}: "patchSize" must be a whole number of pixels ≥ 1`);
  }
  const filler = json.filler ?? [0, 0, 0];
  if (!Array.isArray(filler) || filler.length === 0 || filler.some((v) => typeof v !== "number" || !Number.isFinite(v))) {
    throw new SuiteConfigError(`${file}: "filler" must be a list of numbers, one per channel`);
  }
  const config: SuiteConfig = {
    id: typeof json.id === "string" ? json.id : path.basename(dir),
    dir,
    name: typeof json.name === "string" ? json.name : path.basename(dir),
    tasks: [...parsed.suite.tasks],
    settings: { patchSize, filler: filler as number[], grid: [...(parsed.suite.grid ?? DEFAULT_GRID)] },
  };
  if (json.evaluation !== undefined) config.evaluation = readEvaluation(file, json.evaluation);
  for (const task of Object.keys(config.evaluation?.checkpoints ?? {})) {
    if (!config.tasks.includes(task)) throw new SuiteConfigError(`${file}: evaluation.checkpoints names "${task}", which is not one of the suite's tasks`);
  }
  return config;
}

function readEvaluation(file: string, raw: unknown): EvaluationConfig {
  const e = raw as Record<string, unknown>;
  if (typeof e !== "object" || e === null) throw new SuiteConfigError(`${file}: "evaluation" must be an object`);
  if (e.split !== "test") throw new SuiteConfigError(`${file}: evaluation.split must be "test"`);
  if (typeof e.images !== "number" || !Number.isInteger(e.images) || e.images < 1) {
    throw new SuiteConfigError(`${file}: evaluation.images must be a whole number ≥ 1`);
  }
  const methods = e.methods;
  if (!Array.isArray(methods)) throw new SuiteConfigError(`${file}: evaluation.methods must be a list`);
  const folders = new Set<string>();
  const list = methods.map((m, i) => {
    const { folder, algorithm, params } = (m ?? {}) as Record<string, unknown>;
    if (typeof folder !== "string" || !/^[A-Za-z0-9_.-]+$/.test(folder) || folders.has(folder)) {
      throw new SuiteConfigError(`${file}: evaluation.methods[${i}].folder must be a unique folder name`);
    }
    folders.add(folder);
    if (typeof algorithm !== "string") throw new SuiteConfigError(`${file}: evaluation.methods[${i}].algorithm must be a method name`);
    if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params))) {
      throw new SuiteConfigError(`${file}: evaluation.methods[${i}].params must be an object`);
    }
    return { folder, algorithm, params: (params ?? {}) as Record<string, unknown> };
  });
  const checkpoints: Record<string, string> = {};
  if (e.checkpoints !== undefined) {
    if (typeof e.checkpoints !== "object" || e.checkpoints === null || Array.isArray(e.checkpoints))
      throw new SuiteConfigError(`${file}: evaluation.checkpoints must be an object { "<task>": "<checkpoint id>" }`);
    for (const [task, id] of Object.entries(e.checkpoints as Record<string, unknown>)) {
      if (typeof id !== "string" || !/^[a-z0-9][a-z0-9._-]*$/.test(id))
        throw new SuiteConfigError(`${file}: evaluation.checkpoints.${task} must be a checkpoint id`);
      checkpoints[task] = id;
    }
  }
  return { split: "test", images: e.images, backend: typeof e.backend === "string" ? e.backend : "wasm", methods: list, checkpoints };
}

/** The checkpoint a suite pins for a task, if any (else tasks.ts's default ids). */
export function pinnedCheckpoint(suite: Pick<SuiteConfig, "evaluation">, task: string): string | undefined {
  return suite.evaluation?.checkpoints[task];
}
