// A tree-training task that finds no compute server waits for one without spending its attempts
// (app/.server/queue.server.ts untilSidecarServes): before the local sidecar's first heartbeat
// (none online) and while a killed sidecar is restarting (UNAVAILABLE), against a scripted Tree
// sidecar and a real SQLite database. It used to spend its three attempts in about 30 s and fail
// with the gRPC text and the sidecar's address on the page; a failure the sidecar ends with is
// shown as its status, translated.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "metarank-treewait-"));
process.env.DATABASE_URL = `sqlite:${path.join(tmp, "db.sqlite")}`;
process.env.TREE_TASK_DIR = path.join(tmp, "tasks");
process.env.TREE_TASK_PAUSE_MS = "100";
process.env.LOG_LEVEL = "silent";

type Script = (call: grpc.ServerWritableStream<any, any>) => void;
let script: Script = () => {};
let server: grpc.Server;
let address = "";
let tasks: typeof import("../../app/.server/treeTasks.server.ts");
let sidecar: typeof import("../../app/.server/sidecar.server.ts");
let models: typeof import("../../models/index.ts");
let userId: number;

const DONE = { done: { treeId: "tree-1", testAccuracy: 0.9, cnnAccuracy: 0.9, leaves: 8, leavesAfterPruning: 6, elapsedMs: 10 } };

beforeAll(async () => {
  const def = protoLoader.loadSync("metarank/v1/tree.proto", {
    keepCase: false,
    longs: Number,
    enums: String,
    defaults: true,
    oneofs: true,
    includeDirs: [path.resolve("proto")],
  });
  const Svc = (grpc.loadPackageDefinition(def) as any).metarank.v1.Tree;
  server = new grpc.Server();
  server.addService(Svc.service, { Train: (call: grpc.ServerWritableStream<any, any>) => script(call) });
  const port = await new Promise<number>((res, rej) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))),
  );
  address = `127.0.0.1:${port}`;
  const { migrate } = await import("../../models/migrate.ts");
  await migrate();
  models = await import("../../models/index.ts");
  userId = (await models.User.create({ username: "tree-user", passwordHash: "x", telephone: "13800138000", institute: "T", authority: 0 })).id;
  tasks = await import("../../app/.server/treeTasks.server.ts");
  sidecar = await import("../../app/.server/sidecar.server.ts");
});

afterAll(async () => {
  server?.forceShutdown();
  await models?.sequelize.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function newTask() {
  return models.TreeTask.create({ userId, category: "cub", name: "wait-tree", datasetsJson: '["cub"]', depth: 3, iterations: 1, protoDim: 8, argsJson: "{}" });
}

const job = (taskId: number, attempt = 1, maxAttempts = 3) => ({
  id: `job-${taskId}-${attempt}`,
  kind: "tree-task",
  payload: { taskId },
  user: { id: userId, username: "tree-user" },
  attempt,
  maxAttempts,
  progress: async () => {},
});

describe("a tree-training task waiting for a compute server", () => {
  it("waits, without spending an attempt, while none is online and while the chosen one does not answer", async () => {
    // Online: none for the first two asks (the local sidecar has not sent its first heartbeat).
    let asks = 0;
    sidecar.setSidecarChooser(async () => (++asks <= 2 ? null : { address, callKey: null }));
    let calls = 0;
    const notes: (string | null)[] = [];
    script = (call) => {
      // Then a sidecar killed and restarting: its first call is refused as UNAVAILABLE.
      if (++calls === 1) return void call.emit("error", { code: grpc.status.UNAVAILABLE, details: "connect ECONNREFUSED 127.0.0.1:50051" });
      call.write(DONE);
      call.end();
    };
    const row = await newTask();
    models.TreeTask.addHook("beforeBulkUpdate", "watch-notes", (options) => {
      const written = (options as { attributes?: { error?: string | null } }).attributes;
      if (written?.error) notes.push(written.error);
    });
    try {
      // The task's only attempt is enough.
      await expect(tasks.runTreeTaskJob(job(row.id, 1, 1))).resolves.toMatchObject({ state: "completed" });
    } finally {
      models.TreeTask.removeHook("beforeBulkUpdate", "watch-notes");
    }
    expect(asks).toBe(4);
    expect(calls).toBe(2);
    await row.reload();
    expect(row).toMatchObject({ state: "completed", attempts: 1, error: null });
    // What the page showed meanwhile: translated notes (app/locales/<lng>/tasks.json), no address.
    expect(notes).toEqual(['tasks:msg.waitingForServer|{"seconds":1}', 'tasks:msg.waitingForServer|{"seconds":1}', 'tasks:msg.waitingForServer|{"seconds":1}']);
  });

  it("a failure the sidecar ends with is shown as its status, translated, never its own text", async () => {
    sidecar.setSidecarChooser(async () => ({ address, callKey: null }));
    script = (call) => void call.emit("error", { code: grpc.status.INTERNAL, details: "worker crashed at 127.0.0.1:50051" });
    const row = await newTask();
    const retried = await tasks.runTreeTaskJob(job(row.id, 1, 2)).catch((e) => e);
    expect(retried).toBeInstanceOf(sidecar.SidecarCallError);
    await row.reload();
    expect(row.error).toBe('tasks:msg.retryingCompute|{"attempt":1,"of":2,"status":"INTERNAL"}');
    await tasks.runTreeTaskJob(job(row.id, 2, 2)).catch(() => undefined);
    await row.reload();
    expect(row).toMatchObject({ state: "failed", error: 'tasks:msg.computeFailed|{"status":"INTERNAL"}' });
  });
});
