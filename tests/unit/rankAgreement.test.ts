// Rank agreement between cases: Kendall's τ-b on hand-computed examples, per-case ranks with
// the protocols' directions and ties, and rank spread.
import { describe, expect, it } from "vitest";
import { caseAgreement, caseRanks, casesOf, kendallTauB, rankSpread, type CaseScores } from "../../app/lib/rankAgreement.ts";

describe("kendallTauB", () => {
  it("is 1 for the same order, −1 for the reverse", () => {
    expect(kendallTauB([1, 2, 3, 4], [10, 20, 30, 40])).toBe(1);
    expect(kendallTauB([1, 2, 3, 4], [4, 3, 2, 1])).toBe(-1);
  });
  it("one swapped neighbour pair in four items: (5 − 1) / 6", () => {
    expect(kendallTauB([1, 2, 3, 4], [1, 3, 2, 4])).toBeCloseTo(4 / 6, 12);
  });
  it("with ties: x = [1,2,2,3], y = [1,2,3,3] gives 4 / sqrt(5·5) = 0.8", () => {
    // Pairs: (0,1) C, (0,2) C, (0,3) C, (1,2) tie in x, (1,3) C, (2,3) tie in y → C = 4, D = 0,
    // n0 = 6, n1 = 1, n2 = 1 → 4 / sqrt(5 · 5).
    expect(kendallTauB([1, 2, 2, 3], [1, 2, 3, 3])).toBeCloseTo(0.8, 12);
  });
  it("is undefined (NaN) when one ranking is constant", () => {
    expect(kendallTauB([1, 1, 1], [1, 2, 3])).toBeNaN();
  });
});

const board: CaseScores[] = [
  // MoRF: lower area is better; LeRF: higher is better (docs/metascore.md "Case scores").
  {
    method: "A",
    scores: [
      { task: "t1", morf: 0.1, lerf: 0.9 },
      { task: "t2", morf: 0.3, lerf: 0.5 },
    ],
  },
  {
    method: "B",
    scores: [
      { task: "t1", morf: 0.2, lerf: 0.8 },
      { task: "t2", morf: 0.2, lerf: 0.6 },
    ],
  },
  {
    method: "C",
    scores: [
      { task: "t1", morf: 0.2, lerf: 0.7 },
      { task: "t2", morf: 0.1, lerf: 0.7 },
    ],
  },
];

describe("case ranks, agreement and spread", () => {
  const cases = casesOf(["t1", "t2"]);
  const ranks = caseRanks(board, cases);
  it("rank 1 is the lowest MoRF and the highest LeRF area; ties share a rank and the next skips", () => {
    // cases: t1·MoRF, t2·MoRF, t1·LeRF, t2·LeRF
    expect(ranks).toEqual([
      [1, 3, 1, 3],
      [2, 2, 2, 2],
      [2, 1, 3, 1],
    ]);
  });
  it("agreement: τ between every pair of cases and its mean", () => {
    const a = caseAgreement(ranks, cases);
    expect(a.tau[0][0]).toBe(1);
    // t1·MoRF [1,2,2] vs t2·MoRF [3,2,1]: every untied pair discordant → −2 / sqrt(2·3).
    expect(a.tau[0][1]).toBeCloseTo(-2 / Math.sqrt(6), 12);
    // t2·MoRF and t2·LeRF rank identically.
    expect(a.tau[1][3]).toBeCloseTo(1, 12);
    const offDiagonal = [a.tau[0][1], a.tau[0][2], a.tau[0][3], a.tau[1][2], a.tau[1][3], a.tau[2][3]];
    expect(a.meanTau).toBeCloseTo(offDiagonal.reduce((s, v) => s + v, 0) / 6, 12);
  });
  it("spread: best, median and worst rank of each method", () => {
    expect(rankSpread(board, ranks)).toEqual([
      { method: "A", best: 1, median: 2, worst: 3 },
      { method: "B", best: 2, median: 2, worst: 2 },
      { method: "C", best: 1, median: 1.5, worst: 3 },
    ]);
  });
});
