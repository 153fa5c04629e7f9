// The typed-array scoring (sidecar/metascore/kappa.ts, fusion.ts) against the implementation it
// replaced (referenceKappa.ts, referenceFusion.ts) on random boards: the same κ to 1e-9 — in fact
// to the last bit, since wins are counted exactly and sums run in the same order — and the same
// ranks, for full recomputation and for insertion.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeKappas, rankBoard } from "../../sidecar/metascore/kappa.ts";
import { insertCandidate } from "../../sidecar/metascore/fusion.ts";
import type { StoredMethod } from "../../sidecar/metascore/types.ts";
import { computeKappas as referenceKappas, rankBoard as referenceRankBoard } from "./referenceKappa.ts";
import { insertCandidate as referenceInsert } from "./referenceFusion.ts";
import { boardArb, method, methodScoresArb } from "./boards.ts";

describe("typed-array metascore equals the reference implementation", () => {
  it("full recomputation: every κ and rank (fast-check, ties frequent and rare)", () => {
    fc.assert(
      fc.property(boardArb(1), ({ methods: board }) => {
        const mine = computeKappas(board);
        const ref = referenceKappas(board);
        mine.forEach((k, i) => {
          for (const scope of ["overall", "morf", "lerf"] as const) expect(Math.abs(k[scope] - ref[i][scope])).toBeLessThanOrEqual(1e-9);
        });
        expect(rankBoard(board)).toEqual(referenceRankBoard(board));
      }),
      { numRuns: 300 },
    );
  });

  it("insertion of a candidate: both boards equal", () => {
    fc.assert(
      fc.property(
        boardArb(1).chain(({ tasks, methods }) => fc.record({ board: fc.constant(methods), candidate: methodScoresArb(tasks) })),
        ({ board, candidate }) => {
          const kappas = referenceKappas(board);
          const stored: StoredMethod[] = board.map((m, i) => ({ ...m, kappa: kappas[i] }));
          const cand = method("candidate", candidate.morf, candidate.lerf);
          const mine = insertCandidate(stored, cand);
          const ref = referenceInsert(stored, cand);
          expect(mine.original).toEqual(ref.original);
          mine.current.forEach((row, i) => {
            expect(row.id).toBe(ref.current[i].id);
            expect(Math.abs(row.metascore - ref.current[i].metascore)).toBeLessThanOrEqual(1e-9);
            expect(row.rank).toBe(ref.current[i].rank);
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
