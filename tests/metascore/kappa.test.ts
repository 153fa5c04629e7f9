// Hand-computed boards for docs/metascore.md "κ and ranks". The three-method board below, with
// one task (|C| = 2):
//   A: MoRF 0.2, LeRF 0.8   B: MoRF 0.3, LeRF 0.7   C: MoRF 0.3, LeRF 0.9
// A–B: A wins both → w = 2, P = 2.5/3, L = ln 5.   A–C: one each → P = 1/2, L = 0.
// B–C: MoRF tie (0.5), C wins LeRF → w[B][C] = 0.5, P = 1/3, L = −ln 2.
import { describe, expect, it } from "vitest";
import { boardCases, caseWin, computeKappas, formatMetascore, pairLogit, rankBoard, rankKappas } from "../../sidecar/metascore/kappa.ts";
import { BoardError } from "../../sidecar/metascore/types.ts";
import { byId, method } from "./boards.ts";

const A = method("A", [0.2], [0.8]);
const B = method("B", [0.3], [0.7]);
const C = method("C", [0.3], [0.9]);

describe("case wins", () => {
  it("MoRF: lower wins; LeRF: higher wins; equal is half", () => {
    expect(caseWin("morf", 0.2, 0.3)).toBe(1);
    expect(caseWin("morf", 0.3, 0.2)).toBe(0);
    expect(caseWin("lerf", 0.3, 0.2)).toBe(1);
    expect(caseWin("lerf", 0.2, 0.3)).toBe(0);
    expect(caseWin("lerf", 0.25, 0.25)).toBe(0.5);
  });

  it("treats scores within 1e-12 as a tie both ways, beyond it as a win", () => {
    expect(caseWin("morf", 0.3, 0.3 + 5e-13)).toBe(0.5);
    expect(caseWin("morf", 0.3 + 5e-13, 0.3)).toBe(0.5);
    expect(caseWin("morf", 0.3, 0.3 + 1e-11)).toBe(1);
    expect(caseWin("lerf", 0.3, 0.3 + 1e-11)).toBe(0);
  });

  it("smooths the win rate so that a clean sweep stays finite", () => {
    const cases = boardCases([A, B]);
    expect(pairLogit(A.scores, B.scores, cases, "overall")).toBeCloseTo(Math.log(5), 14);
    expect(pairLogit(B.scores, A.scores, cases, "overall")).toBeCloseTo(-Math.log(5), 14);
  });
});

describe("computeKappas / rankBoard on a hand-computed board", () => {
  const rows = byId(rankBoard([A, B, C]));

  it("gives the overall κ of the worked example", () => {
    expect(rows.get("A")!.metascore).toBeCloseTo(Math.log(5) / 3, 14);
    expect(rows.get("B")!.metascore).toBeCloseTo(-Math.log(10) / 3, 14);
    expect(rows.get("C")!.metascore).toBeCloseTo(Math.log(2) / 3, 14);
  });

  it("orders best first with ranks 1, 2, 3", () => {
    expect(rankBoard([A, B, C]).map((r) => [r.id, r.rank])).toEqual([
      ["A", 1],
      ["C", 2],
      ["B", 3],
    ]);
  });

  it("computes the MoRF-only board, where B and C tie and share rank 2", () => {
    // A beats both on its single MoRF case: L = ln 3 each; B–C tie: L = 0.
    expect(rows.get("A")!.morf).toBeCloseTo((2 * Math.log(3)) / 3, 14);
    expect(rows.get("B")!.morf).toBeCloseTo(-Math.log(3) / 3, 14);
    expect(rows.get("C")!.morf).toBeCloseTo(-Math.log(3) / 3, 14);
    expect([rows.get("A")!.morfRank, rows.get("B")!.morfRank, rows.get("C")!.morfRank]).toEqual([1, 2, 2]);
  });

  it("computes the LeRF-only board", () => {
    expect(rows.get("A")!.lerf).toBeCloseTo(0, 14);
    expect(rows.get("B")!.lerf).toBeCloseTo((-2 * Math.log(3)) / 3, 14);
    expect(rows.get("C")!.lerf).toBeCloseTo((2 * Math.log(3)) / 3, 14);
    expect([rows.get("C")!.lerfRank, rows.get("A")!.lerfRank, rows.get("B")!.lerfRank]).toEqual([1, 2, 3]);
  });

  it("gives κ = 0 to a board of one method, and nothing to an empty board", () => {
    expect(rankBoard([A])).toEqual([{ id: "A", metascore: 0, rank: 1, morf: 0, morfRank: 1, lerf: 0, lerfRank: 1 }]);
    expect(computeKappas([])).toEqual([]);
  });

  it("gives two methods that tie on every case κ = 0 and rank 1 each", () => {
    const twin = method("twin", [0.2], [0.8]);
    expect(rankBoard([A, twin]).map((r) => [r.metascore, r.rank])).toEqual([
      [0, 1],
      [0, 1],
    ]);
  });
});

describe("rankKappas", () => {
  it("shares ranks among equal κ and skips the next (1, 2, 2, 4)", () => {
    const { order, ranks } = rankKappas([0.1, 0.5, 0.5, 0.9]);
    expect(order).toEqual([3, 1, 2, 0]);
    expect(ranks).toEqual([4, 2, 2, 1]);
  });

  it("counts κ within 1e-9 as equal, and 2e-9 apart as different", () => {
    expect(rankKappas([0.5, 0.5 + 5e-10, 0.4]).ranks).toEqual([1, 1, 3]);
    expect(rankKappas([0.5, 0.5 + 2e-9, 0.4]).ranks).toEqual([2, 1, 3]);
  });

  it("does not chain near-equal values into one group without end", () => {
    // Each step is within 1e-9 of the previous but the third is 1.2e-9 below the first.
    expect(rankKappas([1, 1 - 6e-10, 1 - 1.2e-9]).ranks).toEqual([1, 1, 3]);
  });
});

describe("board checks", () => {
  it("rejects a method that lacks a task the others have", () => {
    expect(() => computeKappas([method("A", [0.1, 0.2], [0.3, 0.4]), method("B", [0.1], [0.3, 0.4])])).toThrow(BoardError);
    expect(() => computeKappas([method("A", [0.1, 0.2], [0.3, 0.4]), method("B", [0.1], [0.3, 0.4])])).toThrow(/"B" has no morf score for task "t1"/);
  });

  it("rejects an extra task, a duplicate id and a non-finite score", () => {
    expect(() => computeKappas([method("A", [0.1], [0.3]), method("B", [0.1, 0.2], [0.3])])).toThrow(/which "A" lacks/);
    expect(() => computeKappas([method("A", [0.1], [0.3]), method("A", [0.2], [0.3])])).toThrow(/appears twice/);
    expect(() => computeKappas([method("A", [Number.NaN], [0.3]), method("B", [0.2], [0.3])])).toThrow(/not a finite number/);
  });
});

describe("formatMetascore", () => {
  it("shows 4 decimals and never a negative zero", () => {
    expect(formatMetascore(Math.log(5) / 3)).toBe("0.5365");
    expect(formatMetascore(-Math.log(10) / 3)).toBe("-0.7675");
    expect(formatMetascore(-0.00004)).toBe("0.0000");
    expect(formatMetascore(0)).toBe("0.0000");
    expect(formatMetascore(1.5)).toBe("1.5000");
  });
});
