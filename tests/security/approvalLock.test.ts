// No lock held across a remote call (docs/security.md "Cases", locks): approving while the
// Metascore sidecar hangs must not hold the database's write lock — other writes go through at
// once, and the approval itself fails cleanly with nothing half-written.
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metarankV1 } from "../../proto/contract.ts";
import type { MetascoreHandlers } from "../../proto/generated/metarank/v1/Metascore.ts";
import { freePort, startStack, type Stack } from "../support/stack.ts";
import { adminClient, register } from "../support/accounts.ts";
import { Client } from "../support/client.ts";

const HANG_MS = 4000;
let stack: Stack;
let standIn: grpc.Server;
let models: typeof import("../../models/index.ts");

beforeAll(async () => {
  // A Metascore stand-in that takes HANG_MS to answer InsertCandidate, then fails.
  standIn = new grpc.Server();
  const handlers: MetascoreHandlers = {
    ValidateResultFiles: (_call, cb) => cb({ code: grpc.status.UNIMPLEMENTED }),
    RankBoard: (_call, cb) => cb({ code: grpc.status.UNIMPLEMENTED }),
    InsertCandidate: (_call, cb) => void setTimeout(() => cb({ code: grpc.status.UNAVAILABLE, details: "stand-in hung" }), HANG_MS),
  };
  standIn.addService(metarankV1("metarank/v1/metascore.proto").Metascore.service, handlers);
  const port = await freePort();
  await new Promise<void>((resolve, reject) =>
    standIn.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (e) => (e ? reject(e) : resolve())),
  );
  stack = await startStack({ sidecar: false, env: { SIDECARS: `127.0.0.1:${port}` } });
  process.env.DATABASE_URL = stack.dbUrl;
  models = await import("../../models/index.ts");
});
afterAll(async () => {
  await models?.sequelize.close();
  standIn?.forceShutdown();
  await stack?.stop();
});

describe(`approval with a hanging sidecar on ${process.env.TEST_DB}`, () => {
  it("other writes go through while the approval waits, and the failed approval leaves everything as it was", async () => {
    await register(new Client(stack.baseUrl), "lock-owner");
    const owner = await models.User.findOne({ where: { username: "lock-owner" } });
    const scores = JSON.stringify([{ task: "fashionmnist_resnet", morf: 0.2, lerf: 0.7 }]);
    const sub = await models.Submission.create({
      userId: owner!.id,
      suiteId: "metarank-local",
      algorithm: "Hangs-While-Approved",
      metascore: 0,
      ranking: 0,
      scoresJson: scores,
      morfFile: "x/morf.csv",
      morfName: "morf.csv",
      lerfFile: "x/lerf.csv",
      lerfName: "lerf.csv",
      email: "a@b.c",
      info: "",
    });
    const boardBefore = await models.BoardMethod.count({ where: { suiteId: "metarank-local" } });
    const admin = await adminClient(stack.baseUrl);
    const started = Date.now();
    const approval = admin.post("/approval", { id: String(sub.id), decision: "approve" });
    await new Promise((r) => setTimeout(r, 500)); // the approval is now waiting on the sidecar
    const t0 = Date.now();
    const other = await register(new Client(stack.baseUrl), "writes-meanwhile");
    const otherMs = Date.now() - t0;
    expect(other.status).toBe(302);
    expect(otherMs).toBeLessThan(HANG_MS / 2);
    const res = await approval;
    expect(Date.now() - started).toBeGreaterThanOrEqual(HANG_MS - 200);
    expect(res.status).toBeGreaterThanOrEqual(400);
    await sub.reload();
    expect(sub.status).toBe("In Process");
    expect(await models.BoardMethod.count({ where: { suiteId: "metarank-local" } })).toBe(boardBefore);
  });
});
