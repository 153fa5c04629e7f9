// Loads a suite folder (suite.json + one folder per baseline method holding morf.csv,
// lerf.csv and method.json) into the database: `make import-baselines DIR=...`, and the
// seeding step for every folder of seeds/suites/. Files are checked by the sidecar's own
// parser (pure code, imported directly so seeding needs no running sidecar), every problem
// is reported before anything is written, and the whole import is one transaction.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Transaction } from "sequelize";
import { BoardMethod, Suite, isSqlite, sequelize } from "../models/index.ts";
import { computeKappas } from "../sidecar/metascore/kappa.ts";
import { scoreMethodFiles } from "../sidecar/metascore/methodFiles.ts";
import { MAX_RESULT_FILE_BYTES, formatProblem, oversizeProblem } from "../sidecar/metascore/resultFile.ts";
import { parseSuiteJson } from "../sidecar/metascore/suite.ts";
import type { CaseScores } from "../sidecar/metascore/types.ts";
import type { CaseCurves } from "../sidecar/metascore/methodFiles.ts";
import { taskManifest } from "../sidecar/inference/evaluation/taskCheckpoints.ts";
import { CheckpointError } from "../sidecar/zoo/checkpoint.ts";
import type { TaskModel } from "../app/lib/taskModels.ts";

/**
 * The manifest of the checkpoint each task uses (the suite's pin, else the default ids), as the
 * leaderboard shows it. A task without a checkpoint here (the metarank-seed suite's ImageNet tasks) is null:
 * the page then says so instead of naming a model it does not have.
 */
export function readTaskModels(tasks: readonly string[], pins: Record<string, string>): Record<string, TaskModel | null> {
  const out: Record<string, TaskModel | null> = {};
  for (const task of tasks) {
    try {
      const m = taskManifest(task, undefined, pins[task]) as ReturnType<typeof taskManifest> & { valHistory?: number[] };
      out[task] = {
        checkpoint: m.id,
        arch: m.arch,
        dataset: m.dataset,
        input: m.inputShape,
        classes: m.classNames.length,
        testAccuracy: m.testAccuracy,
        testSize: m.testSize,
        trainSize: m.trainSize,
        epochs: m.epochs,
        ...(Array.isArray(m.valHistory) ? { valHistory: m.valHistory } : {}),
      };
    } catch (err) {
      if (!(err instanceof CheckpointError) && (err as Error).name !== "TaskUnavailableError") throw err;
      out[task] = null;
    }
  }
  return out;
}

export class SuiteImportError extends Error {
  constructor(readonly problems: string[]) {
    super(`${problems.length} problem(s):\n${problems.join("\n")}`);
  }
}

export interface SuiteFolder {
  id: string;
  name: string;
  description: string;
  /** suite.json "translations": the name and description in other languages. */
  translations: SuiteTranslations;
  tasks: string[];
  grid: number[];
  filler: number[];
  patchSize: number;
  isDefault: boolean;
  /** suite.json "submissions": { "selfReported": false } makes the board take verified results only. */
  acceptsSelfReported: boolean;
  /** suite.json evaluation.images: images per task of the evaluation split (maps per task), or null. */
  splitImages: number | null;
  /** Each task's network as its checkpoint manifest describes it (the leaderboard's tasks table); null when this server has none. */
  taskModels: Record<string, TaskModel | null>;
  methods: {
    key: string;
    contributor: string;
    institute: string;
    algorithm: string;
    scores: CaseScores;
    /** The accuracy curves behind the scores (the leaderboard's curves). */
    curves: CaseCurves;
    localisation: Record<string, number> | null;
  }[];
}

const DEFAULT_GRID = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

function readLimited(file: string, problems: string[]): Buffer | undefined {
  if (!fs.existsSync(file)) {
    problems.push(`${file}: file not found; each method folder needs morf.csv, lerf.csv and method.json`);
    return undefined;
  }
  const size = fs.statSync(file).size;
  if (size > MAX_RESULT_FILE_BYTES) {
    problems.push(formatProblem(oversizeProblem(file, size)));
    return undefined;
  }
  return fs.readFileSync(file);
}

const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");

/** Optional localisation.json: { task: share in [0, 1] } for tasks of the suite with object masks. */
function readLocalisation(file: string, tasks: readonly string[], problems: string[]): Record<string, number> | null {
  if (!fs.existsSync(file)) return null;
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, "utf8").replace(/^\uFEFF/, ""));
  } catch (err) {
    problems.push(`${file}: not valid JSON (${(err as Error).message})`);
    return null;
  }
  if (!json || typeof json !== "object" || Array.isArray(json)) {
    problems.push(`${file}: must be an object of task → share of attribution inside the object mask`);
    return null;
  }
  const out: Record<string, number> = {};
  for (const [task, v] of Object.entries(json as Record<string, unknown>)) {
    if (!tasks.includes(task)) problems.push(`${file}: unknown task "${task}"`);
    else if (typeof v !== "number" || !(v >= 0 && v <= 1)) problems.push(`${file}: ${task} must be a number in [0, 1]`);
    else out[task] = v;
  }
  return out;
}

/** The translated texts a suite.json may carry, and their bounds (the suites table's columns hold them). */
export type SuiteTranslations = Record<string, { name?: string; description?: string }>;
const TRANSLATION_LIMITS = { languages: 8, name: 255, description: 8000 };

/**
 * Optional suite.json "translations": { "<language>": { "name"?, "description"? } }, the texts the
 * leaderboard shows a visitor in that language (the interface's languages, app/i18n/config.ts;
 * English is the suite's own "name" and "description").
 */
function readTranslations(value: unknown, file: string, problems: string[]): SuiteTranslations {
  if (value === undefined) return {};
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    problems.push(`${file}: "translations" must be an object such as { "zh": { "name": "…", "description": "…" } }`);
    return {};
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > TRANSLATION_LIMITS.languages) problems.push(`${file}: "translations" holds at most ${TRANSLATION_LIMITS.languages} languages`);
  const out: SuiteTranslations = {};
  for (const [lng, t] of entries.slice(0, TRANSLATION_LIMITS.languages)) {
    if (!/^[a-z]{2,3}(-[A-Za-z]{2,4})?$/.test(lng)) {
      problems.push(`${file}: "translations" key ${JSON.stringify(lng.slice(0, 20))} is not a language code such as "zh"`);
      continue;
    }
    if (!t || typeof t !== "object" || Array.isArray(t)) {
      problems.push(`${file}: "translations.${lng}" must be an object with "name" and/or "description"`);
      continue;
    }
    const entry: { name?: string; description?: string } = {};
    for (const [field, v] of Object.entries(t as Record<string, unknown>)) {
      if (field !== "name" && field !== "description")
        problems.push(`${file}: "translations.${lng}.${field.slice(0, 40)}" is not a translated field (name, description)`);
      else if (typeof v !== "string" || !v.trim()) problems.push(`${file}: "translations.${lng}.${field}" must be non-empty text`);
      else if (v.trim().length > TRANSLATION_LIMITS[field])
        problems.push(`${file}: "translations.${lng}.${field}" is longer than ${TRANSLATION_LIMITS[field]} characters`);
      else entry[field] = v.trim();
    }
    out[lng] = entry;
  }
  return out;
}

/** Reads and checks a suite folder without touching the database; throws SuiteImportError with every problem. */
export function readSuiteFolder(dir: string): SuiteFolder {
  const problems: string[] = [];
  const suitePath = path.join(dir, "suite.json");
  if (!fs.existsSync(suitePath)) throw new SuiteImportError([`${suitePath}: file not found`]);
  const raw = fs.readFileSync(suitePath, "utf8");
  const parsed = parseSuiteJson(raw);
  if ("problems" in parsed) throw new SuiteImportError(parsed.problems.map((p) => `${suitePath}: ${p}`));
  const json = JSON.parse(raw.replace(/^\uFEFF/, "")) as Record<string, unknown>;
  const id = text(json.id) || path.basename(path.resolve(dir));
  if (!/^[A-Za-z0-9_.-]{1,100}$/.test(id))
    problems.push(`${suitePath}: "id" must be letters, digits, "_", "-" or "." (at most 100), found ${JSON.stringify(id)}`);
  const grid = (parsed.suite.grid as number[] | undefined) ?? DEFAULT_GRID;
  const filler = Array.isArray(json.filler) && json.filler.every((v) => typeof v === "number") ? (json.filler as number[]) : [0, 0, 0];
  const patchSize = typeof json.patchSize === "number" && Number.isInteger(json.patchSize) && json.patchSize > 0 ? json.patchSize : 2;
  const submissions = json.submissions as Record<string, unknown> | undefined;
  if (submissions !== undefined && (typeof submissions !== "object" || submissions === null || Array.isArray(submissions)))
    problems.push(`${path.join(dir, "suite.json")}: "submissions" must be an object such as { "selfReported": false }`);
  else if (submissions?.selfReported !== undefined && typeof submissions.selfReported !== "boolean")
    problems.push(`${path.join(dir, "suite.json")}: "submissions.selfReported" must be true or false`);
  const acceptsSelfReported = submissions?.selfReported !== false;
  const translations = readTranslations(json.translations, suitePath, problems);
  const evaluation = json.evaluation as Record<string, unknown> | undefined;
  const images = evaluation && typeof evaluation === "object" ? evaluation.images : undefined;
  const splitImages = typeof images === "number" && Number.isInteger(images) && images > 0 ? images : null;
  const rawPins = evaluation && typeof evaluation === "object" ? evaluation.checkpoints : undefined;
  const pins: Record<string, string> = {};
  if (rawPins && typeof rawPins === "object" && !Array.isArray(rawPins))
    for (const [task, v] of Object.entries(rawPins as Record<string, unknown>)) if (typeof v === "string") pins[task] = v;

  const methods: SuiteFolder["methods"] = [];
  const folders = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith("."))
    .map((e) => e.name)
    .sort();
  for (const key of folders) {
    const folder = path.join(dir, key);
    const metaPath = path.join(folder, "method.json");
    let meta: Record<string, unknown> = {};
    if (!fs.existsSync(metaPath)) problems.push(`${metaPath}: file not found; it gives contributor, institute and algorithm`);
    else {
      try {
        meta = JSON.parse(fs.readFileSync(metaPath, "utf8").replace(/^\uFEFF/, "")) as Record<string, unknown>;
      } catch (err) {
        problems.push(`${metaPath}: not valid JSON (${(err as Error).message})`);
      }
      for (const field of ["contributor", "algorithm"] as const) {
        if (!text(meta[field])) problems.push(`${metaPath}: "${field}" must be a non-empty string`);
      }
    }
    const morfPath = path.join(folder, "morf.csv");
    const lerfPath = path.join(folder, "lerf.csv");
    const morf = readLimited(morfPath, problems);
    const lerf = readLimited(lerfPath, problems);
    if (!morf || !lerf) continue;
    const outcome = scoreMethodFiles({ tasks: parsed.suite.tasks, grid }, { name: morfPath, content: morf }, { name: lerfPath, content: lerf });
    if (!outcome.ok) {
      problems.push(...outcome.problems.map(formatProblem));
      if (outcome.omitted) problems.push(`${folder}: ${outcome.omitted} more problem(s) not listed`);
      continue;
    }
    const localisation = readLocalisation(path.join(folder, "localisation.json"), parsed.suite.tasks, problems);
    methods.push({
      key,
      contributor: text(meta.contributor),
      institute: text(meta.institute),
      algorithm: text(meta.algorithm),
      scores: outcome.scores,
      curves: outcome.curves,
      localisation,
    });
  }
  if (problems.length > 0) throw new SuiteImportError(problems);
  return {
    id,
    name: text(json.name) || id,
    description: text(json.description),
    translations,
    tasks: [...parsed.suite.tasks],
    grid,
    filler,
    patchSize,
    isDefault: json.default === true,
    acceptsSelfReported,
    splitImages,
    taskModels: readTaskModels(parsed.suite.tasks, pins),
    methods,
  };
}

const toTaskScores = (tasks: string[], scores: CaseScores) => tasks.map((task) => ({ task, morf: scores.morf[task], lerf: scores.lerf[task] }));
const fromTaskScores = (rows: { task: string; morf: number; lerf: number }[]): CaseScores => {
  const out: CaseScores = { morf: {}, lerf: {} };
  for (const r of rows) {
    out.morf[r.task] = r.morf;
    out.lerf[r.task] = r.lerf;
  }
  return out;
};

/**
 * Writes a checked suite folder: the suite row, its baselines (matched by folder name, so
 * re-running changes nothing twice) and κ of the whole board (baselines + approved submissions) by
 * full recomputation, which fusion equals (docs/metascore.md "History fusion").
 */
export async function importSuite(dir: string, position = 0): Promise<{ suite: string; methods: number; board: number }> {
  const folder = readSuiteFolder(dir);
  // IMMEDIATE on SQLite: take the write lock up front, like approvals do, so the two never interleave.
  const options = isSqlite() ? { type: Transaction.TYPES.IMMEDIATE } : {};
  return sequelize.transaction(options, async (transaction) => {
    const values = {
      name: folder.name,
      description: folder.description,
      tasksJson: JSON.stringify(folder.tasks),
      gridJson: JSON.stringify(folder.grid),
      fillerJson: JSON.stringify(folder.filler),
      patchSize: folder.patchSize,
      isDefault: folder.isDefault,
      acceptsSelfReported: folder.acceptsSelfReported,
      splitImages: folder.splitImages,
      taskModelsJson: JSON.stringify(folder.taskModels),
      translationsJson: Object.keys(folder.translations).length > 0 ? JSON.stringify(folder.translations) : null,
      position,
    };
    const existing = await Suite.findByPk(folder.id, { transaction, lock: transaction.LOCK.UPDATE });
    if (existing) await existing.update(values, { transaction });
    else await Suite.create({ id: folder.id, ...values }, { transaction });

    for (const m of folder.methods) {
      const row = {
        contributor: m.contributor,
        institute: m.institute,
        algorithm: m.algorithm,
        scoresJson: JSON.stringify(toTaskScores(folder.tasks, m.scores)),
        localisationJson: m.localisation ? JSON.stringify(m.localisation) : null,
        curvesJson: JSON.stringify(m.curves),
      };
      const found = await BoardMethod.findOne({ where: { suiteId: folder.id, sourceKey: m.key }, transaction });
      if (found) await found.update(row, { transaction });
      else
        await BoardMethod.create(
          { suiteId: folder.id, sourceKey: m.key, submissionId: null, ...row, metascore: 0, morfMetascore: 0, lerfMetascore: 0 },
          { transaction },
        );
    }
    const board = await BoardMethod.findAll({ where: { suiteId: folder.id }, order: [["id", "ASC"]], transaction });
    if (board.length > 0) {
      const kappas = computeKappas(board.map((b) => ({ id: String(b.id), scores: fromTaskScores(b.scores) })));
      for (const [i, b] of board.entries()) {
        await b.update({ metascore: kappas[i].overall, morfMetascore: kappas[i].morf, lerfMetascore: kappas[i].lerf }, { transaction });
      }
    }
    return { suite: folder.id, methods: folder.methods.length, board: board.length };
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    console.error("usage: node --import tsx seeds/importSuite.ts DIR   (DIR: suite.json + one folder per method)");
    process.exit(2);
  }
  importSuite(dir, 100)
    .then((r) => {
      console.log(`suite ${r.suite}: ${r.methods} baseline method(s) imported; the board now has ${r.board} method(s)`);
      return sequelize.close();
    })
    .catch(async (err) => {
      console.error(err instanceof SuiteImportError ? err.message : err);
      await sequelize.close();
      process.exit(2);
    });
}
