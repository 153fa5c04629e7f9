// Test helpers: random boards for property tests and small builders for hand-made ones.
import fc from "fast-check";
import type { MethodScores } from "../../sidecar/metascore/types.ts";

/** A method from per-task MoRF and LeRF areas, tasks named t0, t1, … */
export function method(id: string, morf: number[], lerf: number[]): MethodScores {
  const scores: MethodScores["scores"] = { morf: {}, lerf: {} };
  morf.forEach((v, i) => (scores.morf[`t${i}`] = v));
  lerf.forEach((v, i) => (scores.lerf[`t${i}`] = v));
  return { id, scores };
}

// Coarse values make ties common (they exercise the 0.5 branch); fine ones make them rare.
export const caseScore = fc.oneof(
  fc.integer({ min: 0, max: 10 }).map((i) => i / 10),
  fc.double({ min: 0, max: 1, noNaN: true }),
);

/** Scores of one method over `tasks` tasks, drawn from `score`. */
export function methodScoresArb(tasks: number, score: fc.Arbitrary<number> = caseScore) {
  return fc.record({
    morf: fc.array(score, { minLength: tasks, maxLength: tasks }),
    lerf: fc.array(score, { minLength: tasks, maxLength: tasks }),
  });
}

/** A board of `minMethods`..8 methods over 1..6 tasks, ids m0, m1, … */
export function boardArb(minMethods = 1, score: fc.Arbitrary<number> = caseScore) {
  return fc.record({ tasks: fc.integer({ min: 1, max: 6 }), n: fc.integer({ min: minMethods, max: 8 }) }).chain(({ tasks, n }) =>
    fc.record({
      tasks: fc.constant(tasks),
      methods: fc.array(methodScoresArb(tasks, score), { minLength: n, maxLength: n }).map((rows) => rows.map((r, i) => method(`m${i}`, r.morf, r.lerf))),
    }),
  );
}

export function byId<T extends { id: string }>(rows: T[]): Map<string, T> {
  return new Map(rows.map((r) => [r.id, r]));
}
