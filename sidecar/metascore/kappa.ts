// Metascore κ (docs/metascore.md "κ and ranks"): pairwise wins over cases → smoothed win
// probability → logit → least-squares strength. Also ranking with shared ranks and the 4-decimal
// display.
import { rankColumn } from "./order.ts";
import type { Ranking } from "./order.ts";
import { BoardError, PROTOCOLS } from "./types.ts";
import type { CaseScores, Kappas, MethodScores, Protocol, RankedRow, Scope } from "./types.ts";

/** Two case scores closer than this are a tie (docs/metascore.md "κ and ranks"). */
export const TIE_TOLERANCE = 1e-12;
/** Two κ closer than this share a rank (docs/metascore.md "κ and ranks"). */
export const RANK_TOLERANCE = 1e-9;

/** The cases a board is scored on, per protocol, in a fixed order. */
export type CaseSet = Record<Protocol, string[]>;

/**
 * 1 if p beats q on the case, 0.5 on a tie, 0 otherwise. The tie test comes first so that two
 * scores within 1e-12 count as a tie both ways: that keeps w[p][q] + w[q][p] = |C|, which is what
 * makes L antisymmetric (and Σκ = 0, fusion = recomputation; docs/metascore.md "History fusion").
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
 * A board's case scores, checked and packed once (docs/metascore-performance.md): one Float64Array
 * per protocol, case-major — method i's score on the protocol's k-th task (in `cases` order) at
 * k·n + i — so that the loops over methods for one case read memory in order and no task is looked
 * up by name after packing.
 */
export interface PackedBoard {
  cases: CaseSet;
  /** Number of methods. */
  n: number;
  /** Their ids (checked to be distinct). */
  ids: Set<string>;
  morf: Float64Array;
  lerf: Float64Array;
}

/**
 * Check a board as boardCases always has — ids unique, every method covering the first method's
 * tasks and no others, every score a finite number, the first problem thrown as a BoardError —
 * and pack its scores.
 */
export function packBoard(methods: readonly MethodScores[]): PackedBoard {
  const n = methods.length;
  const cases: CaseSet = { morf: [], lerf: [] };
  const ids = new Set<string>();
  if (n === 0) return { cases, n, ids, morf: new Float64Array(0), lerf: new Float64Array(0) };
  for (const m of methods) {
    const size = ids.size;
    if (ids.add(m.id).size === size) throw new BoardError(`method "${m.id}" appears twice on the board`);
  }
  for (const protocol of PROTOCOLS) cases[protocol] = Object.keys(methods[0].scores[protocol]);
  const packed: PackedBoard = { cases, n, ids, morf: new Float64Array(n * cases.morf.length), lerf: new Float64Array(n * cases.lerf.length) };
  for (let i = 0; i < n; i++) packMethod(methods[i], methods[0].id, cases, packed, i, n);
  return packed;
}

/**
 * Check one method against a board's cases (named after the board's first method, `firstId`)
 * and write its scores at index i of case-major arrays of `stride` methods.
 */
export function packMethod(m: MethodScores, firstId: string, cases: CaseSet, into: Record<Protocol, Float64Array>, i: number, stride: number): void {
  // MoRF then LeRF (the order of the errors), written out: this runs for every method of a board.
  if (!packInOrder(m.scores.morf, cases.morf, into.morf, i, stride)) packByName(m, firstId, "morf", cases.morf, into.morf, i, stride);
  if (!packInOrder(m.scores.lerf, cases.lerf, into.lerf, i, stride)) packByName(m, firstId, "lerf", cases.lerf, into.lerf, i, stride);
}

/**
 * The fast path of packMethod: a method whose tasks come in the first method's order (every
 * method built the same way — the CLI's files, the service's messages) is checked and packed in
 * one pass without a name lookup per task. Anything else (another order, a missing or extra task,
 * a bad value) returns false and goes through packByName, which throws boardCases' exact error.
 */
function packInOrder(own: Record<string, number>, tasks: readonly string[], into: Float64Array, i: number, stride: number): boolean {
  if (typeof own !== "object" || own === null) return false;
  const keys = Object.keys(own);
  if (keys.length !== tasks.length) return false;
  for (let k = 0; k < keys.length; k++) if (keys[k] !== tasks[k]) return false;
  const values = Object.values(own);
  for (let k = 0; k < values.length; k++) {
    const value = values[k];
    if (typeof value !== "number" || !Number.isFinite(value)) return false;
    into[k * stride + i] = value;
  }
  return true;
}

/** The general path of packMethod: tasks looked up by name, and the first problem thrown. */
function packByName(m: MethodScores, firstId: string, protocol: Protocol, tasks: readonly string[], into: Float64Array, i: number, stride: number): void {
  const own = m.scores[protocol];
  let present = 0;
  for (const task of tasks) if (task in own) present++;
  if (present !== tasks.length || Object.keys(own).length !== present) {
    // Extra tasks are named first, then missing ones.
    const expected = new Set(tasks);
    for (const task of Object.keys(own)) {
      if (!expected.has(task)) {
        throw new BoardError(`method "${m.id}" has a ${protocol} score for task "${task}", which "${firstId}" lacks; every method must cover the same tasks`);
      }
    }
    for (const task of tasks) if (!(task in own)) throw new BoardError(`method "${m.id}" has no ${protocol} score for task "${task}"`);
  }
  tasks.forEach((task, k) => (into[k * stride + i] = checkedScore(m, protocol, task)));
}

/**
 * The case set shared by every method, taken from the first; any method whose tasks
 * differ is an error, because κ compares methods case by case.
 */
export function boardCases(methods: readonly MethodScores[]): CaseSet {
  return packBoard(methods).cases;
}

/** A board's MoRF and LeRF case counts and the logit tables of its three scopes (overall: both protocols' cases). */
export function scopeLogits(cases: { morf: ArrayLike<unknown>; lerf: ArrayLike<unknown> }) {
  const tm = cases.morf.length;
  const tl = cases.lerf.length;
  return { tm, tl, lOverall: logitTable(tm + tl), lMorf: logitTable(tm), lLerf: logitTable(tl) };
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

/**
 * Adds to signs[q], for every q > p, Σ over the protocol's cases of +1 if p beats q, 0 on a tie
 * (|Δ| ≤ 1e-12), −1 if q beats p: caseWin's rule, doubled and shifted, so that p's half-wins over
 * q are tasks + signs[q]. The loop runs over q for one case at a time (contiguous scores), and
 * the comparisons become 0/1 numbers instead of branches, which random boards would mispredict
 * half the time: that, more than anything, is what makes the O(N²·|C|) loop fast.
 */
function addSigns(signs: Int32Array, scores: Float64Array, tasks: number, n: number, p: number, lowerIsBetter: boolean): void {
  const tie = TIE_TOLERANCE;
  for (let k = 0; k < tasks; k++) {
    const base = k * n;
    const sp = scores[base + p];
    if (lowerIsBetter) {
      for (let q = p + 1; q < n; q++) {
        const d = sp - scores[base + q];
        signs[q] += Number(d < -tie) - Number(d > tie);
      }
    } else {
      for (let q = p + 1; q < n; q++) {
        const d = sp - scores[base + q];
        signs[q] += Number(d > tie) - Number(d < -tie);
      }
    }
  }
}

/** κ of a board as three columns aligned with its methods. */
export interface KappaColumns {
  overall: Float64Array;
  morf: Float64Array;
  lerf: Float64Array;
}

/** κ of every method of a packed board (docs/metascore.md "κ and ranks"), overall, MoRF-only and LeRF-only. */
export function boardKappas(board: PackedBoard): KappaColumns {
  const n = board.n;
  const { tm, tl, lOverall, lMorf, lLerf } = scopeLogits(board.cases);
  const overall = new Float64Array(n);
  const morf = new Float64Array(n);
  const lerf = new Float64Array(n);
  const sm = new Int32Array(n);
  const sl = new Int32Array(n);
  // Only the upper triangle is computed; the lower is its exact negation, so Σκ = 0 holds. Win
  // counts are integers, so they are exact whatever the order they are counted in, and the κ sums
  // accumulate pair by pair in the same order as the straightforward code (tests/metascore/
  // referenceKappa.ts): κ is the same to the last bit.
  for (let p = 0; p < n; p++) {
    sm.fill(0, p + 1);
    sl.fill(0, p + 1);
    addSigns(sm, board.morf, tm, n, p, true);
    addSigns(sl, board.lerf, tl, n, p, false);
    for (let q = p + 1; q < n; q++) {
      const hm = tm + sm[q];
      const hl = tl + sl[q];
      const lo = lOverall[hm + hl];
      overall[p] += lo;
      overall[q] -= lo;
      morf[p] += lMorf[hm];
      morf[q] -= lMorf[hm];
      lerf[p] += lLerf[hl];
      lerf[q] -= lLerf[hl];
    }
  }
  for (let p = 0; p < n; p++) {
    overall[p] /= n;
    morf[p] /= n;
    lerf[p] /= n;
  }
  return { overall, morf, lerf };
}

/** κ of every method (aligned with the input) on the overall, MoRF-only and LeRF-only boards. */
export function computeKappas(methods: readonly MethodScores[]): Kappas[] {
  const k = boardKappas(packBoard(methods));
  return methods.map((_, p) => ({ overall: k.overall[p], morf: k.morf[p], lerf: k.lerf[p] }));
}

/**
 * Ranks for κ values (aligned with the input) and the best-first order. Equal κ (within
 * 1e-9 of the first of their group) share a rank and the next rank skips: 1, 2, 2, 4.
 * Methods with exactly equal κ keep their input order.
 */
export function rankKappas(kappas: readonly number[]): { order: number[]; ranks: number[] } {
  const { order, ranks } = rankColumn(Float64Array.from(kappas), RANK_TOLERANCE);
  return { order: Array.from(order), ranks: Array.from(ranks) };
}

/** Best-first order and ranks of κ columns on each scope (docs/metascore.md "κ and ranks"). */
export function rankColumns(kappas: KappaColumns): Record<Scope, Ranking> {
  return {
    overall: rankColumn(kappas.overall, RANK_TOLERANCE),
    morf: rankColumn(kappas.morf, RANK_TOLERANCE),
    lerf: rankColumn(kappas.lerf, RANK_TOLERANCE),
  };
}

/** Rows best first by overall κ, from ids, κ columns (aligned) and their rankings. */
export function rowsFromRankings(ids: readonly string[], kappas: KappaColumns, rankings: Readonly<Record<Scope, Ranking>>): RankedRow[] {
  const { order } = rankings.overall;
  const rows = new Array<RankedRow>(order.length);
  for (let position = 0; position < order.length; position++) {
    const i = order[position];
    rows[position] = {
      id: ids[i],
      metascore: kappas.overall[i],
      rank: rankings.overall.ranks[i],
      morf: kappas.morf[i],
      morfRank: rankings.morf.ranks[i],
      lerf: kappas.lerf[i],
      lerfRank: rankings.lerf.ranks[i],
    };
  }
  return rows;
}

/** Rows of a board from ids and κ (aligned), best first by overall κ. */
export function rankedRows(ids: readonly string[], kappas: readonly Kappas[]): RankedRow[] {
  const n = kappas.length;
  const columns: KappaColumns = { overall: new Float64Array(n), morf: new Float64Array(n), lerf: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    columns.overall[i] = kappas[i].overall;
    columns.morf[i] = kappas[i].morf;
    columns.lerf[i] = kappas[i].lerf;
  }
  return rowsFromRankings(ids, columns, rankColumns(columns));
}

/** Full recomputation of a board: κ of every method, ranked best first. */
export function rankBoard(methods: readonly MethodScores[]): RankedRow[] {
  const kappas = boardKappas(packBoard(methods));
  return rowsFromRankings(
    methods.map((m) => m.id),
    kappas,
    rankColumns(kappas),
  );
}

/** κ as the screens show it: 4 decimals, and never "-0.0000". */
export function formatMetascore(kappa: number): string {
  const text = kappa.toFixed(4);
  return /^-0\.0+$/.test(text) ? text.slice(1) : text;
}
