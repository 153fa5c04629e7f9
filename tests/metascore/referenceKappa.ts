// The scoring code as it was before the typed-array rewrite (commit 92f7170), kept only as the
// reference the rewrite must match to 1e-9 (tests/metascore/reference.test.ts, bench/metascore.ts).
// Metascore κ of spec §4: pairwise wins over cases → smoothed win probability →
// logit → least-squares strength. Also ranking with shared ranks and the 4-decimal display.
// Only the functions the rewrite changed are kept here; the unchanged ones come from the real module.
import { pairLogit, rankedRows, type CaseSet } from "../../sidecar/metascore/kappa.ts";
import { BoardError, PROTOCOLS, SCOPES } from "../../sidecar/metascore/types.ts";
import type { Kappas, MethodScores, Protocol, RankedRow } from "../../sidecar/metascore/types.ts";

function checkedScore(method: MethodScores, protocol: Protocol, task: string): number {
  const value = method.scores[protocol][task];
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new BoardError(`method "${method.id}": ${protocol} score of task "${task}" is not a finite number`);
  }
  return value;
}

/**
 * The case set shared by every method, taken from the first; any method whose tasks
 * differ is an error, because κ compares methods case by case.
 */
export function boardCases(methods: readonly MethodScores[]): CaseSet {
  const cases: CaseSet = { morf: [], lerf: [] };
  if (methods.length === 0) return cases;
  const ids = new Set<string>();
  for (const m of methods) {
    if (ids.has(m.id)) throw new BoardError(`method "${m.id}" appears twice on the board`);
    ids.add(m.id);
  }
  for (const protocol of PROTOCOLS) cases[protocol] = Object.keys(methods[0].scores[protocol]);
  for (const m of methods) {
    for (const protocol of PROTOCOLS) {
      const own = Object.keys(m.scores[protocol]);
      const expected = new Set(cases[protocol]);
      for (const task of own) {
        if (!expected.has(task)) {
          throw new BoardError(
            `method "${m.id}" has a ${protocol} score for task "${task}", which "${methods[0].id}" lacks; every method must cover the same tasks`,
          );
        }
      }
      for (const task of cases[protocol]) {
        if (!(task in m.scores[protocol])) {
          throw new BoardError(`method "${m.id}" has no ${protocol} score for task "${task}"`);
        }
        checkedScore(m, protocol, task);
      }
    }
  }
  return cases;
}

/** κ of every method (aligned with the input) on the overall, MoRF-only and LeRF-only boards. */
export function computeKappas(methods: readonly MethodScores[]): Kappas[] {
  const cases = boardCases(methods);
  const n = methods.length;
  const out: Kappas[] = methods.map(() => ({ overall: 0, morf: 0, lerf: 0 }));
  for (const scope of SCOPES) {
    // Only the upper triangle is computed; the lower is its exact negation, so Σκ = 0 holds.
    const sums = new Array<number>(n).fill(0);
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const l = pairLogit(methods[p].scores, methods[q].scores, cases, scope);
        sums[p] += l;
        sums[q] -= l;
      }
    }
    for (let p = 0; p < n; p++) out[p][scope] = n === 0 ? 0 : sums[p] / n;
  }
  return out;
}

/** Full recomputation of a board: κ of every method, ranked best first. */
export function rankBoard(methods: readonly MethodScores[]): RankedRow[] {
  return rankedRows(
    methods.map((m) => m.id),
    computeKappas(methods),
  );
}
