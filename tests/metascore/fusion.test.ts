import { describe, expect, it } from "vitest";
import { fuseCandidate, insertCandidate } from "../../sidecar/metascore/fusion.ts";
import { computeKappas } from "../../sidecar/metascore/kappa.ts";
import type { StoredMethod } from "../../sidecar/metascore/types.ts";
import { byId, method } from "./boards.ts";

// Same worked example as kappa.test.ts: inserting C into the stored board {A, B}.
const A = method("A", [0.2], [0.8]);
const B = method("B", [0.3], [0.7]);
const C = method("C", [0.3], [0.9]);

function stored(methods: ReturnType<typeof method>[]): StoredMethod[] {
  const kappas = computeKappas(methods);
  return methods.map((m, i) => ({ ...m, kappa: kappas[i] }));
}

describe('history fusion (docs/metascore.md "History fusion")', () => {
  it("turns the stored two-method board into the three-method one", () => {
    const board = stored([A, B]);
    // Stored: κ[A] = ln 5 / 2, κ[B] = −ln 5 / 2.
    expect(board[0].kappa.overall).toBeCloseTo(Math.log(5) / 2, 14);
    const fused = fuseCandidate(board, C);
    expect(fused.board[0].overall).toBeCloseTo(Math.log(5) / 3, 14);
    expect(fused.board[1].overall).toBeCloseTo(-Math.log(10) / 3, 14);
    expect(fused.candidate.overall).toBeCloseTo(Math.log(2) / 3, 14);
    expect(fused.candidate.morf).toBeCloseTo(-Math.log(3) / 3, 14);
    expect(fused.candidate.lerf).toBeCloseTo((2 * Math.log(3)) / 3, 14);
  });

  it("uses the stored κ rather than recomputing them", () => {
    // A stored κ that disagrees with the scores moves the fused κ by exactly N/(N+1) of the gap.
    const board = stored([A, B]);
    const shifted = [{ ...board[0], kappa: { ...board[0].kappa, overall: board[0].kappa.overall + 0.3 } }, board[1]];
    const delta = fuseCandidate(shifted, C).board[0].overall - fuseCandidate(board, C).board[0].overall;
    expect(delta).toBeCloseTo((2 * 0.3) / 3, 14);
  });

  it("gives a candidate on an empty board κ = 0", () => {
    expect(fuseCandidate([], C).candidate).toEqual({ overall: 0, morf: 0, lerf: 0 });
  });

  it("returns the original board as stored and the current one with the candidate, best first", () => {
    const { original, current } = insertCandidate(stored([A, B]), C);
    expect(original.map((r) => [r.id, r.rank])).toEqual([
      ["A", 1],
      ["B", 2],
    ]);
    expect(current.map((r) => [r.id, r.rank])).toEqual([
      ["A", 1],
      ["C", 2],
      ["B", 3],
    ]);
    const rows = byId(current);
    expect(rows.get("B")!.morfRank).toBe(2);
    expect(rows.get("C")!.morfRank).toBe(2);
  });

  it("rejects a candidate whose id is already on the board or whose tasks differ", () => {
    expect(() => insertCandidate(stored([A, B]), { ...C, id: "A" })).toThrow(/appears twice/);
    expect(() => insertCandidate(stored([A, B]), method("D", [0.1, 0.2], [0.5, 0.6]))).toThrow(/which "A" lacks/);
  });

  it("rejects a stored κ that is not a number", () => {
    const board = stored([A, B]);
    board[1].kappa.morf = Number.NaN;
    expect(() => fuseCandidate(board, C)).toThrow(/"B": stored morf metascore is not a finite number/);
  });
});
