// The fast paths of docs/metascore-performance.md (packed boards, branch-free win counts,
// radix-sorted ranks, prepared boards and insertion without re-sorting) against the straightforward
// implementation (referenceKappa.ts, referenceFusion.ts), on seeded random boards: κ to 1e-9 (in
// fact to the last bit), and the same rows, ids and ranks in the same order.
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../sidecar/data/prng.ts";
import { fuseCandidate, insertCandidate, insertPrepared, prepareBoard } from "../../sidecar/metascore/fusion.ts";
import { computeKappas, rankBoard, rankKappas } from "../../sidecar/metascore/kappa.ts";
import { descendingOrder, mergeGroups, orderAfterInsertion } from "../../sidecar/metascore/order.ts";
import type { Kappas, MethodScores, RankedRow, StoredMethod } from "../../sidecar/metascore/types.ts";
import { computeKappas as referenceKappas, rankBoard as referenceRankBoard, rankKappas as referenceRankKappas } from "./referenceKappa.ts";
import { insertCandidate as referenceInsert } from "./referenceFusion.ts";

type Rand = () => number;

/**
 * A case score of one of several kinds, so that boards mix the 0.5 of a tie (coarse steps),
 * near-ties on both sides of 1e-12 (including chains a ≈ b ≈ c with a and c apart), and
 * scores that never tie.
 */
function score(rand: Rand, kind: number): number {
  switch (kind) {
    case 0:
      return Math.round(rand() * 10) / 10;
    case 1:
      return 0.5 + Math.floor(rand() * 5) * 0.6e-12;
    case 2:
      return Math.round(rand() * 1000) / 1000;
    default:
      return rand();
  }
}

function randomMethod(rand: Rand, id: string, tasks: number, kind: number): MethodScores {
  const scores: MethodScores["scores"] = { morf: {}, lerf: {} };
  for (let t = 0; t < tasks; t++) {
    scores.morf[`t${t}`] = score(rand, kind);
    scores.lerf[`t${t}`] = score(rand, kind);
  }
  return { id, scores };
}

function randomBoard(rand: Rand, n: number, tasks: number, kind: number, prefix = "m"): MethodScores[] {
  return Array.from({ length: n }, (_, i) => randomMethod(rand, `${prefix}${i}`, tasks, kind));
}

function stored(methods: MethodScores[], kappas: Kappas[]): StoredMethod[] {
  return methods.map((m, i) => ({ ...m, kappa: kappas[i] }));
}

/** Rows equal: same ids and ranks in the same order, κ within 1e-9. */
function expectSameRows(mine: RankedRow[], ref: RankedRow[]): void {
  expect(mine.map((r) => [r.id, r.rank, r.morfRank, r.lerfRank])).toEqual(ref.map((r) => [r.id, r.rank, r.morfRank, r.lerfRank]));
  let max = 0;
  mine.forEach((r, i) => (max = Math.max(max, Math.abs(r.metascore - ref[i].metascore), Math.abs(r.morf - ref[i].morf), Math.abs(r.lerf - ref[i].lerf))));
  expect(max).toBeLessThanOrEqual(1e-9);
}

function expectSameKappas(mine: Kappas[], ref: Kappas[]): void {
  expect(mine.length).toBe(ref.length);
  mine.forEach((k, i) => {
    for (const scope of ["overall", "morf", "lerf"] as const) expect(Math.abs(k[scope] - ref[i][scope])).toBeLessThanOrEqual(1e-9);
  });
}

describe("full recomputation equals the reference (seeded random boards)", () => {
  it("on 200 boards of 1–40 methods over 1–11 tasks, with exact ties, chained near-ties and none", () => {
    const rand = mulberry32(14_03);
    for (let run = 0; run < 200; run++) {
      const board = randomBoard(rand, 1 + Math.floor(rand() * 40), 1 + Math.floor(rand() * 11), run % 4);
      expectSameKappas(computeKappas(board), referenceKappas(board));
      expectSameRows(rankBoard(board), referenceRankBoard(board));
    }
  });

  it("on a board of 300 methods × 22 cases, bit for bit", () => {
    const board = randomBoard(mulberry32(7), 300, 11, 2);
    expect(computeKappas(board)).toEqual(referenceKappas(board));
    expect(rankBoard(board)).toEqual(referenceRankBoard(board));
  });

  it("when methods list their tasks in different orders (the lookup-by-name path)", () => {
    const rand = mulberry32(11);
    const board = randomBoard(rand, 30, 6, 0).map((m, i) => {
      if (i % 3 !== 1) return m;
      const reversed = (scores: Record<string, number>) => Object.fromEntries(Object.entries(scores).reverse());
      return { id: m.id, scores: { morf: reversed(m.scores.morf), lerf: reversed(m.scores.lerf) } };
    });
    expect(computeKappas(board)).toEqual(referenceKappas(board));
  });
});

describe("insertion equals the reference (seeded random boards)", () => {
  it("insertCandidate, insertPrepared and fuseCandidate on 200 boards of 0–40 methods", () => {
    const rand = mulberry32(2024);
    for (let run = 0; run < 200; run++) {
      const tasks = 1 + Math.floor(rand() * 11);
      const kind = run % 4;
      const methods = randomBoard(rand, Math.floor(rand() * 41), tasks, kind);
      const board = stored(methods, referenceKappas(methods));
      // Half the time the candidate copies a stored method: ties on every case.
      const candidate =
        methods.length > 0 && rand() < 0.5 ? { id: "candidate", scores: structuredClone(methods[0].scores) } : randomMethod(rand, "candidate", tasks, kind);
      const ref = referenceInsert(board, candidate);
      for (const mine of [insertCandidate(board, candidate), insertPrepared(prepareBoard(board), candidate)]) {
        expectSameRows(mine.original, ref.original);
        expectSameRows(mine.current, ref.current);
      }
      const fused = fuseCandidate(board, candidate);
      expectSameKappas([...fused.board, fused.candidate], referenceKappas([...methods, candidate]));
    }
  });

  it("into a board of 10,000 methods × 22 cases, stored κ spread out or full of exact and near (1e-9) ties", () => {
    const rand = mulberry32(10_000);
    const methods = randomBoard(rand, 10_000, 11, 2);
    // Fusion takes the stored κ as given, so they need not come from the scores. Spread-out κ
    // take orderAfterInsertion's insertion sort; κ in steps of 0.01, a third nudged by 6e-10 or
    // 1.2e-9, make the stored and fused boards full of equal and nearly equal κ (and take its merge).
    const spread = () => (rand() - 0.5) * 3;
    const tied = () => Math.round((rand() - 0.5) * 200) / 100 + (rand() < 0.3 ? Math.floor(rand() * 3) * 6e-10 : 0);
    for (const kappa of [spread, tied]) {
      const board = methods.map((m) => ({ ...m, kappa: { overall: kappa(), morf: kappa(), lerf: kappa() } }));
      const prepared = prepareBoard(board);
      for (const candidate of [randomMethod(rand, "candidate", 11, 2), { id: "twin", scores: structuredClone(methods[123].scores) }]) {
        const ref = referenceInsert(board, candidate);
        const mine = insertPrepared(prepared, candidate);
        expectSameRows(mine.original, ref.original);
        expectSameRows(mine.current, ref.current);
        expectSameRows(insertCandidate(board, candidate).current, ref.current);
      }
    }
  });

  it("into a large board whose κ are all nearly equal (the merge fallback of orderAfterInsertion)", () => {
    const rand = mulberry32(99);
    const methods = randomBoard(rand, 3000, 11, 3);
    const board = methods.map((m) => ({ ...m, kappa: { overall: 0.25 + rand() * 1e-7, morf: -0.5 + rand() * 1e-7, lerf: rand() * 1e-7 } }));
    const candidate = randomMethod(rand, "candidate", 11, 3);
    const ref = referenceInsert(board, candidate);
    const mine = insertPrepared(prepareBoard(board), candidate);
    expectSameRows(mine.current, ref.current);
    expectSameRows(mine.original, ref.original);
  });

  it("refuses what insertCandidate refuses, with the same message", () => {
    const methods = randomBoard(mulberry32(5), 5, 3, 0);
    const board = stored(methods, referenceKappas(methods));
    const prepared = prepareBoard(board);
    const cases: MethodScores[] = [
      { id: "m2", scores: methods[0].scores },
      randomMethod(mulberry32(6), "short", 2, 0),
      randomMethod(mulberry32(6), "long", 4, 0),
      { id: "nan", scores: { ...methods[0].scores, lerf: { ...methods[0].scores.lerf, t1: Number.NaN } } },
    ];
    for (const candidate of cases) {
      const message = (() => {
        try {
          insertCandidate(board, candidate);
        } catch (err) {
          return (err as Error).message;
        }
        throw new Error(`${candidate.id} was accepted`);
      })();
      expect(() => insertPrepared(prepared, candidate)).toThrow(message);
    }
    expect(() => prepareBoard([...board, { ...board[0], id: "copy", kappa: { ...board[0].kappa, lerf: Infinity } }])).toThrow(
      'method "copy": stored lerf metascore is not a finite number',
    );
  });

  it("gives every insertion into a prepared board the same original rows, frozen", () => {
    const methods = randomBoard(mulberry32(8), 20, 4, 0);
    const prepared = prepareBoard(stored(methods, referenceKappas(methods)));
    const a = insertPrepared(prepared, randomMethod(mulberry32(9), "a", 4, 0));
    const b = insertPrepared(prepared, randomMethod(mulberry32(10), "b", 4, 0));
    expect(a.original).toEqual(b.original);
    expect(() => {
      a.original[0].rank = 99;
    }).toThrow(TypeError);
    expect(insertPrepared(prepareBoard([]), methods[0]).current).toEqual(referenceInsert([], methods[0]).current);
  });
});

describe("orders", () => {
  const comparatorOrder = (v: ArrayLike<number>) => Array.from({ length: v.length }, (_, i) => i).sort((a, b) => v[b] - v[a] || a - b);

  it("descendingOrder is the comparator sort's order, −0 = +0 and infinities included", () => {
    const rand = mulberry32(3);
    const specials = [0, -0, Infinity, -Infinity, Number.MIN_VALUE, -Number.MIN_VALUE, Number.MAX_VALUE, -Number.MAX_VALUE, 1, -1];
    for (let run = 0; run < 100; run++) {
      const n = Math.floor(rand() * 300);
      const values = Float64Array.from({ length: n }, () =>
        rand() < 0.2 ? specials[Math.floor(rand() * specials.length)] : Math.round((rand() - 0.5) * 40) / 8,
      );
      expect(Array.from(descendingOrder(values))).toEqual(comparatorOrder(values));
    }
  });

  it("rankKappas equals the reference, NaN included", () => {
    const rand = mulberry32(4);
    for (let run = 0; run < 100; run++) {
      const kappas = Array.from({ length: Math.floor(rand() * 50) }, () => Math.round(rand() * 20) / 10 + (rand() < 0.5 ? 5e-10 : 0));
      expect(rankKappas(kappas)).toEqual(referenceRankKappas(kappas));
    }
    expect(rankKappas([0.5, Number.NaN, 0.7, 0.5])).toEqual(referenceRankKappas([0.5, Number.NaN, 0.7, 0.5]));
  });

  it("orderAfterInsertion and mergeGroups sort the fused κ, also where rounding makes different stored κ equal", () => {
    const rand = mulberry32(12);
    const table = [-2.5, -1, 0, 0.75, 3];
    for (let run = 0; run < 200; run++) {
      const n = 1 + Math.floor(rand() * 200);
      // Neighbouring doubles (steps of 2^-52 around 1) and coarse values: many collide after fusion.
      const kappa = Float64Array.from({ length: n }, () => (rand() < 0.5 ? 1 + Math.floor(rand() * 8) * 2 ** -52 : Math.round(rand() * 8) / 4));
      const group = Int32Array.from({ length: n }, () => Math.floor(rand() * table.length));
      const fused = new Float64Array(n + 1);
      for (let p = 0; p < n; p++) fused[p] = (n * kappa[p] + table[group[p]]) / (n + 1);
      fused[n] = rand() < 0.5 ? fused[Math.floor(rand() * n)] : rand();
      const previous = descendingOrder(kappa);
      const expected = comparatorOrder(fused);
      expect(Array.from(mergeGroups(previous, fused, group, table.length))).toEqual(expected);
      expect(Array.from(orderAfterInsertion(previous, fused, group, table.length))).toEqual(expected);
    }
  });
});
