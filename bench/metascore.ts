// Scoring at scale (docs/metascore-performance.md): inserting one candidate into a board of 10,000
// methods × 22 cases, and a full recomputation of 1,000 methods, for the code in sidecar/metascore
// and for the straightforward implementation it replaced (tests/metascore/reference*.ts), in one
// run, with the largest difference between their κ. Insertion is timed twice: into a board prepared
// once (prepareBoard: checked, packed and ranked — what an insertion needs from the stored board
// alone), and cold, as insertCandidate does it from the stored methods for each call. The service
// path is timed too (docs/metascore-performance.md "Boards kept between calls"): the
// InsertCandidate handler called in-process on a decoded request, and a real gRPC round trip to the
// service on a local server (the request encoded, sent, decoded, answered, the answer encoded, sent
// and decoded; the request encoded by hand, as the web app does) — each cold (the board sent in
// full) and with the board kept by the service (left out, named by its version); plus the web app's
// version of a stored board of that size.
// Run: npx tsx bench/metascore.ts
import { performance } from "node:perf_hooks";
import * as grpc from "@grpc/grpc-js";
import { metarankV1 } from "../proto/contract.ts";
import type { InsertCandidateRequest } from "../proto/generated/metarank/v1/InsertCandidateRequest.ts";
import type { StoredMethod as StoredMethodMsg } from "../proto/generated/metarank/v1/StoredMethod.ts";
import { boardVersion } from "../app/.server/boardVersion.server.ts";
import { METASCORE_PROTO, insertCandidateCall, insertCandidateDirect, keptBoards, metascoreService } from "../sidecar/metascore/service.ts";
import { decodeInsertCandidateRequest, encodeInsertCandidateRequest, encodeInsertCandidateResponse } from "../sidecar/metascore/wire.ts";
import { mulberry32 } from "../sidecar/data/prng.ts";
import { computeKappas, rankBoard } from "../sidecar/metascore/kappa.ts";
import { insertCandidate, insertPrepared, prepareBoard } from "../sidecar/metascore/fusion.ts";
import type { MethodScores, RankedRow, StoredMethod } from "../sidecar/metascore/types.ts";
import { computeKappas as referenceKappas, rankBoard as referenceRankBoard } from "../tests/metascore/referenceKappa.ts";
import { insertCandidate as referenceInsert } from "../tests/metascore/referenceFusion.ts";

const TASKS = 11; // 22 cases, the metarank-seed suite's shape
const GOALS = { insert: 5, recompute: 100 }; // ms, docs/metascore-performance.md "Figures"
const rand = mulberry32(20261122);
// Scores in steps of 0.001, so that ties (the 0.5 of docs/metascore.md "κ and ranks") are common.
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

// ---- The service path: the same board and candidate as messages. ----
const taskScores = (m: MethodScores) => Object.keys(m.scores.morf).map((task) => ({ task, morf: m.scores.morf[task], lerf: m.scores.lerf[task] }));
const boardMsgs: StoredMethodMsg[] = stored.map((m) => ({
  id: m.id,
  metascore: m.kappa.overall,
  morfMetascore: m.kappa.morf,
  lerfMetascore: m.kappa.lerf,
  scores: taskScores(m),
}));
const candidateMsg = { id: candidate.id, scores: taskScores(candidate) };
// The web app's version of the stored rows (boardVersion.server.ts): id, κ and the scores as stored JSON.
const rows = stored.map((m, i) => ({
  id: i + 1,
  metascore: m.kappa.overall,
  morfMetascore: m.kappa.morf,
  lerfMetascore: m.kappa.lerf,
  scoresJson: JSON.stringify(boardMsgs[i].scores),
}));
const versionTime = time(7, () => boardVersion(rows));
const version = boardVersion(rows);
const definition = metarankV1(METASCORE_PROTO).Metascore.service.InsertCandidate;
const decoded = (req: InsertCandidateRequest) => definition.requestDeserialize(definition.requestSerialize(req));
const fullReq = decoded({ board: boardMsgs, candidate: candidateMsg, boardVersion: version });
// The request as the web app encodes it (wire.ts), and as the generated serializer would.
const requestWire = time(7, () => encodeInsertCandidateRequest({ board: boardMsgs, candidate: candidateMsg, boardVersion: version }));
const requestGeneric = time(5, () => definition.requestSerialize({ board: boardMsgs, candidate: candidateMsg, boardVersion: version }));
const fullBytes = encodeInsertCandidateRequest({ board: boardMsgs, candidate: candidateMsg });
const requestDecode = time(7, () => decodeInsertCandidateRequest(fullBytes));
const requestDecodeGeneric = time(5, () => definition.requestDeserialize(fullBytes));
const keptReq = decoded({ candidate: candidateMsg, boardVersion: version, boardOmitted: true });
// In-process: the handler's own work, and its answer's encoding (wire.ts).
const handlerDirect = time(7, () => insertCandidateDirect(fullReq));
const handlerCold = time(7, () => {
  keptBoards.clear();
  return insertCandidateCall(fullReq);
});
insertCandidateCall(fullReq);
const handlerKept = time(51, () => insertCandidateCall(keptReq));
const encodeKept = time(51, () => encodeInsertCandidateResponse(insertCandidateCall(keptReq)));
const generic = time(7, () => definition.responseSerialize(insertCandidateDirect(fullReq)));
const answerBytes = encodeInsertCandidateResponse(insertCandidateCall(keptReq));
const answerDecode = time(21, () => definition.responseDeserialize(answerBytes));
const asRows = (msgs: ReturnType<typeof insertCandidateCall>["current"]): RankedRow[] =>
  (msgs ?? []).map((r) => ({
    id: String(r.id),
    metascore: Number(r.metascore),
    rank: Number(r.rank),
    morf: Number(r.morfMetascore),
    morfRank: Number(r.morfRank),
    lerf: Number(r.lerfMetascore),
    lerfRank: Number(r.lerfRank),
  }));
const keptAnswer = insertCandidateCall(keptReq);
const serviceDiff = Math.max(rowsDiff(asRows(keptAnswer.current), ref.current), rowsDiff(asRows(keptAnswer.original), ref.original));

/** A real round trip: the service on a local gRPC server, a client with the web app's message limits. */
async function roundTrips(): Promise<{ cold: number; kept: number; diff: number }> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 256 * 1024 * 1024 });
  await metascoreService.register(server);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
    "grpc.max_receive_message_length": 64 * 1024 * 1024,
    "grpc.max_send_message_length": 256 * 1024 * 1024,
  });
  const call = (req: InsertCandidateRequest) =>
    new Promise<ReturnType<typeof definition.responseDeserialize>>((resolve, reject) =>
      client.makeUnaryRequest(definition.path, encodeInsertCandidateRequest, definition.responseDeserialize, req, (err, res) =>
        err || !res ? reject(err) : resolve(res),
      ),
    );
  const timeAsync = async (runs: number, fn: () => Promise<unknown>) => {
    await fn();
    const t: number[] = [];
    for (let i = 0; i < runs; i++) {
      const s = performance.now();
      await fn();
      t.push(performance.now() - s);
    }
    return median(t);
  };
  try {
    const cold = await timeAsync(5, () => call({ board: boardMsgs, candidate: candidateMsg }));
    await call({ board: boardMsgs, candidate: candidateMsg, boardVersion: version });
    const kept = await timeAsync(31, () => call({ candidate: candidateMsg, boardVersion: version, boardOmitted: true }));
    const answer = await call({ candidate: candidateMsg, boardVersion: version, boardOmitted: true });
    const diff = Math.max(rowsDiff(asRows(answer.current), ref.current), rowsDiff(asRows(answer.original), ref.original));
    return { cold, kept, diff };
  } finally {
    client.close();
    server.forceShutdown();
  }
}

void roundTrips().then((rt) => {
  console.log(`${"InsertCandidate, 10,000 × 22 (median ms)".padEnd(44)}     cold       kept   max |Δκ|`);
  const ms = (x: number) => (Number.isNaN(x) ? "—" : x.toFixed(2));
  const row2 = (label: string, cold: number, kept: number, diff: number | string) =>
    `${label.padEnd(44)}${ms(cold).padStart(9)} ${ms(kept).padStart(10)}   ${diff}`;
  console.log(row2("handler in-process (before: direct path)", handlerDirect, NaN, "—"));
  console.log(row2("handler in-process", handlerCold, handlerKept, serviceDiff));
  console.log(row2("handler + answer encoded (wire.ts)", NaN, encodeKept, "—"));
  console.log(row2("gRPC round trip, local server and client", rt.cold, rt.kept, rt.diff));
  console.log(
    `request with the board encoded by hand ${requestWire.toFixed(2)} ms (generated serializer ${requestGeneric.toFixed(2)} ms), decoded by the sidecar ${requestDecode.toFixed(2)} ms (generated deserializer ${requestDecodeGeneric.toFixed(2)} ms)`,
  );
  console.log(
    `answer encoded by the generated serializer: ${generic.toFixed(2)} ms; decoded by the client (generated deserializer) ${answerDecode.toFixed(2)} ms`,
  );
  console.log(`web app's board version (10,000 rows): ${versionTime.toFixed(2)} ms`);
  console.log(
    `goal: insertion through the service with the board kept ${verdict(handlerKept, GOALS.insert)} (handler), ${verdict(rt.kept, GOALS.insert)} (round trip)`,
  );
});
