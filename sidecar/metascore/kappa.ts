// Metascore κ of spec §4: pairwise wins over cases → smoothed win probability →
// logit → least-squares strength. Also ranking with shared ranks and the 4-decimal display.
import { BoardError, PROTOCOLS } from "./types.ts";
import type { CaseScores, Kappas, MethodScores, Protocol, RankedRow, Scope } from "./types.ts";

/** Two case scores closer than this are a tie (spec §4). */
export const TIE_TOLERANCE = 1e-12;
/** Two κ closer than this share a rank (spec §4). */
export const RANK_TOLERANCE = 1e-9;

/** The cases a board is scored on, per protocol, in a fixed order. */
export type CaseSet = Record<Protocol, string[]>;

/**
 * 1 if p beats q on the case, 0.5 on a tie, 0 otherwise. The tie test comes first so that
 * two scores within 1e-12 count as a tie both ways: that keeps w[p][q] + w[q][p] = |C|,
 * which is what makes L antisymmetric (and Σκ = 0, fusion = recomputation) as §4 states.
 */
export function caseWin(protocol: Protocol, sp: number, sq: number): number {
  if (Math.abs(sp - sq) <= TIE_TOLERANCE) return 0.5;
  const beats = protocol === "morf" ? sp < sq : sp > sq;
  return beats ? 1 : 0;
}

/** Protocols a scope covers. */
export function scopeProtocols(scope: Scope): readonly Protocol[] {
  return scope === "overall" ? PROTOCOLS : [scope];
}

/** L[p][q] = logit((w + 0.5) / (|C| + 1)) over the cases of `scope`. */
export function pairLogit(p: CaseScores, q: CaseScores, cases: CaseSet, scope: Scope): number {
  let wins = 0;
  let count = 0;
  for (const protocol of scopeProtocols(scope)) {
    for (const task of cases[protocol]) {
      wins += caseWin(protocol, p[protocol][task], q[protocol][task]);
      count++;
    }
  }
  const prob = (wins + 0.5) / (count + 1);
  return Math.log(prob / (1 - prob));
}

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
  const expected = { morf: new Set(cases.morf), lerf: new Set(cases.lerf) };
  for (const m of methods) {
    for (const protocol of PROTOCOLS) {
      const own = m.scores[protocol];
      let present = 0;
      for (const task of cases[protocol]) if (task in own) present++;
      if (present !== cases[protocol].length || Object.keys(own).length !== present) {
        // Only a failing method pays for finding which task is wrong (extra tasks are named first).
        for (const task of Object.keys(own)) {
          if (!expected[protocol].has(task)) {
            throw new BoardError(
              `method "${m.id}" has a ${protocol} score for task "${task}", which "${methods[0].id}" lacks; every method must cover the same tasks`,
            );
          }
        }
        for (const task of cases[protocol]) if (!(task in own)) throw new BoardError(`method "${m.id}" has no ${protocol} score for task "${task}"`);
      }
      for (const task of cases[protocol]) checkedScore(m, protocol, task);
    }
  }
  return cases;
}

/**
 * The case scores of a board as one flat array per protocol (method-major, tasks in `cases`
 * order), so the O(N²·|C|) loops read memory in order instead of looking tasks up by name.
 */
export interface ScoreMatrix {
  morf: Float64Array;
  lerf: Float64Array;
  tasks: { morf: number; lerf: number };
}

export function scoreMatrix(methods: readonly MethodScores[], cases: CaseSet): ScoreMatrix {
  const out: ScoreMatrix = {
    morf: new Float64Array(methods.length * cases.morf.length),
    lerf: new Float64Array(methods.length * cases.lerf.length),
    tasks: { morf: cases.morf.length, lerf: cases.lerf.length },
  };
  for (const protocol of PROTOCOLS) {
    const t = cases[protocol].length;
    methods.forEach((m, i) => {
      const own = m.scores[protocol];
      cases[protocol].forEach((task, k) => (out[protocol][i * t + k] = own[task]));
    });
  }
  return out;
}

/**
 * Wins of p over q per protocol, counted in half-wins (integers, so sums are exact whatever the
 * order): 2 for a win, 1 for a tie (|Δ| ≤ 1e-12), 0 for a loss — caseWin's rule.
 */
export function halfWins(a: Float64Array, p: number, b: Float64Array, q: number, t: number, morf: boolean): number {
  let half = 0;
  const ip = p * t;
  const iq = q * t;
  for (let k = 0; k < t; k++) {
    const sp = a[ip + k];
    const sq = b[iq + k];
    const d = sp - sq;
    if (d <= TIE_TOLERANCE && d >= -TIE_TOLERANCE) half += 1;
    else if (morf ? sp < sq : sp > sq) half += 2;
  }
  return half;
}

/**
 * L = logit((w + 0.5) / (|C| + 1)) for every possible win count w = half/2 of a scope with
 * `count` cases — the same expression pairLogit evaluates, computed once per count.
 */
export function logitTable(count: number): Float64Array {
  const table = new Float64Array(2 * count + 1);
  for (let half = 0; half <= 2 * count; half++) {
    const prob = (half / 2 + 0.5) / (count + 1);
    table[half] = Math.log(prob / (1 - prob));
  }
  return table;
}

/** κ of every method (aligned with the input) on the overall, MoRF-only and LeRF-only boards. */
export function computeKappas(methods: readonly MethodScores[]): Kappas[] {
  const cases = boardCases(methods);
  const n = methods.length;
  const m = scoreMatrix(methods, cases);
  const tm = cases.morf.length;
  const tl = cases.lerf.length;
  const lOverall = logitTable(tm + tl);
  const lMorf = logitTable(tm);
  const lLerf = logitTable(tl);
  const overall = new Float64Array(n);
  const morf = new Float64Array(n);
  const lerf = new Float64Array(n);
  // Only the upper triangle is computed; the lower is its exact negation, so Σκ = 0 holds. The
  // sums accumulate in the same order as before the rewrite, so κ is the same to the last bit.
  for (let p = 0; p < n; p++) {
    for (let q = p + 1; q < n; q++) {
      const hm = halfWins(m.morf, p, m.morf, q, tm, true);
      const hl = halfWins(m.lerf, p, m.lerf, q, tl, false);
      const lo = lOverall[hm + hl];
      overall[p] += lo;
      overall[q] -= lo;
      morf[p] += lMorf[hm];
      morf[q] -= lMorf[hm];
      lerf[p] += lLerf[hl];
      lerf[q] -= lLerf[hl];
    }
  }
  return methods.map((_, p) => ({ overall: n === 0 ? 0 : overall[p] / n, morf: n === 0 ? 0 : morf[p] / n, lerf: n === 0 ? 0 : lerf[p] / n }));
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

/** κ as the screens show it: 4 decimals, and never "-0.0000". */
export function formatMetascore(kappa: number): string {
  const text = kappa.toFixed(4);
  return /^-0\.0+$/.test(text) ? text.slice(1) : text;
}
