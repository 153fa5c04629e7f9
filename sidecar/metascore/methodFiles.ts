// A method's pair of result files (MoRF + LeRF) checked together against a suite, giving
// either every problem of both files or the method's case scores.
import { fileCaseScores, parseResultFile } from "./resultFile.ts";
import type { FileProblem } from "./resultFile.ts";
import type { CaseScores } from "./types.ts";

export interface SuiteExpectation {
  tasks: readonly string[];
  grid?: readonly number[];
}

export interface NamedFile {
  name: string;
  content: Buffer | string;
}

/** Accuracy at each grid point, per protocol and task: the curves the areas were computed from. */
export interface CaseCurves {
  morf: Record<string, number[]>;
  lerf: Record<string, number[]>;
}

export type MethodFilesOutcome = { ok: true; scores: CaseScores; curves: CaseCurves } | { ok: false; problems: FileProblem[]; omitted: number };

/** Parse both files; problems of the MoRF file come first, each file capped on its own. */
export function scoreMethodFiles(suite: SuiteExpectation, morf: NamedFile, lerf: NamedFile): MethodFilesOutcome {
  const morfOutcome = parseResultFile(morf.content, { fileName: morf.name, tasks: suite.tasks, grid: suite.grid });
  const lerfOutcome = parseResultFile(lerf.content, { fileName: lerf.name, tasks: suite.tasks, grid: suite.grid });
  if (morfOutcome.ok && lerfOutcome.ok) {
    return {
      ok: true,
      scores: { morf: fileCaseScores(morfOutcome.file), lerf: fileCaseScores(lerfOutcome.file) },
      curves: { morf: morfOutcome.file.curves, lerf: lerfOutcome.file.curves },
    };
  }
  const problems: FileProblem[] = [];
  let omitted = 0;
  for (const outcome of [morfOutcome, lerfOutcome]) {
    if (!outcome.ok) {
      problems.push(...outcome.problems);
      omitted += outcome.omitted;
    }
  }
  return { ok: false, problems, omitted };
}
