// Boards kept between InsertCandidate calls (docs/metascore-performance.md "Boards kept between
// calls"): the kept path answers exactly what the direct path answers — the same rows bit for bit,
// the same refusals with the same messages — the cache stays within its limits, a board left out
// that the sidecar does not keep is refused with FAILED_PRECONDITION over real gRPC, and the
// hand-written encoding of the answer is the generated serializer's, byte for byte.
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { metarankV1 } from "../../proto/contract.ts";
import type { InsertCandidateRequest, InsertCandidateRequest__Output } from "../../proto/generated/metarank/v1/InsertCandidateRequest.ts";
import type { InsertCandidateResponse, InsertCandidateResponse__Output } from "../../proto/generated/metarank/v1/InsertCandidateResponse.ts";
import type { StoredMethod } from "../../proto/generated/metarank/v1/StoredMethod.ts";
import type { TaskScore } from "../../proto/generated/metarank/v1/TaskScore.ts";
import { mulberry32 } from "../../sidecar/data/prng.ts";
import { BOARD_CACHE_LIMITS, BoardCache, UNKNOWN_BOARD_VERSION } from "../../sidecar/metascore/boardCache.ts";
import { computeKappas } from "../../sidecar/metascore/kappa.ts";
import { insertCandidateCall, insertCandidateDirect, keptBoards, METASCORE_PROTO, metascoreService } from "../../sidecar/metascore/service.ts";
import { decodeInsertCandidateRequest, encodeInsertCandidateRequest, encodeInsertCandidateResponse } from "../../sidecar/metascore/wire.ts";
import type { MethodScores } from "../../sidecar/metascore/types.ts";

type Rand = () => number;
const definition = metarankV1(METASCORE_PROTO).Metascore.service.InsertCandidate;

/** Scores in coarse steps (many ties) or not at all. */
const score = (rand: Rand, coarse: boolean) => (coarse ? Math.round(rand() * 10) / 10 : rand());

function randomMethods(rand: Rand, n: number, tasks: number, coarse: boolean, prefix = "m"): MethodScores[] {
  return Array.from({ length: n }, (_, i) => {
    const scores: MethodScores["scores"] = { morf: {}, lerf: {} };
    for (let t = 0; t < tasks; t++) {
      scores.morf[`t${t}`] = score(rand, coarse);
      scores.lerf[`t${t}`] = score(rand, coarse);
    }
    return { id: `${prefix}${i}`, scores };
  });
}

const taskScores = (m: MethodScores): TaskScore[] => Object.keys(m.scores.morf).map((task) => ({ task, morf: m.scores.morf[task], lerf: m.scores.lerf[task] }));

/** A board as the app sends it: its methods with the κ a full recomputation gives them. */
function boardMessages(methods: MethodScores[]): StoredMethod[] {
  const kappas = computeKappas(methods);
  return methods.map((m, i) => ({
    id: m.id,
    metascore: kappas[i].overall,
    morfMetascore: kappas[i].morf,
    lerfMetascore: kappas[i].lerf,
    scores: taskScores(m),
  }));
}

/** A request as the service receives it: through the generated serializer and deserializer. */
function received(req: InsertCandidateRequest): InsertCandidateRequest__Output {
  return definition.requestDeserialize(definition.requestSerialize(req));
}

/** The answer, or the refusal's message. */
function outcome(fn: () => InsertCandidateResponse): { ok: InsertCandidateResponse } | { error: string } {
  try {
    return { ok: fn() };
  } catch (err) {
    return { error: `${(err as Error).constructor.name}: ${(err as Error).message}` };
  }
}

beforeEach(() => keptBoards.clear());

describe("the kept path answers what the direct path answers", () => {
  it("on 120 random boards (0–30 methods, 1–11 tasks, some listing tasks in another order), sent in full and then left out", () => {
    const rand = mulberry32(1403);
    for (let run = 0; run < 120; run++) {
      const tasks = 1 + Math.floor(rand() * 11);
      const methods = randomMethods(rand, Math.floor(rand() * 31), tasks, run % 2 === 0);
      const board = boardMessages(methods).map((m, i) => (i % 4 === 3 ? { ...m, scores: [...m.scores!].reverse() } : m));
      const candidate = { id: "candidate", scores: taskScores(randomMethods(rand, 1, tasks, run % 2 === 0, "c")[0]) };
      const version = `v${run}`;
      const direct = insertCandidateDirect(received({ board, candidate, boardVersion: version }));
      const full = insertCandidateCall(received({ board, candidate, boardVersion: version }));
      expect(full).toEqual(direct);
      if (methods.length === 0) continue; // nothing to keep: the app sends an empty board without a version
      expect(keptBoards.versions()).toContain(version);
      const omitted = insertCandidateCall(received({ candidate, boardVersion: version, boardOmitted: true }));
      expect(omitted).toEqual(direct);
      // Through the wire too: what the client decodes from the hand encoding is what it decodes from the generated one.
      expect(definition.responseDeserialize(encodeInsertCandidateResponse(omitted))).toEqual(
        definition.responseDeserialize(definition.responseSerialize(direct)),
      );
    }
  });

  it("refuses what the direct path refuses, with the same message, and keeps no refused board", () => {
    const rand = mulberry32(7);
    const good = boardMessages(randomMethods(rand, 6, 3, true));
    const candidate = { id: "candidate", scores: good[0].scores!.map((s) => ({ ...s, morf: 0.25 })) };
    const broken: [string, StoredMethod[], InsertCandidateRequest["candidate"]][] = [
      ["duplicate id", [...good, { ...good[2] }], candidate],
      ["empty id", good.map((m, i) => (i === 3 ? { ...m, id: "" } : m)), candidate],
      ["no scores", good.map((m, i) => (i === 1 ? { ...m, scores: [] } : m)), candidate],
      ["missing task", good.map((m, i) => (i === 4 ? { ...m, scores: m.scores!.slice(1) } : m)), candidate],
      ["extra task", good.map((m, i) => (i === 4 ? { ...m, scores: [...m.scores!, { task: "t9", morf: 0.1, lerf: 0.2 }] } : m)), candidate],
      ["task twice", good.map((m, i) => (i === 2 ? { ...m, scores: [m.scores![0], m.scores![0], m.scores![2]] } : m)), candidate],
      ["score out of range", good.map((m, i) => (i === 5 ? { ...m, scores: m.scores!.map((s) => ({ ...s, lerf: 1.5 })) } : m)), candidate],
      ["NaN score", good.map((m, i) => (i === 0 ? { ...m, scores: m.scores!.map((s) => ({ ...s, morf: NaN })) } : m)), candidate],
      ["stored κ not finite", good.map((m, i) => (i === 2 ? { ...m, morfMetascore: Infinity } : m)), candidate],
      [
        "task named like a prototype property",
        good.map((m) => ({ ...m, scores: m.scores!.map((s, k) => (k === 0 ? { ...s, task: "constructor" } : s)) })),
        candidate,
      ],
      ["candidate id on the board", good, { ...candidate, id: good[3].id }],
      ["candidate lacks a task", good, { ...candidate, scores: candidate.scores.slice(1) }],
      ["candidate missing", good, undefined],
      ["broken board and broken candidate", [...good, { ...good[0] }], { ...candidate, id: "" }],
    ];
    for (const [what, board, cand] of broken) {
      const direct = outcome(() => insertCandidateDirect(received({ board, candidate: cand, boardVersion: what })));
      expect(direct, what).toHaveProperty("error");
      expect(
        outcome(() => insertCandidateCall(received({ board, candidate: cand, boardVersion: what }))),
        what,
      ).toEqual(direct);
    }
    // Only the good board, sent with a refused candidate, was kept: it is a valid board.
    expect(keptBoards.versions()).toEqual(["candidate id on the board", "candidate lacks a task", "candidate missing"]);
    expect(outcome(() => insertCandidateCall(received({ candidate, boardVersion: "duplicate id", boardOmitted: true })))).toEqual({
      error: `UnknownBoardVersion: ${UNKNOWN_BOARD_VERSION} "duplicate id": send the board in full`,
    });
  });

  it("a version names one board: the same version sent in full again replaces what was kept", () => {
    const rand = mulberry32(99);
    const first = boardMessages(randomMethods(rand, 12, 4, false));
    const second = boardMessages(randomMethods(rand, 9, 4, false, "n"));
    const candidate = { id: "candidate", scores: taskScores(randomMethods(rand, 1, 4, false, "c")[0]) };
    insertCandidateCall(received({ board: first, candidate, boardVersion: "v" }));
    insertCandidateCall(received({ board: second, candidate, boardVersion: "v" }));
    expect(insertCandidateCall(received({ candidate, boardVersion: "v", boardOmitted: true }))).toEqual(
      insertCandidateDirect(received({ board: second, candidate, boardVersion: "v" })),
    );
    expect(keptBoards.weight()).toEqual({ methods: 9, scores: 9 * 8 });
  });

  it("refuses a board left out without a version, one sent along with board_omitted, and a version over 128 characters", () => {
    const board = boardMessages(randomMethods(mulberry32(3), 3, 2, true));
    const candidate = { id: "candidate", scores: board[0].scores!.map((s) => ({ ...s, morf: 0.5 })) };
    expect(outcome(() => insertCandidateCall(received({ candidate, boardOmitted: true })))).toEqual({
      error: "InvalidRequest: board_omitted needs a board_version",
    });
    expect(outcome(() => insertCandidateCall(received({ board, candidate, boardVersion: "v", boardOmitted: true })))).toEqual({
      error: "InvalidRequest: board_omitted, yet a board was sent",
    });
    expect(outcome(() => insertCandidateCall(received({ board, candidate, boardVersion: "x".repeat(129) })))).toEqual({
      error: "InvalidRequest: board_version is longer than 128 characters",
    });
  });
});

describe("the cache's limits", () => {
  const weight = (methods: number) => ({ methods, scores: methods * 22 });

  it("keeps at most `boards` boards, dropping the least recently used", () => {
    const cache = new BoardCache<number>({ boards: 3, methods: 1000, scores: 100_000 });
    for (const v of ["a", "b", "c"]) cache.set(v, 1, weight(10));
    expect(cache.get("a")).toBe(1); // a is now the most recently used
    cache.set("d", 1, weight(10));
    expect(cache.versions()).toEqual(["c", "a", "d"]);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.weight()).toEqual(weight(30));
  });

  it("keeps the methods and scores of every kept board within their limits, and does not keep a board over a limit on its own", () => {
    const cache = new BoardCache<number>({ boards: 10, methods: 100, scores: 1000 });
    cache.set("a", 1, { methods: 40, scores: 400 });
    cache.set("b", 2, { methods: 40, scores: 400 });
    cache.set("c", 3, { methods: 30, scores: 300 }); // 110 methods, 1100 scores: a goes
    expect(cache.versions()).toEqual(["b", "c"]);
    cache.set("d", 4, { methods: 5, scores: 900 }); // 1600 scores: b goes (1200), then c (900)
    expect(cache.versions()).toEqual(["d"]);
    expect(cache.set("e", 5, { methods: 101, scores: 10 })).toBe(false);
    expect(cache.set("f", 6, { methods: 1, scores: 1001 })).toBe(false);
    expect(cache.versions()).toEqual(["d"]);
    expect(cache.weight()).toEqual({ methods: 5, scores: 900 });
  });

  it("the service keeps at most BOARD_CACHE_LIMITS.boards boards: the oldest is then unknown", () => {
    const rand = mulberry32(5);
    const candidate = { id: "candidate", scores: taskScores(randomMethods(rand, 1, 2, true, "c")[0]) };
    const count = BOARD_CACHE_LIMITS.boards + 2;
    for (let i = 0; i < count; i++) insertCandidateCall(received({ board: boardMessages(randomMethods(rand, 5, 2, true)), candidate, boardVersion: `v${i}` }));
    expect(keptBoards.versions()).toEqual(Array.from({ length: BOARD_CACHE_LIMITS.boards }, (_, i) => `v${i + 2}`));
    expect(outcome(() => insertCandidateCall(received({ candidate, boardVersion: "v0", boardOmitted: true })))).toHaveProperty("error");
    expect(outcome(() => insertCandidateCall(received({ candidate, boardVersion: "v2", boardOmitted: true })))).toHaveProperty("ok");
  });
});

describe("the hand-written encoding of InsertCandidateResponse", () => {
  it("is the generated serializer's, byte for byte (non-ASCII ids, −0, large ranks, absent fields, empty lists)", () => {
    const rand = mulberry32(42);
    const row = (i: number) => ({
      id: i % 5 === 0 ? `méthode-${i}-测试-🙂` : `m${i}`,
      metascore: i % 7 === 0 ? -0 : (rand() - 0.5) * 10,
      rank: i % 11 === 0 ? 4_000_000_000 : i + 1,
      morfMetascore: rand() - 0.5,
      morfRank: 1 + Math.floor(rand() * 300),
      lerfMetascore: i % 13 === 0 ? 0 : rand() - 0.5,
      lerfRank: i % 3 === 0 ? 0 : 200,
      metascoreText: i % 17 === 0 ? "" : (rand() - 0.5).toFixed(4),
    });
    const full = Array.from({ length: 300 }, (_, i) => row(i));
    const responses: InsertCandidateResponse[] = [
      { original: full.slice(0, 120), current: full, boardVersion: "b1.abc" },
      { original: [], current: full.slice(3, 4) },
      { original: Object.freeze(full.slice(10, 50)) as InsertCandidateResponse["original"], current: [], boardVersion: "" },
      { current: [{ id: "only-id" }, { rank: 3, metascoreText: "0.1000" }, {}] },
      {},
    ];
    for (const res of responses) {
      expect(Buffer.compare(encodeInsertCandidateResponse(res), definition.responseSerialize(res))).toBe(0);
      // A frozen original list is encoded once and reused: the second encoding is the same.
      expect(Buffer.compare(encodeInsertCandidateResponse(res), definition.responseSerialize(res))).toBe(0);
    }
  });
});

describe("the hand-written encoding of InsertCandidateRequest (the web app's)", () => {
  it("is the generated serializer's, byte for byte (non-ASCII ids and tasks, −0, absent fields, empty lists, board left out)", () => {
    const rand = mulberry32(43);
    const scores = (k: number): TaskScore[] =>
      Array.from({ length: k }, (_, t) => ({ task: t === 2 ? "tâche-数据" : `task${t}`, morf: t === 1 ? -0 : rand(), lerf: rand() }));
    const board: StoredMethod[] = Array.from({ length: 150 }, (_, i) => ({
      id: i % 9 === 0 ? `méthode-${i}-🙂` : String(i + 1),
      metascore: (rand() - 0.5) * 4,
      morfMetascore: i % 5 === 0 ? 0 : rand() - 0.5,
      lerfMetascore: rand() - 0.5,
      scores: scores(i % 7 === 0 ? 0 : 11),
    }));
    // Methods listing the tasks in another order: names of the same length differing in a byte at
    // the same position, which the decoder must not take for the last method's.
    const shuffled = board.map((m, i) => (i % 2 === 1 ? { ...m, scores: [...m.scores!].reverse() } : i % 3 === 1 ? { ...m, scores: m.scores!.slice(1) } : m));
    const requests: InsertCandidateRequest[] = [
      { board, candidate: { id: "candidate", scores: scores(11) }, boardVersion: "b1.abc" },
      { board: shuffled, candidate: { id: "candidate", scores: scores(11).reverse() } },
      { board, candidate: { id: "candidate", scores: scores(11) } },
      { candidate: { id: "candidate", scores: scores(3) }, boardVersion: "b1.abc", boardOmitted: true },
      { board: [], candidate: { id: "c" }, boardVersion: "", boardOmitted: false },
      { board: [{ id: "x" }, { scores: [{ task: "t" }, { morf: 0.5 }] }, {}], candidate: {} },
      {},
    ];
    for (const req of requests) {
      const bytes = definition.requestSerialize(req);
      expect(Buffer.compare(encodeInsertCandidateRequest(req), bytes)).toBe(0);
      // And the sidecar's decoder reads what the generated one reads.
      expect(decodeInsertCandidateRequest(bytes)).toStrictEqual(definition.requestDeserialize(bytes));
    }
  });

  it("is decoded by the sidecar as the generated deserializer decodes it, unknown fields skipped; a truncated or mistyped message throws", () => {
    const req: InsertCandidateRequest = {
      board: [{ id: "1", metascore: -0, morfMetascore: 1.5, lerfMetascore: -2, scores: [{ task: "a", morf: 0.25, lerf: 0.75 }] }],
      candidate: { id: "c", scores: [{ task: "a", morf: 0.5, lerf: 0.5 }] },
      boardVersion: "b1.x",
      boardOmitted: true,
    };
    const bytes = definition.requestSerialize(req);
    // Fields a later contract might add: a varint (15), a fixed64 (16), a string (17), a fixed32 (18).
    const unknown = Buffer.from([0x78, 0x96, 0x01, 0x81, 0x01, 1, 2, 3, 4, 5, 6, 7, 8, 0x8a, 0x01, 3, 0x61, 0x62, 0x63, 0x95, 0x01, 9, 9, 9, 9]);
    const withUnknown = Buffer.concat([unknown, bytes, unknown]);
    expect(definition.requestDeserialize(withUnknown)).toStrictEqual(definition.requestDeserialize(bytes));
    expect(decodeInsertCandidateRequest(withUnknown)).toStrictEqual(definition.requestDeserialize(bytes));
    expect(Object.is(decodeInsertCandidateRequest(bytes).board[0].metascore, -0)).toBe(true);
    expect(() => decodeInsertCandidateRequest(bytes.subarray(0, bytes.length - 3))).toThrow(RangeError);
    expect(() => decodeInsertCandidateRequest(Buffer.from([(3 << 3) | 0, 1]))).toThrow(/wire type/);
  });
});

describe("over real gRPC", () => {
  let server: grpc.Server;
  let client: grpc.Client & { InsertCandidate: Function };
  const call = (req: InsertCandidateRequest) =>
    new Promise<InsertCandidateResponse__Output>((resolve, reject) =>
      client.InsertCandidate(req, (err: grpc.ServiceError | null, res: InsertCandidateResponse__Output) => (err ? reject(err) : resolve(res))),
    );

  beforeAll(async () => {
    server = new grpc.Server();
    metascoreService.register(server);
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
    );
    const Client = metarankV1(METASCORE_PROTO).Metascore;
    client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as unknown as typeof client;
  });
  afterAll(() => {
    client?.close();
    server?.forceShutdown();
  });

  it("a board left out that is not kept is FAILED_PRECONDITION; sent in full it is kept, and the next call without it answers the same", async () => {
    const rand = mulberry32(2026);
    const board = boardMessages(randomMethods(rand, 200, 11, true));
    const candidate = { id: "candidate", scores: taskScores(randomMethods(rand, 1, 11, true, "c")[0]) };
    await expect(call({ candidate, boardVersion: "b1.test", boardOmitted: true })).rejects.toMatchObject({
      code: grpc.status.FAILED_PRECONDITION,
      details: `InsertCandidate: ${UNKNOWN_BOARD_VERSION} "b1.test": send the board in full`,
    });
    const full = await call({ board, candidate, boardVersion: "b1.test" });
    const kept = await call({ candidate, boardVersion: "b1.test", boardOmitted: true });
    const plain = await call({ board, candidate });
    expect(full.boardVersion).toBe("b1.test");
    expect(kept).toEqual(full);
    expect({ ...plain, boardVersion: "b1.test" }).toEqual(full);
    expect(kept.current).toHaveLength(201);
    expect(kept.original).toHaveLength(200);
  });
});
