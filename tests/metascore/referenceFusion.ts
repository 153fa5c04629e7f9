// The fusion code as it was before the typed-array rewrite, kept as the reference (see referenceKappa.ts).
// History fusion (docs/metascore.md "History fusion"): insert a candidate into a stored board from
// the stored κ and case scores alone, O(N·|C|), equal to a full recomputation.
import { pairLogit } from "../../sidecar/metascore/kappa.ts";
import { boardCases, rankedRows } from "./referenceKappa.ts";
import { BoardError, SCOPES } from "../../sidecar/metascore/types.ts";
import type { Kappas, MethodScores, RankedRow, StoredMethod } from "../../sidecar/metascore/types.ts";

/** κ after inserting `candidate`: the stored methods' new κ (board order) and the candidate's. */
export function fuseCandidate(board: readonly StoredMethod[], candidate: MethodScores): { board: Kappas[]; candidate: Kappas } {
  const cases = boardCases([...board, candidate]);
  const n = board.length;
  const fused: Kappas[] = board.map(() => ({ overall: 0, morf: 0, lerf: 0 }));
  const own: Kappas = { overall: 0, morf: 0, lerf: 0 };
  for (const scope of SCOPES) {
    let candidateSum = 0;
    board.forEach((method, p) => {
      const stored = method.kappa[scope];
      if (typeof stored !== "number" || !Number.isFinite(stored)) {
        throw new BoardError(`method "${method.id}": stored ${scope} metascore is not a finite number`);
      }
      const l = pairLogit(method.scores, candidate.scores, cases, scope);
      fused[p][scope] = (n * stored + l) / (n + 1);
      candidateSum -= l;
    });
    own[scope] = candidateSum / (n + 1);
  }
  return { board: fused, candidate: own };
}

/**
 * The two boards of the submission screen (docs/metascore.md "The submission screen's two
 * boards"): the stored board as it is, and the same board with the candidate inserted by fusion.
 * Both best first.
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
