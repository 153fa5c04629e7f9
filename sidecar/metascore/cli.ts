// Command line for researchers and for checking a board by hand:
//   npm run -s metascore -- rank DIR
// DIR holds suite.json ({"tasks": [...]}, optionally "grid") and one folder per method with
// morf.csv and lerf.csv. Prints the ranked board as JSON (exit 0), or every problem of every
// file as PATH:LINE:COLUMN message on stderr (exit 2).
import fs from "node:fs";
import path from "node:path";
import { rankBoard } from "./kappa.ts";
import { MAX_RESULT_FILE_BYTES, fileCaseScores, formatProblem, oversizeProblem, parseResultFile } from "./resultFile.ts";
import type { FileProblem } from "./resultFile.ts";
import { parseSuiteJson } from "./suite.ts";
import { PROTOCOLS } from "./types.ts";
import type { CaseScores, MethodScores } from "./types.ts";

const USAGE = `usage: npm run -s metascore -- rank DIR
  DIR/suite.json          {"tasks": ["task_a", ...], "grid": [0, 0.1, ..., 1] (optional)}
  DIR/<method>/morf.csv   MoRF result file (header "task,0,...,1", one row per task)
  DIR/<method>/lerf.csv   LeRF result file
Prints a JSON array, best first, of {"method","metascore","rank","morf","lerf"}.`;

class UsageError extends Error {}

/** Read a result file unless it is missing or too large (its size is checked before reading). */
function readResultFile(file: string): { content: Buffer } | { problem: FileProblem } {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return { problem: { file, message: "file not found; each method folder needs morf.csv and lerf.csv" } };
  }
  if (!stat.isFile()) return { problem: { file, message: "not a regular file" } };
  if (stat.size > MAX_RESULT_FILE_BYTES) return { problem: oversizeProblem(file, stat.size) };
  return { content: fs.readFileSync(file) };
}

function rankDirectory(dir: string): { rows: unknown[] } | { errors: string[] } {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UsageError(`${dir}: not a directory`);
  const suitePath = path.join(dir, "suite.json");
  if (!fs.existsSync(suitePath)) throw new UsageError(`${suitePath}: file not found; DIR must hold suite.json`);
  const parsedSuite = parseSuiteJson(fs.readFileSync(suitePath, "utf8"));
  if ("problems" in parsedSuite) return { errors: parsedSuite.problems.map((p) => `${suitePath}: ${p}`) };
  const suite = parsedSuite.suite;

  const methodNames = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
    .map((entry) => entry.name)
    .sort();
  if (methodNames.length === 0) {
    // An empty board is a valid board (a suite shipped without baselines); say so, print [].
    process.stderr.write(`${dir}: no method folders yet; add one folder per method holding morf.csv and lerf.csv\n`);
  }

  const errors: string[] = [];
  const methods: MethodScores[] = [];
  for (const name of methodNames) {
    const scores: Partial<CaseScores> = {};
    for (const protocol of PROTOCOLS) {
      const file = path.join(dir, name, `${protocol}.csv`);
      const read = readResultFile(file);
      if ("problem" in read) {
        errors.push(formatProblem(read.problem));
        continue;
      }
      // Each file is checked even when its sibling failed, so one run shows everything to fix.
      const outcome = parseResultFile(read.content, { fileName: file, tasks: suite.tasks, grid: suite.grid });
      if (outcome.ok) {
        scores[protocol] = fileCaseScores(outcome.file);
      } else {
        errors.push(...outcome.problems.map(formatProblem));
        if (outcome.omitted > 0) errors.push(`${file}: ${outcome.omitted} more problems not shown`);
      }
    }
    if (scores.morf && scores.lerf) methods.push({ id: name, scores: { morf: scores.morf, lerf: scores.lerf } });
  }
  if (errors.length > 0) return { errors };
  return {
    rows: rankBoard(methods).map((row) => ({
      method: row.id,
      metascore: row.metascore,
      rank: row.rank,
      morf: row.morf,
      lerf: row.lerf,
    })),
  };
}

function main(argv: string[]): number {
  if (argv.length === 1 && (argv[0] === "--help" || argv[0] === "-h")) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    if (argv[0] !== "rank" || argv.length !== 2) {
      throw new UsageError(argv.length === 0 ? "missing command" : `unexpected arguments: ${argv.join(" ")}`);
    }
    const result = rankDirectory(argv[1]);
    if ("errors" in result) {
      process.stderr.write(`${result.errors.join("\n")}\n`);
      return 2;
    }
    process.stdout.write(`${JSON.stringify(result.rows, null, 2)}\n`);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n${USAGE}\n`);
      return 2;
    }
    throw err;
  }
}

process.exitCode = main(process.argv.slice(2));
