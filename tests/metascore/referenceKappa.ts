// The scoring code as it was before the typed-array rewrites (commit 92f7170), kept only as the
// reference the rewrites must match to 1e-9 (tests/metascore/reference.test.ts, equivalence.test.ts,
// bench/metascore.ts).
// Metascore κ (docs/metascore.md "κ and ranks"): pairwise wins over cases → smoothed win
// probability → logit → least-squares strength. Also ranking with shared ranks and the 4-decimal
// display.
// Only the functions the rewrites changed are kept here; the unchanged ones come from the real module.
import { RANK_TOLERANCE, pairLogit, type CaseSet } from "../../sidecar/metascore/kappa.ts";
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

/**
 * Ranks for κ values (aligned with the input) and the best-first order. Equal κ (within
 * 1e-9 of the first of their group) share a rank and the next rank skips: 1, 2, 2, 4.
 * Methods with exactly equal κ keep their input order.
 */
export function rankKappas(kappas: readonly number[]): { order: number[]; ranks: number[] } {
  const order = kappas.map((_, i) => i).sort((a, b) => kappas[b] - kappas[a] || a - b);
  const ranks = new Array<number>(kappas.length).fill(0);
  let leader = 0;
  order.forEach((index, position) => {
    if (position > 0 && kappas[order[leader]] - kappas[index] <= RANK_TOLERANCE) {
      ranks[index] = ranks[order[leader]];
    } else {
      leader = position;
      ranks[index] = position + 1;
    }
  });
  return { order, ranks };
}

/** Rows of a board from ids and κ (aligned), best first by overall κ. */
export function rankedRows(ids: readonly string[], kappas: readonly Kappas[]): RankedRow[] {
  const overall = rankKappas(kappas.map((k) => k.overall));
  const morf = rankKappas(kappas.map((k) => k.morf));
  const lerf = rankKappas(kappas.map((k) => k.lerf));
  return overall.order.map((i) => ({
    id: ids[i],
    metascore: kappas[i].overall,
    rank: overall.ranks[i],
    morf: kappas[i].morf,
    morfRank: morf.ranks[i],
    lerf: kappas[i].lerf,
    lerfRank: lerf.ranks[i],
  }));
}

/** Full recomputation of a board: κ of every method, ranked best first. */
export function rankBoard(methods: readonly MethodScores[]): RankedRow[] {
  return rankedRows(
    methods.map((m) => m.id),
    computeKappas(methods),
  );
}
