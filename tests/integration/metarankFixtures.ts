// Result files and suite folders for the Meta-Rank tests, generated from the metarank-seed suite's
// 11 tasks (no numbers are shipped: each file is a family of straight accuracy curves).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "../support/stack.ts";

export const SEED_SUITE = JSON.parse(fs.readFileSync(path.join(ROOT, "seeds/suites/metarank-seed/suite.json"), "utf8")) as {
  id: string;
  name: string;
  tasks: string[];
  grid: number[];
};
export const TASKS = SEED_SUITE.tasks;
export const GRID = SEED_SUITE.grid;

/** A valid result file: every task's accuracy falls linearly from 0.9 to `end` (task i shifted by i/1000). */
export function resultCsv(end: number, opts: { eol?: string; tasks?: string[] } = {}): string {
  const eol = opts.eol ?? "\n";
  const lines = [["task", ...GRID].join(",")];
  (opts.tasks ?? TASKS).forEach((task, i) => {
    const e = Math.min(0.89, Math.max(0, end + i / 1000));
    lines.push([task, ...GRID.map((g) => (0.9 + (e - 0.9) * g).toFixed(4))].join(","));
  });
  return lines.join(eol) + eol;
}

/** MoRF: a good method drops fast (low end); LeRF: it keeps accuracy (high end). `quality` in [0, 1]. */
export const morfCsv = (quality: number) => resultCsv(0.5 - 0.45 * quality);
export const lerfCsv = (quality: number) => resultCsv(0.3 + 0.55 * quality);

/** A copy of the metarank-seed suite with `methods` baseline folders, in a temporary directory. */
export function suiteFolder(methods: { key: string; contributor: string; institute: string; algorithm: string; quality: number }[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "metarank-suite-"));
  fs.copyFileSync(path.join(ROOT, "seeds/suites/metarank-seed/suite.json"), path.join(dir, "suite.json"));
  for (const m of methods) {
    const d = path.join(dir, m.key);
    fs.mkdirSync(d);
    fs.writeFileSync(path.join(d, "morf.csv"), morfCsv(m.quality));
    fs.writeFileSync(path.join(d, "lerf.csv"), lerfCsv(m.quality));
    fs.writeFileSync(path.join(d, "method.json"), JSON.stringify({ contributor: m.contributor, institute: m.institute, algorithm: m.algorithm }));
  }
  return dir;
}

export const BASELINES = [
  { key: "saliency", contributor: "Simonyan et al.", institute: "Oxford", algorithm: "Saliency", quality: 0.2 },
  { key: "gradcam", contributor: "Selvaraju et al.", institute: "Georgia Tech", algorithm: "Grad-CAM", quality: 0.7 },
  { key: "ig", contributor: "Sundararajan et al.", institute: "Google", algorithm: "Integrated Gradients", quality: 0.5 },
];

export function csvBlob(text: string) {
  return new Blob([text], { type: "text/csv" });
}
