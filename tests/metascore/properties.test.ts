// docs/metascore.md "Properties": what every implementation must keep, each over hundreds of random
// boards.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuseCandidate } from "../../sidecar/metascore/fusion.ts";
import { boardCases, computeKappas, pairLogit, rankBoard } from "../../sidecar/metascore/kappa.ts";
import { SCOPES } from "../../sidecar/metascore/types.ts";
import type { MethodScores, StoredMethod } from "../../sidecar/metascore/types.ts";
import { boardArb, byId, method, methodScoresArb } from "./boards.ts";

const RUNS = { numRuns: 300 };

function store(methods: MethodScores[]): StoredMethod[] {
  const kappas = computeKappas(methods);
  return methods.map((m, i) => ({ ...m, kappa: kappas[i] }));
}

describe('metascore properties (docs/metascore.md "Properties")', () => {
  it("1. Σκ = 0 on the overall, MoRF-only and LeRF-only boards", () => {
    fc.assert(
      fc.property(boardArb(), ({ methods }) => {
        const kappas = computeKappas(methods);
        for (const scope of SCOPES) {
          expect(Math.abs(kappas.reduce((sum, k) => sum + k[scope], 0))).toBeLessThanOrEqual(1e-9);
        }
      }),
      RUNS,
    );
  });

  it("2. reordering methods changes no κ and no rank", () => {
    fc.assert(
      fc.property(
        boardArb().chain(({ methods }) =>
          fc.record({
            methods: fc.constant(methods),
            permuted: fc.shuffledSubarray(methods, { minLength: methods.length, maxLength: methods.length }),
          }),
        ),
        ({ methods, permuted }) => {
          const before = byId(rankBoard(methods));
          for (const row of rankBoard(permuted)) {
            const was = before.get(row.id)!;
            expect(Math.abs(row.metascore - was.metascore)).toBeLessThanOrEqual(1e-9);
            expect(Math.abs(row.morf - was.morf)).toBeLessThanOrEqual(1e-9);
            expect(Math.abs(row.lerf - was.lerf)).toBeLessThanOrEqual(1e-9);
            expect([row.rank, row.morfRank, row.lerfRank]).toEqual([was.rank, was.morfRank, was.lerfRank]);
          }
        },
      ),
      RUNS,
    );
  });

  it("3. incremental insertion equals full recomputation (to 1e-9)", () => {
    fc.assert(
      fc.property(boardArb(1), ({ methods }) => {
        // The last method is the candidate; the board before it may be empty.
        const board = store(methods.slice(0, -1));
        const candidate = methods[methods.length - 1];
        const fused = fuseCandidate(board, candidate);
        const full = computeKappas(methods);
        for (const scope of SCOPES) {
          fused.board.forEach((k, i) => expect(Math.abs(k[scope] - full[i][scope])).toBeLessThanOrEqual(1e-9));
          expect(Math.abs(fused.candidate[scope] - full[full.length - 1][scope])).toBeLessThanOrEqual(1e-9);
        }
      }),
      RUNS,
    );
  });

  it("3'. a board built by inserting its methods one at a time equals the full recomputation", () => {
    fc.assert(
      fc.property(boardArb(2), ({ methods }) => {
        let board: StoredMethod[] = [];
        for (const candidate of methods) {
          const fused = fuseCandidate(board, candidate);
          board = [...board.map((m, i) => ({ ...m, kappa: fused.board[i] })), { ...candidate, kappa: fused.candidate }];
        }
        const full = computeKappas(methods);
        board.forEach((m, i) => {
          for (const scope of SCOPES) expect(Math.abs(m.kappa[scope] - full[i][scope])).toBeLessThanOrEqual(1e-9);
        });
      }),
      RUNS,
    );
  });

  it("4. improving one method on one case never lowers its κ", () => {
    fc.assert(
      fc.property(
        boardArb().chain(({ tasks, methods }) =>
          fc.record({
            methods: fc.constant(methods),
            who: fc.integer({ min: 0, max: methods.length - 1 }),
            protocol: fc.constantFrom("morf" as const, "lerf" as const),
            task: fc.integer({ min: 0, max: tasks - 1 }).map((i) => `t${i}`),
            step: fc.double({ min: 0, max: 1, noNaN: true }),
          }),
        ),
        ({ methods, who, protocol, task, step }) => {
          const old = methods[who].scores[protocol][task];
          // MoRF improves downwards (towards 0), LeRF upwards (towards 1).
          const better = protocol === "morf" ? old * (1 - step) : old + (1 - old) * step;
          const improved = methods.map((m, i) => (i === who ? { ...m, scores: { ...m.scores, [protocol]: { ...m.scores[protocol], [task]: better } } } : m));
          const before = computeKappas(methods)[who];
          const after = computeKappas(improved)[who];
          expect(after.overall).toBeGreaterThanOrEqual(before.overall);
          expect(after[protocol]).toBeGreaterThanOrEqual(before[protocol]);
        },
      ),
      RUNS,
    );
  });

  it("5. a method that beats every other on every case ranks first alone", () => {
    const inner = fc.double({ min: 0.1, max: 0.9, noNaN: true });
    fc.assert(
      fc.property(
        boardArb(1, inner).chain(({ methods }) =>
          fc.record({
            methods: fc.constant(methods),
            margin: fc.double({ min: 1e-6, max: 0.1, noNaN: true }),
            at: fc.integer({ min: 0, max: methods.length }),
          }),
        ),
        ({ methods, margin, at }) => {
          const tasks = Object.keys(methods[0].scores.morf);
          const champion = method(
            "champion",
            tasks.map((t) => Math.min(...methods.map((m) => m.scores.morf[t])) - margin),
            tasks.map((t) => Math.max(...methods.map((m) => m.scores.lerf[t])) + margin),
          );
          const board = [...methods.slice(0, at), champion, ...methods.slice(at)];
          const rows = rankBoard(board);
          expect(rows[0].id).toBe("champion");
          expect(rows.filter((r) => r.rank === 1).map((r) => r.id)).toEqual(["champion"]);
          expect(rows.filter((r) => r.morfRank === 1).map((r) => r.id)).toEqual(["champion"]);
          expect(rows.filter((r) => r.lerfRank === 1).map((r) => r.id)).toEqual(["champion"]);
        },
      ),
      RUNS,
    );
  });

  it("6. two methods with identical files get identical κ (and share a rank)", () => {
    fc.assert(
      fc.property(
        boardArb().chain(({ methods }) =>
          fc.record({
            methods: fc.constant(methods),
            original: fc.integer({ min: 0, max: methods.length - 1 }),
            at: fc.integer({ min: 0, max: methods.length }),
          }),
        ),
        ({ methods, original, at }) => {
          const copy = { id: "copy", scores: structuredClone(methods[original].scores) };
          const rows = byId(rankBoard([...methods.slice(0, at), copy, ...methods.slice(at)]));
          const a = rows.get(methods[original].id)!;
          const b = rows.get("copy")!;
          expect(Math.abs(a.metascore - b.metascore)).toBeLessThanOrEqual(1e-12);
          expect(Math.abs(a.morf - b.morf)).toBeLessThanOrEqual(1e-12);
          expect(Math.abs(a.lerf - b.lerf)).toBeLessThanOrEqual(1e-12);
          expect([a.rank, a.morfRank, a.lerfRank]).toEqual([b.rank, b.morfRank, b.lerfRank]);
        },
      ),
      RUNS,
    );
  });
});

describe("supporting invariants", () => {
  it("L is antisymmetric, ties within 1e-12 included", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }).chain((tasks) =>
          fc.record({
            p: methodScoresArb(tasks),
            q: methodScoresArb(tasks),
            jitter: fc.double({ min: -1e-12, max: 1e-12, noNaN: true }),
          }),
        ),
        ({ p, q, jitter }) => {
          // Nudging one of q's scores to within 1e-12 of p's makes a near-tie.
          q.morf[0] = Math.min(1, Math.max(0, p.morf[0] + jitter));
          const a = method("p", p.morf, p.lerf);
          const b = method("q", q.morf, q.lerf);
          const cases = boardCases([a, b]);
          for (const scope of SCOPES) {
            const sum = pairLogit(a.scores, b.scores, cases, scope) + pairLogit(b.scores, a.scores, cases, scope);
            expect(Math.abs(sum)).toBeLessThanOrEqual(1e-12);
          }
        },
      ),
      RUNS,
    );
  });

  it("rows come best first and ranks never decrease down the board", () => {
    fc.assert(
      fc.property(boardArb(), ({ methods }) => {
        const rows = rankBoard(methods);
        expect(rows[0].rank).toBe(1);
        for (let i = 1; i < rows.length; i++) {
          expect(rows[i].metascore).toBeLessThanOrEqual(rows[i - 1].metascore);
          expect(rows[i].rank === rows[i - 1].rank || rows[i].rank === i + 1).toBe(true);
        }
      }),
      RUNS,
    );
  });
});
