// The web app's side of boards kept between InsertCandidate calls (docs/metascore-performance.md
// "Boards kept between calls"), on a real database (SQLite, migrated) and the real Metascore
// service over gRPC: the version of a stored board moves whenever what is sent for it moves
// (a κ, a score, a row added or removed) and only then; the app names the board by its version
// first and sends it in full only when the sidecar does not keep it, or does not know versions
// at all (a sidecar from before them); and every answer is the direct path's on the board as it
// is in the database at that moment — never a stale one.
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InsertCandidateRequest__Output } from "../../proto/generated/metarank/v1/InsertCandidateRequest.ts";
import type { MetascoreHandlers } from "../../proto/generated/metarank/v1/Metascore.ts";
import { mulberry32 } from "../../sidecar/data/prng.ts";
import { computeKappas } from "../../sidecar/metascore/kappa.ts";
import { insertCandidateDirect, keptBoards, metascoreService } from "../../sidecar/metascore/service.ts";
import { createTestDatabase } from "../support/stack.ts";

const SUITE = "version-suite";
const TASKS = ["a", "b", "c"];
let db: { url: string; drop(): Promise<void> };
let models: typeof import("../../models/index.ts");
let board: typeof import("../../app/.server/board.server.ts");
let server: grpc.Server;
/** Each InsertCandidate request the service received, and whether the service was the current one or a stand-in from before board_version. */
const seen: { board: number; version: string; omitted: boolean }[] = [];
let oldSidecar = false;

beforeAll(async () => {
  db = await createTestDatabase("sqlite");
  process.env.DATABASE_URL = db.url;
  process.env.LOG_LEVEL = "silent";
  models = await import("../../models/index.ts");
  await (await import("../../models/migrate.ts")).migrate();
  board = await import("../../app/.server/board.server.ts");
  // The real service, behind a recorder; or, while `oldSidecar`, a service from before
  // board_version: it ignores the field (a board left out is an empty board) and echoes nothing.
  server = new grpc.Server();
  const recorder = {
    addService(service: grpc.ServiceDefinition, handlers: MetascoreHandlers) {
      server.addService(service, {
        ...handlers,
        InsertCandidate: (call: grpc.ServerUnaryCall<InsertCandidateRequest__Output, never>, callback: grpc.sendUnaryData<never>) => {
          const req = call.request;
          seen.push({ board: req.board.length, version: req.boardVersion, omitted: req.boardOmitted });
          if (oldSidecar) return callback(null, { ...insertCandidateDirect(req), boardVersion: "" } as never);
          handlers.InsertCandidate(call as never, callback as never);
        },
      });
    },
  } as unknown as grpc.Server;
  await metascoreService.register(recorder);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  process.env.SIDECARS = `127.0.0.1:${port}`;
  await models.Suite.create({
    id: SUITE,
    name: "Version suite",
    description: "",
    tasksJson: JSON.stringify(TASKS),
    gridJson: "[]",
    fillerJson: "[]",
    patchSize: 8,
  });
  const rand = mulberry32(31);
  const methods = Array.from({ length: 25 }, (_, i) => ({
    id: `r${i}`,
    scores: {
      morf: Object.fromEntries(TASKS.map((t) => [t, Math.round(rand() * 10) / 10])),
      lerf: Object.fromEntries(TASKS.map((t) => [t, Math.round(rand() * 10) / 10])),
    },
  }));
  const kappas = computeKappas(methods);
  for (const [i, m] of methods.entries()) {
    await models.BoardMethod.create({
      suiteId: SUITE,
      sourceKey: m.id,
      submissionId: null,
      contributor: "c",
      institute: "i",
      algorithm: m.id,
      scoresJson: JSON.stringify(TASKS.map((task) => ({ task, morf: m.scores.morf[task], lerf: m.scores.lerf[task] }))),
      metascore: kappas[i].overall,
      morfMetascore: kappas[i].morf,
      lerfMetascore: kappas[i].lerf,
    });
  }
});

afterAll(async () => {
  server?.forceShutdown();
  await models?.sequelize.close();
  await db?.drop();
});

const candidate = { id: "candidate", scores: TASKS.map((task, k) => ({ task, morf: 0.3 + 0.1 * k, lerf: 0.6 })) };

/** What the direct path answers for the board as the database holds it now. */
async function expected() {
  const { messages } = await board.storedBoard(SUITE);
  const direct = insertCandidateDirect({ board: messages, candidate, boardVersion: "", boardOmitted: false } as InsertCandidateRequest__Output);
  return { original: direct.original, current: direct.current };
}

async function insert() {
  seen.length = 0;
  const res = await board.insertCandidate(await board.storedBoard(SUITE), candidate);
  return { original: res.original, current: res.current };
}

describe("the version of a stored board", () => {
  it("is the same on every read of an unchanged board, and so are the messages", async () => {
    const [a, b] = [await board.storedBoard(SUITE), await board.storedBoard(SUITE)];
    expect(a.version).toMatch(/^b1\.[\w-]{43}$/);
    expect(b.version).toBe(a.version);
    expect(b.messages).toEqual(a.messages);
  });

  it("moves with every κ, every score and every row, and with nothing that is not sent", async () => {
    const versions = new Set<string>();
    const version = async () => (await board.storedBoard(SUITE)).version;
    versions.add(await version());
    const row = (await models.BoardMethod.findOne({ where: { suiteId: SUITE, sourceKey: "r7" } }))!;
    const changes: [string, () => Promise<unknown>][] = [
      ["overall κ, in its last bit", () => row.update({ metascore: row.metascore + Math.abs(row.metascore) * Number.EPSILON || Number.MIN_VALUE })],
      ["MoRF κ", () => row.update({ morfMetascore: row.morfMetascore + 1e-12 })],
      ["LeRF κ", () => row.update({ lerfMetascore: row.lerfMetascore - 1e-12 })],
      ["a score", () => row.update({ scoresJson: row.scoresJson.replace(/"lerf":([\d.]+)/, (_, v) => `"lerf":${Number(v) === 1 ? 0.9 : Number(v) + 0.05}`) })],
      ["a row added", () => models.BoardMethod.create({ ...row.get(), id: undefined, sourceKey: "extra" } as never)],
      ["a row removed", () => models.BoardMethod.destroy({ where: { suiteId: SUITE, sourceKey: "r11" } })],
    ];
    for (const [what, change] of changes) {
      const before = await version();
      await change();
      const after = await version();
      expect(after, what).not.toBe(before);
      expect(versions.has(after), what).toBe(false);
      versions.add(after);
    }
    // The added row removed again: a board not seen before either (r11 is gone since).
    await models.BoardMethod.destroy({ where: { suiteId: SUITE, sourceKey: "extra" } });
    const withoutExtra = await version();
    expect(versions.has(withoutExtra)).toBe(false);
    versions.add(withoutExtra);
    // Not sent to the service, so not part of the version: the row's names and visibility.
    const before = await version();
    await row.update({ contributor: "renamed", algorithm: "renamed", hidden: true });
    expect(await version()).toBe(before);
    await row.update({ hidden: false });
  });
});

describe("InsertCandidate from the app", () => {
  it("sends the board in full once, then only its version, and answers what the direct path answers", async () => {
    keptBoards.clear();
    const { version } = await board.storedBoard(SUITE);
    expect(await insert()).toEqual(await expected());
    expect(seen).toEqual([
      { board: 0, version, omitted: true },
      { board: 24, version, omitted: false },
    ]);
    expect(await insert()).toEqual(await expected());
    expect(seen).toEqual([{ board: 0, version, omitted: true }]);
  });

  it("after the board changes in the database, is never answered from the board kept before", async () => {
    const row = (await models.BoardMethod.findOne({ where: { suiteId: SUITE, sourceKey: "r3" } }))!;
    // Changes the app did not make (no fusion; as an import or a hand edit would): a κ alone, then a score alone.
    const changes: [string, () => Promise<unknown>][] = [
      ["κ", () => row.update({ metascore: row.metascore + 0.5 })],
      ["score", () => row.update({ scoresJson: row.scoresJson.replace(/"morf":([\d.]+)/, '"morf":0.05') })],
    ];
    for (const [what, change] of changes) {
      const old = await board.storedBoard(SUITE);
      await insert(); // the board as it was is kept
      await change();
      const now = await board.storedBoard(SUITE);
      expect(now.version, what).not.toBe(old.version);
      const answer = await insert();
      expect(
        seen.map((s) => [s.version, s.omitted]),
        what,
      ).toEqual([
        [now.version, true],
        [now.version, false],
      ]);
      expect(answer, what).toEqual(await expected());
      expect(answer.original.find((r) => r.id === String(row.id))!.metascore, what).toBe(row.metascore);
    }
  });

  it("sends the board in full when the sidecar does not echo the version (one from before board_version)", async () => {
    keptBoards.clear();
    oldSidecar = true;
    try {
      const answer = await insert();
      expect(seen.map((s) => [s.board, s.omitted])).toEqual([
        [0, true],
        [24, false],
      ]);
      expect(answer).toEqual(await expected());
    } finally {
      oldSidecar = false;
    }
  });

  it("sends an empty board as it is, without a version", async () => {
    await models.Suite.create({ id: "empty-suite", name: "Empty", description: "", tasksJson: "[]", gridJson: "[]", fillerJson: "[]", patchSize: 8 });
    seen.length = 0;
    const res = await board.insertCandidate(await board.storedBoard("empty-suite"), candidate);
    expect(seen).toEqual([{ board: 0, version: "", omitted: false }]);
    expect(res.current.map((r) => r.id)).toEqual(["candidate"]);
  });
});
