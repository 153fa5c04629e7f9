// Result files (docs/metascore.md "Result files"): one CSV per protocol, a header of removal
// fractions and one row of top-1 accuracies per task of the suite. Every problem is collected (up
// to a cap) so a researcher can fix a file in one pass instead of one upload per mistake.
import { trapezoidAuc } from "./caseScore.ts";

/** Largest accepted file, in bytes (500 KB), checked before any parsing. */
export const MAX_RESULT_FILE_BYTES = 512_000;
/** Most problems reported per file; the rest are only counted. */
export const MAX_PROBLEMS = 20;
/** Two removal fractions closer than this are the same grid point. */
const GRID_TOLERANCE = 1e-9;

/**
 * Every problem a result file can have, as the English sentence the CLI and the gRPC `message`
 * carry. The code and its values travel too, so the web app can say it in the visitor's language
 * (app/locales/en/submission.json and zh, "fileProblem").
 */
const PROBLEM_TEXT = {
  notUtf8: () => "the file is not UTF-8 text; save it as UTF-8 CSV",
  oversize: (a) => `the file is ${a.bytes} bytes; result files may be at most ${a.max} bytes (500 KB)`,
  empty: () => `the file is empty; expected a header "task,0,…,1" and one row per task`,
  noHeader: (a) => `the file has no header; its first line must be the removal fractions, e.g. "${a.example}"`,
  headerFirstCell: (a) => `the header's first cell must be "task", found ${a.found}`,
  headerTooShort: (a) => `the header needs at least two removal fractions after "task" (the first 0, the last 1), found ${a.found}`,
  missingFraction: () => "missing removal fraction",
  fractionNotNumber: (a) => `removal fraction ${a.cell} is not a number`,
  fractionOutside: (a) => `removal fraction ${a.cell} is outside [0, 1]`,
  fractionNotIncreasing: (a) => `removal fraction ${a.cell} is not greater than the one before it (${a.previous}); fractions must increase`,
  firstNotZero: (a) => `the first removal fraction must be 0, found ${a.found}`,
  lastNotOne: (a) => `the last removal fraction must be 1, found ${a.found}`,
  gridMismatch: (a) => `removal fractions ${a.grid} (${a.points} points) do not match the suite's grid ${a.suiteGrid} (${a.suitePoints} points)`,
  missingTask: () => "missing task id",
  unknownTask: (a) => `unknown task ${a.task}`,
  taskAgain: (a) => `task ${a.task} appears again (first on line ${a.first})`,
  accuracyCount: (a) => `expected ${a.expected} accuracies (one per removal fraction of the header), found ${a.found}`,
  missingAccuracy: () => "missing accuracy",
  notNumber: (a) => `${a.cell} is not a number`,
  accuracyOutside: (a) => `accuracy ${a.cell} is outside [0, 1]`,
  taskMissing: (a) => `task ${a.task} is missing`,
} satisfies Record<string, (args: Record<string, string>) => string>;

export type ProblemCode = keyof typeof PROBLEM_TEXT;
export const PROBLEM_CODES = Object.keys(PROBLEM_TEXT) as ProblemCode[];

/** One problem in a file; `line` and `column` are 1-based and absent for whole-file problems. */
export interface FileProblem {
  file: string;
  line?: number;
  column?: number;
  message: string;
  /** Which problem (absent for the CLI's own file-system problems) and the values its sentence names. */
  code?: ProblemCode;
  args?: Record<string, string>;
}

function problemOf(file: string, code: ProblemCode, args: Record<string, string | number> = {}): FileProblem {
  const strings = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, String(v)]));
  return { file, message: PROBLEM_TEXT[code](strings), code, args: strings };
}

/** A valid result file: its removal grid and, per task, the accuracy at each grid point. */
export interface ParsedResultFile {
  grid: number[];
  curves: Record<string, number[]>;
}

export type ResultFileOutcome = { ok: true; file: ParsedResultFile } | { ok: false; problems: FileProblem[]; omitted: number };

export interface ResultFileExpectation {
  /** Name used in every message, e.g. "morf.csv" or the path the user gave. */
  fileName: string;
  /** The suite's task ids; each must have exactly one row. */
  tasks: readonly string[];
  /** The suite's removal grid; when given, the header must match it. */
  grid?: readonly number[];
}

/** `FILE:LINE:COLUMN message`, or `FILE: message` for a problem with the whole file. */
export function formatProblem(problem: FileProblem): string {
  if (problem.line === undefined) return `${problem.file}: ${problem.message}`;
  return `${problem.file}:${problem.line}:${problem.column ?? 1} ${problem.message}`;
}

/** The size problem, shared with callers that check a file's size before reading it. */
export function oversizeProblem(fileName: string, bytes: number): FileProblem {
  return problemOf(fileName, "oversize", { bytes: bytes.toLocaleString("en-US"), max: MAX_RESULT_FILE_BYTES.toLocaleString("en-US") });
}

class ProblemList {
  readonly problems: FileProblem[] = [];
  omitted = 0;
  constructor(private readonly file: string) {}
  add(code: ProblemCode, args: Record<string, string | number>, line?: number, column?: number): void {
    if (this.problems.length >= MAX_PROBLEMS) {
      this.omitted++;
      return;
    }
    const problem = problemOf(this.file, code, args);
    if (line !== undefined) {
      problem.line = line;
      problem.column = column ?? 1;
    }
    this.problems.push(problem);
  }
  get count(): number {
    return this.problems.length + this.omitted;
  }
}

// Plain decimals and exponent notation (pandas writes 1e-05); not NaN, Infinity, hex or "".
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function quoted(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/** Cells of one line: trimmed, with plain "…" quoting (as spreadsheets write it) removed. */
function splitCells(line: string): string[] {
  return line.split(",").map((cell) => {
    const trimmed = cell.trim();
    return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1).trim() : trimmed;
  });
}

function decodeText(input: Buffer | string, problems: ProblemList): string | undefined {
  if (typeof input === "string") return input.startsWith("\uFEFF") ? input.slice(1) : input;
  try {
    // TextDecoder drops a leading BOM by default.
    return new TextDecoder("utf-8", { fatal: true }).decode(input);
  } catch {
    problems.add("notUtf8", {});
    return undefined;
  }
}

/** Header cells after "task" → removal fractions; problems are reported against line `line`. */
function parseHeaderGrid(cells: string[], line: number, problems: ProblemList): number[] | undefined {
  const before = problems.count;
  const fractions = cells.slice(1);
  if (fractions.length < 2) {
    problems.add("headerTooShort", { found: fractions.length }, line, cells.length + 1);
    return undefined;
  }
  const grid: number[] = [];
  fractions.forEach((cell, i) => {
    const column = i + 2;
    if (cell === "") return problems.add("missingFraction", {}, line, column);
    if (!DECIMAL.test(cell)) return problems.add("fractionNotNumber", { cell: quoted(cell) }, line, column);
    const value = Number(cell);
    if (value < 0 || value > 1) return problems.add("fractionOutside", { cell }, line, column);
    const previous = grid.length > 0 ? grid[grid.length - 1] : undefined;
    if (previous !== undefined && !(value > previous)) {
      problems.add("fractionNotIncreasing", { cell, previous }, line, column);
    }
    grid.push(value);
  });
  if (problems.count > before) return undefined;
  if (grid[0] !== 0) problems.add("firstNotZero", { found: fractions[0] }, line, 2);
  if (grid[grid.length - 1] !== 1) {
    problems.add("lastNotOne", { found: fractions[fractions.length - 1] }, line, cells.length);
  }
  return problems.count > before ? undefined : grid;
}

function checkSuiteGrid(grid: number[], suiteGrid: readonly number[], line: number, problems: ProblemList): void {
  const differs = grid.length !== suiteGrid.length || grid.some((v, i) => Math.abs(v - suiteGrid[i]) > GRID_TOLERANCE);
  if (!differs) return;
  let column = 2;
  while (column - 2 < grid.length && Math.abs(grid[column - 2] - suiteGrid[column - 2]) <= GRID_TOLERANCE) column++;
  problems.add("gridMismatch", { grid: grid.join(", "), points: grid.length, suiteGrid: suiteGrid.join(", "), suitePoints: suiteGrid.length }, line, column);
}

/**
 * Parse and check one result file against a suite. Returns the curves when the file has no
 * problem at all; otherwise every problem (at most MAX_PROBLEMS, the rest counted in `omitted`).
 */
export function parseResultFile(input: Buffer | string, expect: ResultFileExpectation): ResultFileOutcome {
  const problems = new ProblemList(expect.fileName);
  const bytes = typeof input === "string" ? Buffer.byteLength(input, "utf8") : input.length;
  if (bytes > MAX_RESULT_FILE_BYTES) {
    return { ok: false, problems: [oversizeProblem(expect.fileName, bytes)], omitted: 0 };
  }
  const text = decodeText(input, problems);
  if (text === undefined) return { ok: false, problems: problems.problems, omitted: problems.omitted };

  const lines = text.split(/\r?\n/);
  const suiteTasks = new Set(expect.tasks);
  const firstLineOf = new Map<string, number>();
  const curves: Record<string, number[]> = {};
  let header: string[] | undefined;
  let grid: number[] | undefined;

  for (let index = 0; index < lines.length; index++) {
    const line = index + 1;
    const raw = lines[index];
    if (raw.trim() === "") continue;
    const cells = splitCells(raw);
    if (header === undefined) {
      header = cells;
      if (suiteTasks.has(cells[0])) {
        // A file saved without its header: one clear problem instead of one per "bad" fraction,
        // and the line is still checked as the task row it is.
        const example = `task,${(expect.grid ?? [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]).join(",")}`;
        problems.add("noHeader", { example }, line, 1);
      } else {
        if (cells[0] !== "task") {
          problems.add("headerFirstCell", { found: quoted(cells[0]) }, line, 1);
        }
        grid = parseHeaderGrid(cells, line, problems);
        if (grid && expect.grid) checkSuiteGrid(grid, expect.grid, line, problems);
        continue;
      }
    }

    const task = cells[0];
    let rowOk = true;
    if (task === "") {
      problems.add("missingTask", {}, line, 1);
      rowOk = false;
    } else if (!suiteTasks.has(task)) {
      problems.add("unknownTask", { task: quoted(task) }, line, 1);
      rowOk = false;
    } else if (firstLineOf.has(task)) {
      problems.add("taskAgain", { task: quoted(task), first: firstLineOf.get(task)! }, line, 1);
      rowOk = false;
    } else {
      firstLineOf.set(task, line);
    }

    const expectedValues = header.length - 1;
    const values = cells.slice(1);
    if (values.length !== expectedValues) {
      problems.add(
        "accuracyCount",
        { expected: expectedValues, found: values.length },
        line,
        values.length > expectedValues ? expectedValues + 2 : cells.length + 1,
      );
      rowOk = false;
    }
    const curve: number[] = [];
    values.forEach((cell, i) => {
      const column = i + 2;
      if (cell === "") {
        problems.add("missingAccuracy", {}, line, column);
        rowOk = false;
      } else if (!DECIMAL.test(cell)) {
        problems.add("notNumber", { cell: quoted(cell) }, line, column);
        rowOk = false;
      } else {
        const value = Number(cell);
        if (value < 0 || value > 1) {
          problems.add("accuracyOutside", { cell }, line, column);
          rowOk = false;
        }
        curve.push(value);
      }
    });
    if (rowOk) curves[task] = curve;
  }

  if (header === undefined) {
    problems.add("empty", {});
  } else {
    for (const task of expect.tasks) {
      if (!firstLineOf.has(task)) problems.add("taskMissing", { task });
    }
  }
  // grid is undefined only after a header problem was reported; the test also narrows its type.
  if (problems.count > 0 || grid === undefined) {
    return { ok: false, problems: problems.problems, omitted: problems.omitted };
  }
  return { ok: true, file: { grid, curves } };
}

/** Case scores (trapezoid areas) of a valid file, per task. */
export function fileCaseScores(file: ParsedResultFile): Record<string, number> {
  const scores: Record<string, number> = {};
  for (const [task, curve] of Object.entries(file.curves)) scores[task] = trapezoidAuc(file.grid, curve);
  return scores;
}
