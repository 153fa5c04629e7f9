// Builds result files for the parser, CLI and gRPC tests.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The metarank-seed suite as shipped (seeds/suites/metarank-seed/suite.json). */
export const seedSuite = JSON.parse(fs.readFileSync(path.join(root, "seeds/suites/metarank-seed/suite.json"), "utf8")) as {
  id: string;
  tasks: string[];
  grid: number[];
  patchSize: number;
  filler: number[];
};

export const GRID = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

/** A curve that falls linearly from `start` to `end` over `points` grid points. */
export function linearCurve(start: number, end: number, points = GRID.length): number[] {
  return Array.from({ length: points }, (_, i) => start + ((end - start) * i) / (points - 1));
}

/** A CSV with the given header grid and one row per [task, values]. */
export function resultCsv(rows: [string, (number | string)[]][], grid: (number | string)[] = GRID, eol = "\n"): string {
  const lines = [["task", ...grid].join(","), ...rows.map(([task, values]) => [task, ...values].join(","))];
  return lines.join(eol) + eol;
}

/** A valid file for `tasks` where task i falls linearly from 1 to `ends[i]` (default 0). */
export function validCsv(tasks: string[], ends: number[] = []): string {
  return resultCsv(tasks.map((t, i) => [t, linearCurve(1, ends[i] ?? 0).map((v) => Number(v.toFixed(6)))]));
}
