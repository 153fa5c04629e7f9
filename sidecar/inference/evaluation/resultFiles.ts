// Writing what an evaluation produced: the result-file pair of docs/metascore.md "Result files"
// (morf.csv, lerf.csv), the localisation figure per scene task, and images.json, the per-image
// outcome behind every accuracy (one character per grid point, "1" = still correct), which lets a
// partial re-run be compared with the committed numbers image by image.
import type { ImageResult, TaskSummary } from "./engine.ts";
import type { Protocol } from "./patches.ts";

/** Header cell for a fraction: the shortest decimal that reads back as the same number. */
export function fractionCell(f: number): string {
  return String(Number(f.toPrecision(12)));
}

/** An accuracy k/n written with at most 6 decimals (exact for n = 64 or 128). */
export function accuracyCell(a: number): string {
  return String(Number(a.toFixed(6)));
}

export function resultCsv(protocol: Protocol, grid: readonly number[], tasks: readonly string[], summaries: Record<string, TaskSummary>): string {
  const lines = [["task", ...grid.map(fractionCell)].join(",")];
  for (const task of tasks) {
    const s = summaries[task];
    if (!s) throw new Error(`no evaluation for task ${task}`);
    lines.push([task, ...s[protocol].map(accuracyCell)].join(","));
  }
  return lines.join("\n") + "\n";
}

/** {task: mean localisation} for the tasks that have object masks. */
export function localisationJson(tasks: readonly string[], summaries: Record<string, TaskSummary>): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const task of tasks) {
    const loc = summaries[task]?.localisation;
    if (loc !== undefined) out[task] = loc === null ? null : Number(loc.toFixed(6));
  }
  return out;
}

export interface TaskImages {
  morf: string[];
  lerf: string[];
  /** Present for tasks with masks. */
  localisation?: Array<number | null>;
}

export function imagesRecord(results: ImageResult[]): TaskImages {
  const sorted = [...results].sort((a, b) => a.index - b.index);
  const rec: TaskImages = {
    morf: sorted.map((r) => r.morf.join("")),
    lerf: sorted.map((r) => r.lerf.join("")),
  };
  if (sorted.some((r) => r.localisation !== undefined)) {
    rec.localisation = sorted.map((r) => (typeof r.localisation === "number" ? Number(r.localisation.toFixed(6)) : null));
  }
  return rec;
}
