// Each board method's MoRF and LeRF accuracy curves for one task (the leaderboard shows the curves
// behind the areas, chosen by task). Baselines carry their curves from the suite folder
// (seeds/importSuite.ts writes board_methods.curves_json); an approved submission's curves are read
// once from its stored result files and then kept on its board row.
import fs from "node:fs/promises";
import { BoardMethod, Submission } from "./db.server.ts";
import { rankByKappa } from "./board.server.ts";
import { toCsv } from "~/lib/csv.ts";
import { storedPath } from "./submissionFiles.server.ts";
import { logger } from "./logger.server.ts";

export interface CaseCurves {
  morf: Record<string, number[]>;
  lerf: Record<string, number[]>;
}

export interface MethodCurve {
  method: string;
  contributor: string;
  /** Accuracy at each grid point; null where this method's files are not on this server. */
  morf: number[] | null;
  lerf: number[] | null;
  /** The stored areas under the curves (what the metascore fuses). */
  morfArea: number;
  lerfArea: number;
}

export interface TaskCurves {
  task: string;
  grid: number[];
  /** Best κ first, like the boards. */
  methods: MethodCurve[];
}

/**
 * Reads a result file the sidecar's parser accepted when it was submitted (so its shape is known:
 * a "task,…" header, then one row per task); only the cells are split here, nothing re-checked.
 */
export function readCheckedCurves(text: string): Record<string, number[]> {
  const cell = (c: string) => {
    const t = c.trim();
    return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1).trim() : t;
  };
  const rows = text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "")
    .map((l) => l.split(",").map(cell));
  const out: Record<string, number[]> = {};
  for (const row of rows.slice(1)) out[row[0]] = row.slice(1).map(Number);
  return out;
}

async function submissionCurves(submissionId: number): Promise<CaseCurves | null> {
  const submission = await Submission.findByPk(submissionId, { attributes: ["id", "morfFile", "lerfFile"] });
  if (!submission) return null;
  try {
    const [morf, lerf] = await Promise.all([fs.readFile(storedPath(submission.morfFile), "utf8"), fs.readFile(storedPath(submission.lerfFile), "utf8")]);
    return { morf: readCheckedCurves(morf), lerf: readCheckedCurves(lerf) };
  } catch (err) {
    // Files removed by an operator, or a database restored without its uploads: no curves, said on the page.
    logger("curves").warn({ err, submissionId }, "an approved submission's result files could not be read for its curves");
    return null;
  }
}

/** The curves of every public board method on one task of the suite; `task` must be one of the suite's tasks. */
export async function taskCurves(suite: { id: string; tasks: string[]; grid: number[] }, task: string): Promise<TaskCurves> {
  const rows = await BoardMethod.findAll({ where: { suiteId: suite.id, hidden: false }, order: [["id", "ASC"]] });
  const curves = new Map<number, CaseCurves | null>();
  for (const row of rows) {
    if (row.curvesJson) curves.set(row.id, JSON.parse(row.curvesJson) as CaseCurves);
    else if (row.submissionId !== null) {
      const read = await submissionCurves(row.submissionId);
      curves.set(row.id, read);
      // Kept on the row, so the files are read once per method; a concurrent reader writes the same value.
      if (read) await BoardMethod.update({ curvesJson: JSON.stringify(read) }, { where: { id: row.id, curvesJson: null } });
    } else curves.set(row.id, null);
  }
  const ranked = rankByKappa(rows.map((r) => ({ metascore: r.metascore, method: r.algorithm, contributor: r.contributor, scores: r.scores, id: r.id })));
  return {
    task,
    grid: suite.grid,
    methods: ranked.map((r) => {
      const c = curves.get(r.id) ?? null;
      const score = r.scores.find((s) => s.task === task);
      return {
        method: r.method,
        contributor: r.contributor,
        morf: c?.morf[task] ?? null,
        lerf: c?.lerf[task] ?? null,
        morfArea: score?.morf ?? NaN,
        lerfArea: score?.lerf ?? NaN,
      };
    }),
  };
}

/** The download: one row per method, protocol and grid point. */
export function curvesCsv(data: TaskCurves): string {
  const rows: (string | number)[][] = [["method", "contributor", "protocol", ...data.grid]];
  for (const m of data.methods) {
    for (const protocol of ["morf", "lerf"] as const) {
      const values = m[protocol];
      if (values) rows.push([m.method, m.contributor, protocol, ...values]);
    }
  }
  // Method and contributor names are people's text: the shared writer makes them inert (app/lib/csv.ts).
  return toCsv(rows);
}
