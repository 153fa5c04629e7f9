// History fusion (docs/metascore.md "History fusion"): insert a candidate into a stored board from
// the stored κ and case scores alone, O(N·|C|), equal to a full recomputation.
//
// Scoring at scale (docs/metascore-performance.md): what depends on the stored board alone —
// checking it, packing its scores into typed arrays, ranking it — can be done once (prepareBoard);
// an insertion then costs one pass over the packed scores per case and, instead of sorting the new
// board, a repair of the stored board's order (orderAfterInsertion).
import { RANK_TOLERANCE, TIE_TOLERANCE, packBoard, scopeLogits, packMethod, rankColumns, rowsFromRankings } from "./kappa.ts";
import type { CaseSet, KappaColumns } from "./kappa.ts";
import { orderAfterInsertion, ranksAlong } from "./order.ts";
import type { Ranking } from "./order.ts";
import { BoardError, PROTOCOLS, SCOPES } from "./types.ts";
import type { Kappas, MethodScores, Protocol, RankedRow, Scope, StoredMethod } from "./types.ts";

/** A stored board's scores and κ in typed arrays: what fusion reads. */
interface PackedStored {
  n: number;
  cases: CaseSet;
  /** Case-major scores: stored method p's score on the protocol's k-th task at k·stride + p. */
  scores: Record<Protocol, Float64Array>;
  stride: number;
  /** The stored κ, board order. */
  kappas: KappaColumns;
}

/**
 * A stored board checked, packed and ranked once (prepareBoard), for any number of candidates
 * (insertPrepared). Treat it as immutable: it does not follow later changes to the methods it
 * was made from.
 */
export interface PreparedBoard extends Readonly<PackedStored> {
  readonly ids: readonly string[];
  readonly idSet: ReadonlySet<string>;
  /** Best-first order and ranks of the stored board, per scope. */
  readonly rankings: Readonly<Record<Scope, Ranking>>;
  /** The stored board's rows, best first ("The original Meta-Rank", docs/metascore.md "The submission screen's two boards"). */
  readonly original: readonly RankedRow[];
}

/** Stored κ as columns, each checked to be a finite number. */
function storedKappas(board: readonly StoredMethod[]): KappaColumns {
  const n = board.length;
  const out: KappaColumns = { overall: new Float64Array(n), morf: new Float64Array(n), lerf: new Float64Array(n) };
  for (let p = 0; p < n; p++) {
    const { overall, morf, lerf } = board[p].kappa;
    // Written out per scope rather than looped over SCOPES: this runs for every stored method.
    if (!isFiniteNumber(overall) || !isFiniteNumber(morf) || !isFiniteNumber(lerf)) {
      const scope = SCOPES.find((s) => !isFiniteNumber(board[p].kappa[s]));
      throw new BoardError(`method "${board[p].id}": stored ${scope} metascore is not a finite number`);
    }
    out.overall[p] = overall;
    out.morf[p] = morf;
    out.lerf[p] = lerf;
  }
  return out;
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/**
 * The stored board and the candidate checked together as one board (so the errors, and their
 * order, are those of boardCases on the board with the candidate appended), then the stored κ.
 * The candidate's scores come back as one short array per protocol.
 */
function packWithCandidate(board: readonly StoredMethod[], candidate: MethodScores): { stored: PackedStored; candidate: Record<Protocol, Float64Array> } {
  const packed = packBoard([...board, candidate]);
  const kappas = storedKappas(board);
  const n = board.length;
  const own = { morf: new Float64Array(packed.cases.morf.length), lerf: new Float64Array(packed.cases.lerf.length) };
  for (const protocol of PROTOCOLS) {
    for (let k = 0; k < own[protocol].length; k++) own[protocol][k] = packed[protocol][k * (n + 1) + n];
  }
  return { stored: { n, cases: packed.cases, scores: { morf: packed.morf, lerf: packed.lerf }, stride: n + 1, kappas }, candidate: own };
}

function rankStored(ids: readonly string[], stored: PackedStored, idSet: ReadonlySet<string>): PreparedBoard {
  const rankings = rankColumns(stored.kappas);
  return { ...stored, ids, idSet, rankings, original: rowsFromRankings(ids, stored.kappas, rankings) };
}

/** Check, pack and rank a stored board once, for insertPrepared. Throws BoardError for a board insertCandidate would refuse. */
export function prepareBoard(board: readonly StoredMethod[]): PreparedBoard {
  const packed = packBoard(board);
  return preparePacked({
    ids: board.map((m) => m.id),
    idSet: packed.ids,
    cases: packed.cases,
    scores: { morf: packed.morf, lerf: packed.lerf },
    kappas: storedKappas(board),
  });
}

/** A stored board already checked and packed by the caller: what prepareBoard checks, packs and ranks. */
export interface PackedStoredBoard {
  /** Board order; distinct. */
  ids: readonly string[];
  /** The same ids, as a set. */
  idSet: ReadonlySet<string>;
  cases: CaseSet;
  /** Case-major, stride ids.length: method p's score on the protocol's k-th task at k·N + p; finite. */
  scores: Record<Protocol, Float64Array>;
  /** The stored κ, board order; finite. */
  kappas: KappaColumns;
}

/**
 * prepareBoard for a board its caller checked and packed itself (the gRPC service packs the
 * messages it receives without building per-task objects first, docs/metascore-performance.md).
 * The caller vouches for everything prepareBoard would check: distinct ids, one case set,
 * finite scores and κ.
 */
export function preparePacked(board: PackedStoredBoard): PreparedBoard {
  const n = board.ids.length;
  const stored: PackedStored = { n, cases: board.cases, scores: board.scores, stride: n, kappas: board.kappas };
  const ready = rankStored(board.ids, stored, board.idSet);
  // Every insertion returns these same rows as its original board: frozen, so that no caller
  // can change what the next one gets.
  ready.original.forEach((row) => Object.freeze(row));
  return Object.freeze(ready);
}

/**
 * Σ over one protocol's cases of +1 where stored method p beats the candidate, 0 on a tie, −1
 * where it loses (caseWin's rule: p's half-wins over the candidate are tasks + signs[p]). One
 * pass per case over contiguous scores, the comparisons turned into 0/1 numbers rather than
 * branches, which random boards would mispredict half the time.
 */
function signsAgainst(scores: Float64Array, stride: number, n: number, candidate: Float64Array, lowerIsBetter: boolean): Int32Array {
  const signs = new Int32Array(n);
  // A local copy: an imported binding read in the loop costs a getter call per read once the
  // module is compiled to CommonJS (tsx, which runs the sidecar).
  const tie = TIE_TOLERANCE;
  for (let k = 0; k < candidate.length; k++) {
    const base = k * stride;
    const sc = candidate[k];
    for (let p = 0; p < n; p++) {
      const d = scores[base + p] - sc;
      signs[p] += Number(d > tie) - Number(d < -tie);
    }
  }
  // Counted as "higher is better"; MoRF is the other way round.
  if (lowerIsBetter) for (let p = 0; p < n; p++) signs[p] = -signs[p];
  return signs;
}

/** κ after an insertion, and the half-wins of each stored method over the candidate per scope. */
interface Fused {
  kappas: KappaColumns;
  halfWins: Record<Scope, Int32Array>;
}

/** κ after the insertion: the stored methods in board order, then the candidate (docs/metascore.md "History fusion"). */
function fuse(board: PackedStored, candidate: Record<Protocol, Float64Array>): Fused {
  const n = board.n;
  const { tm, tl, lOverall, lMorf, lLerf } = scopeLogits(board.cases);
  const hm = signsAgainst(board.scores.morf, board.stride, n, candidate.morf, true);
  const hl = signsAgainst(board.scores.lerf, board.stride, n, candidate.lerf, false);
  const ho = new Int32Array(n);
  const out: KappaColumns = { overall: new Float64Array(n + 1), morf: new Float64Array(n + 1), lerf: new Float64Array(n + 1) };
  const stored = board.kappas;
  let ownOverall = 0;
  let ownMorf = 0;
  let ownLerf = 0;
  for (let p = 0; p < n; p++) {
    hm[p] += tm;
    hl[p] += tl;
    ho[p] = hm[p] + hl[p];
    const lo = lOverall[ho[p]];
    const lm = lMorf[hm[p]];
    const ll = lLerf[hl[p]];
    // κ'[p] = (N·κ[p] + L[p][n]) / (N + 1).
    out.overall[p] = (n * stored.overall[p] + lo) / (n + 1);
    out.morf[p] = (n * stored.morf[p] + lm) / (n + 1);
    out.lerf[p] = (n * stored.lerf[p] + ll) / (n + 1);
    // κ'[n] = Σ L[n][p] / (N + 1) with L[n][p] = −L[p][n], summed in board order per scope as
    // the straightforward code (tests/metascore/referenceFusion.ts) does: the same bits.
    ownOverall -= lo;
    ownMorf -= lm;
    ownLerf -= ll;
  }
  out.overall[n] = ownOverall / (n + 1);
  out.morf[n] = ownMorf / (n + 1);
  out.lerf[n] = ownLerf / (n + 1);
  return { kappas: out, halfWins: { overall: ho, morf: hm, lerf: hl } };
}

/**
 * The current board's rankings without sorting it from scratch: the stored order is nearly right
 * (orderAfterInsertion), and exactly right within the stored methods that have the same
 * half-wins over the candidate (same L[p][n], and κ'[p] monotonic in κ[p]).
 */
function fusedRankings(board: PreparedBoard, fused: Fused): Record<Scope, Ranking> {
  const tm = board.cases.morf.length;
  const tl = board.cases.lerf.length;
  const groups: Record<Scope, number> = { overall: 2 * (tm + tl) + 1, morf: 2 * tm + 1, lerf: 2 * tl + 1 };
  const ranking = (scope: Scope): Ranking => {
    const order = orderAfterInsertion(board.rankings[scope].order, fused.kappas[scope], fused.halfWins[scope], groups[scope]);
    return { order, ranks: ranksAlong(order, fused.kappas[scope], RANK_TOLERANCE) };
  };
  return { overall: ranking("overall"), morf: ranking("morf"), lerf: ranking("lerf") };
}

/** The submission screen's two boards (docs/metascore.md) from a prepared board and the candidate's checked scores. */
function boards(board: PreparedBoard, candidate: MethodScores, scores: Record<Protocol, Float64Array>): { original: RankedRow[]; current: RankedRow[] } {
  const fused = fuse(board, scores);
  const ids = [...board.ids, candidate.id];
  return { original: board.original.slice(), current: rowsFromRankings(ids, fused.kappas, fusedRankings(board, fused)) };
}

/**
 * insertCandidate on a prepared board: the same two boards, the per-board work (checking,
 * packing and ranking the stored board) already done. O(N·|C| + N·log |C|).
 */
export function insertPrepared(board: PreparedBoard, candidate: MethodScores): { original: RankedRow[]; current: RankedRow[] } {
  if (board.n === 0) return insertCandidate([], candidate); // the candidate alone sets the cases
  if (board.idSet.has(candidate.id)) throw new BoardError(`method "${candidate.id}" appears twice on the board`);
  const scores = { morf: new Float64Array(board.cases.morf.length), lerf: new Float64Array(board.cases.lerf.length) };
  packMethod(candidate, board.ids[0], board.cases, scores, 0, 1);
  return boards(board, candidate, scores);
}

/** κ after inserting `candidate`: the stored methods' new κ (board order) and the candidate's. */
export function fuseCandidate(board: readonly StoredMethod[], candidate: MethodScores): { board: Kappas[]; candidate: Kappas } {
  const packed = packWithCandidate(board, candidate);
  const { kappas: k } = fuse(packed.stored, packed.candidate);
  const n = board.length;
  const fused = new Array<Kappas>(n);
  for (let p = 0; p < n; p++) fused[p] = { overall: k.overall[p], morf: k.morf[p], lerf: k.lerf[p] };
  return { board: fused, candidate: { overall: k.overall[n], morf: k.morf[n], lerf: k.lerf[n] } };
}

/**
 * The two boards of the submission screen (docs/metascore.md "The submission screen's two
 * boards"): the stored board as it is, and the same board with the candidate inserted by fusion.
 * Both best first.
 */
export function insertCandidate(board: readonly StoredMethod[], candidate: MethodScores): { original: RankedRow[]; current: RankedRow[] } {
  const packed = packWithCandidate(board, candidate);
  // No id set: it serves insertPrepared's check of the candidate, done here by packWithCandidate.
  const ids = board.map((m) => m.id);
  return boards(rankStored(ids, packed.stored, new Set()), candidate, packed.candidate);
}
