// Scoring at scale (docs/metascore-performance.md): inserting one candidate into a board of
// 10,000 methods × 22 cases, and a full recomputation of 1,000 methods, for the typed-array code
// (sidecar/metascore) and the implementation it replaced (tests/metascore/reference*.ts), in one
// run, with the largest difference between their κ.
// Run: node --import tsx bench/metascore.ts
import { performance } from "node:perf_hooks";
import { mulberry32 } from "../sidecar/data/prng.ts";
import { computeKappas, rankBoard } from "../sidecar/metascore/kappa.ts";
import { insertCandidate } from "../sidecar/metascore/fusion.ts";
import type { MethodScores, StoredMethod } from "../sidecar/metascore/types.ts";
import { computeKappas as referenceKappas, rankBoard as referenceRankBoard } from "../tests/metascore/referenceKappa.ts";
import { insertCandidate as referenceInsert } from "../tests/metascore/referenceFusion.ts";

const TASKS = 11; // 22 cases, the seed suite's shape
const rand = mulberry32(20261122);
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

// Insertion into 10,000 methods.
const big = Array.from({ length: 10_000 }, (_, i) => method(`m${i}`));
const bigKappas = computeKappas(big);
const stored: StoredMethod[] = big.map((m, i) => ({ ...m, kappa: bigKappas[i] }));
const candidate = method("candidate");
const insertNew = time(15, () => insertCandidate(stored, candidate));
const insertRef = time(5, () => referenceInsert(stored, candidate));
const a = insertCandidate(stored, candidate).current;
const b = referenceInsert(stored, candidate).current;
const insertDiff = Math.max(...a.map((r, i) => Math.abs(r.metascore - b[i].metascore)));

// Full recomputation of 1,000 methods.
const thousand = big.slice(0, 1000);
const fullNew = time(7, () => rankBoard(thousand));
const fullRef = time(3, () => referenceRankBoard(thousand));
const k1 = computeKappas(thousand);
const k2 = referenceKappas(thousand);
const fullDiff = Math.max(...k1.flatMap((k, i) => [Math.abs(k.overall - k2[i].overall), Math.abs(k.morf - k2[i].morf), Math.abs(k.lerf - k2[i].lerf)]));

console.log("metascore at scale (median ms)      new      reference   speed-up   max |Δκ|");
console.log(
  `insert 1 into 10,000 × 22 cases  ${insertNew.toFixed(2).padStart(8)} ${insertRef.toFixed(2).padStart(10)} ${(insertRef / insertNew).toFixed(1).padStart(9)}×   ${insertDiff}`,
);
console.log(
  `recompute 1,000 methods          ${fullNew.toFixed(2).padStart(8)} ${fullRef.toFixed(2).padStart(10)} ${(fullRef / fullNew).toFixed(1).padStart(9)}×   ${fullDiff}`,
);
