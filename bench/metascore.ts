// Scoring at scale (issue 14 §3, docs/metascore-performance.md): inserting one candidate into a
// board of 10,000 methods × 22 cases, and a full recomputation of 1,000 methods, for the code in
// sidecar/metascore and for the straightforward implementation it replaced
// (tests/metascore/reference*.ts), in one run, with the largest difference between their κ.
// Insertion is timed twice: into a board prepared once (prepareBoard: checked, packed and ranked
// — what an insertion needs from the stored board alone), and cold, as insertCandidate does it
// from the stored methods for each call.
// Run: npx tsx bench/metascore.ts
import { performance } from "node:perf_hooks";
import { mulberry32 } from "../sidecar/data/prng.ts";
import { computeKappas, rankBoard } from "../sidecar/metascore/kappa.ts";
import { insertCandidate, insertPrepared, prepareBoard } from "../sidecar/metascore/fusion.ts";
import type { MethodScores, RankedRow, StoredMethod } from "../sidecar/metascore/types.ts";
import { computeKappas as referenceKappas, rankBoard as referenceRankBoard } from "../tests/metascore/referenceKappa.ts";
import { insertCandidate as referenceInsert } from "../tests/metascore/referenceFusion.ts";

const TASKS = 11; // 22 cases, the seed suite's shape
const GOALS = { insert: 5, recompute: 100 }; // ms, issue 14 §3
const rand = mulberry32(20261122);
// Scores in steps of 0.001, so that ties (the 0.5 of spec §4) are common.
const method = (id: string): MethodScores => {
  const scores: MethodScores["scores"] = { morf: {}, lerf: {} };
  for (let t = 0; t < TASKS; t++) {
    scores.morf[`task${t}`] = Math.round(rand() * 1000) / 1000;
    scores.lerf[`task${t}`] = Math.round(rand() * 1000) / 1000;
  }
  return { id, scores };
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function time(runs: number, fn: () => unknown): number {
  fn(); // warm-up
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    fn();
    t.push(performance.now() - s);
  }
  return median(t);
}

/** Largest |Δκ| between two boards of rows, row by row (so a different order shows), on every scope; ∞ if ids or ranks differ. */
function rowsDiff(a: RankedRow[], b: RankedRow[]): number {
  if (a.length !== b.length) return Infinity;
  let max = 0;
  a.forEach((r, i) => {
    const s = b[i];
    if (r.id !== s.id || r.rank !== s.rank || r.morfRank !== s.morfRank || r.lerfRank !== s.lerfRank) max = Infinity;
    max = Math.max(max, Math.abs(r.metascore - s.metascore), Math.abs(r.morf - s.morf), Math.abs(r.lerf - s.lerf));
  });
  return max;
}

// Insertion into 10,000 methods.
const big = Array.from({ length: 10_000 }, (_, i) => method(`m${i}`));
const bigKappas = computeKappas(big);
const stored: StoredMethod[] = big.map((m, i) => ({ ...m, kappa: bigKappas[i] }));
const candidate = method("candidate");
const prepareTime = time(7, () => prepareBoard(stored));
const prepared = prepareBoard(stored);
const insertPreparedTime = time(51, () => insertPrepared(prepared, candidate));
const insertColdTime = time(15, () => insertCandidate(stored, candidate));
const insertRef = time(5, () => referenceInsert(stored, candidate));
const ref = referenceInsert(stored, candidate);
const viaPrepared = insertPrepared(prepared, candidate);
const cold = insertCandidate(stored, candidate);
const preparedDiff = Math.max(rowsDiff(viaPrepared.current, ref.current), rowsDiff(viaPrepared.original, ref.original));
const coldDiff = Math.max(rowsDiff(cold.current, ref.current), rowsDiff(cold.original, ref.original));

// Full recomputation of 1,000 methods.
const thousand = big.slice(0, 1000);
const fullNew = time(7, () => rankBoard(thousand));
const fullRef = time(3, () => referenceRankBoard(thousand));
const k1 = computeKappas(thousand);
const k2 = referenceKappas(thousand);
const fullDiff = Math.max(
  rowsDiff(rankBoard(thousand), referenceRankBoard(thousand)),
  ...k1.flatMap((k, i) => [Math.abs(k.overall - k2[i].overall), Math.abs(k.morf - k2[i].morf), Math.abs(k.lerf - k2[i].lerf)]),
);

const line = (label: string, now: number, before: number, diff: number) =>
  `${label.padEnd(44)}${now.toFixed(2).padStart(9)} ${before.toFixed(2).padStart(10)} ${(now / before).toFixed(4).padStart(9)} ${(before / now).toFixed(1).padStart(9)}×   ${diff}`;
console.log(`${"metascore at scale (median ms)".padEnd(44)}      new  reference   new/ref  speed-up   max |Δκ|`);
console.log(line("insert 1 into 10,000 × 22, prepared board", insertPreparedTime, insertRef, preparedDiff));
console.log(line("insert 1 into 10,000 × 22, cold", insertColdTime, insertRef, coldDiff));
console.log(line("recompute 1,000 methods × 22", fullNew, fullRef, fullDiff));
console.log(`prepareBoard of the 10,000 (once per stored board): ${prepareTime.toFixed(2)} ms`);
const verdict = (ms: number, goal: number) => `${ms.toFixed(2)} ms ${ms < goal ? "<" : "≥"} ${goal} ms`;
console.log(
  `goals: insertion ${verdict(insertPreparedTime, GOALS.insert)} (prepared), ${verdict(insertColdTime, GOALS.insert)} (cold); recomputation ${verdict(fullNew, GOALS.recompute)}; |Δκ| ≤ 1e-9: ${Math.max(preparedDiff, coldDiff, fullDiff) <= 1e-9 ? "yes" : "NO"}`,
);
