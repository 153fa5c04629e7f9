// History fusion of spec §5: insert a candidate into a stored board from the stored κ and
// case scores alone, O(N·|C|), equal to a full recomputation.
import { boardCases, halfWins, logitTable, rankedRows, scoreMatrix } from "./kappa.ts";
import { BoardError, SCOPES } from "./types.ts";
import type { Kappas, MethodScores, RankedRow, Scope, StoredMethod } from "./types.ts";

/** κ after inserting `candidate`: the stored methods' new κ (board order) and the candidate's. */
export function fuseCandidate(board: readonly StoredMethod[], candidate: MethodScores): { board: Kappas[]; candidate: Kappas } {
  const all = [...board, candidate];
  const cases = boardCases(all);
  const n = board.length;
  const m = scoreMatrix(all, cases);
  const tm = cases.morf.length;
  const tl = cases.lerf.length;
  const table: Record<Scope, Float64Array> = { overall: logitTable(tm + tl), morf: logitTable(tm), lerf: logitTable(tl) };
  const fused: Kappas[] = new Array(n);
  const own: Kappas = { overall: 0, morf: 0, lerf: 0 };
  for (let p = 0; p < n; p++) {
    const stored = board[p].kappa;
    for (const scope of SCOPES) {
      if (typeof stored[scope] !== "number" || !Number.isFinite(stored[scope])) {
        throw new BoardError(`method "${board[p].id}": stored ${scope} metascore is not a finite number`);
      }
    }
    const hm = halfWins(m.morf, p, m.morf, n, tm, true);
    const hl = halfWins(m.lerf, p, m.lerf, n, tl, false);
    const l = { overall: table.overall[hm + hl], morf: table.morf[hm], lerf: table.lerf[hl] };
    fused[p] = {
      overall: (n * stored.overall + l.overall) / (n + 1),
      morf: (n * stored.morf + l.morf) / (n + 1),
      lerf: (n * stored.lerf + l.lerf) / (n + 1),
    };
    // Summed in board order per scope, as before the rewrite.
    own.overall -= l.overall;
    own.morf -= l.morf;
    own.lerf -= l.lerf;
  }
  return { board: fused, candidate: { overall: own.overall / (n + 1), morf: own.morf / (n + 1), lerf: own.lerf / (n + 1) } };
}

/**
 * The two boards of the submission screen (spec §7): the stored board as it is, and the
 * same board with the candidate inserted by fusion. Both best first.
 */
export function insertCandidate(board: readonly StoredMethod[], candidate: MethodScores): { original: RankedRow[]; current: RankedRow[] } {
  const fused = fuseCandidate(board, candidate);
  const ids = board.map((m) => m.id);
  return {
    original: rankedRows(
      ids,
      board.map((m) => m.kappa),
    ),
    current: rankedRows([...ids, candidate.id], [...fused.board, fused.candidate]),
  };
}
