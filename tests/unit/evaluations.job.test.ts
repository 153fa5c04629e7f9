// The web app's evaluation job against a scripted Evaluation sidecar (a real gRPC server whose
// Run does what each case needs) and a real SQLite database: progress lands in the row and the
// job, the result files are written before the row points at them, a sidecar failure mid-run
// is retryable (the row says so) until the last attempt, a silent sidecar times out, and a
// cancel from the page stops the stream.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "metarank-evaljob-"));
process.env.DATABASE_URL = `sqlite:${path.join(tmp, "db.sqlite")}`;
process.env.EVALUATION_DIR = path.join(tmp, "evaluations");
process.env.LOG_LEVEL = "silent";

type Script = (call: grpc.ServerWritableStream<any, any>) => void | Promise<void>;
let script: Script = () => {};
let serverCancelled = 0;
let server: grpc.Server;
let ev: typeof import("../../app/.server/evaluations.server.ts");
let models: typeof import("../../models/index.ts");
let isRetryable: (err: unknown) => boolean;
let userId: number;

const CSV = (v: string) => `task,0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1\nscenes_resnet,${Array(11).fill(v).join(",")}\n`;
const progress = (done: number, total: number) => ({
  progress: { imagesDone: done, imagesTotal: total, etaSeconds: 1, task: "scenes_resnet", taskNumber: 1, taskCount: 1 },
});

beforeAll(async () => {
  const def = protoLoader.loadSync("metarank/v1/evaluation.proto", {
    keepCase: false,
    longs: Number,
    enums: String,
    defaults: true,
    oneofs: true,
    includeDirs: [path.resolve("proto")],
  });
  const Svc = (grpc.loadPackageDefinition(def) as any).metarank.v1.Evaluation;
  server = new grpc.Server();
  server.addService(Svc.service, {
    ListSuites: (_c: unknown, cb: grpc.sendUnaryData<unknown>) => cb(null, { suites: [], methods: [], problems: [] }),
    Run: (call: grpc.ServerWritableStream<any, any>) => {
      call.on("cancelled", () => serverCancelled++);
      void script(call);
    },
  });
  const port = await new Promise<number>((res, rej) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))),
  );
  process.env.SIDECARS = `127.0.0.1:${port}`;
  const { migrate } = await import("../../models/migrate.ts");
  await migrate();
  models = await import("../../models/index.ts");
  userId = (await models.User.create({ username: "eval-admin", passwordHash: "x", telephone: "13800138000", institute: "T", authority: 1 })).id;
  ev = await import("../../app/.server/evaluations.server.ts");
  ({ isRetryable } = await import("../../app/.server/queue.server.ts"));
});

afterAll(async () => {
  server?.forceShutdown();
  await models?.sequelize.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function newRun(limit = 4) {
  return models.EvaluationRun.create({ userId, suiteId: "metarank-local", method: "Saliency", paramsJson: "", imageLimit: limit });
}

function job(runId: number, attempt = 1, maxAttempts = 3) {
  const reported: number[] = [];
  return {
    reported,
    ctx: {
      id: `job-${runId}-${attempt}`,
      kind: "evaluation",
      payload: { suite: "metarank-local", method: "Saliency", limit: 4, runId },
      user: { id: userId, username: "eval-admin" },
      attempt,
      maxAttempts,
      progress: async (n: number) => void reported.push(n),
    },
  };
}

describe("evaluation job", () => {
  it("mirrors progress, writes the files, then completes the row (no board here: a note instead of a metascore)", async () => {
    script = async (call) => {
      call.write(progress(1, 2));
      await new Promise((r) => setTimeout(r, 1100));
      call.write(progress(2, 2));
      call.write({
        result: {
          morfCsv: CSV("1"),
          lerfCsv: CSV("0.5"),
          localisation: [{ task: "scenes_resnet", share: 0.25 }],
          imagesJson: "{}",
          paramsJson: "{}",
          tasks: ["scenes_resnet"],
          imagesPerTask: 2,
          seconds: 1.5,
          backend: "wasm",
        },
      });
      call.end();
    };
    const row = await newRun();
    const { ctx, reported } = job(row.id);
    await expect(ev.runEvaluationJob(ctx)).resolves.toMatchObject({ runId: row.id, state: "completed" });
    await row.reload();
    expect(row).toMatchObject({
      state: "completed",
      progress: 100,
      imagesDone: 2,
      imagesTotal: 2,
      attempts: 1,
      backend: "wasm",
      metascore: null,
      sidecar: process.env.SIDECARS,
    });
    expect(row.metascoreNote).toContain("no board for suite metarank-local");
    expect(JSON.parse(row.localisationJson!)).toEqual({ scenes_resnet: 0.25 });
    expect(reported).toContain(50);
    expect(reported.at(-1)).toBe(100);
    const file = await ev.evaluationFile(row.id, "morf.csv");
    expect(file?.body.toString()).toBe(CSV("1"));
    expect((await ev.evaluationFile(row.id, "lerf.csv"))?.body.toString()).toBe(CSV("0.5"));
    expect(await ev.evaluationFile(row.id, "../db.sqlite")).toBeNull();
    // Only the finished folder is left (the temporary one was renamed).
    expect(fs.readdirSync(process.env.EVALUATION_DIR!).filter((n) => n.startsWith("."))).toEqual([]);
  });

  it("a sidecar failure mid-run is retryable and the row says it will be retried; on the last attempt the row fails", async () => {
    script = (call) => {
      call.write(progress(1, 4));
      setTimeout(() => call.emit("error", { code: grpc.status.INTERNAL, details: "worker crashed" }), 50);
    };
    const row = await newRun();
    const first = await ev.runEvaluationJob(job(row.id, 1, 2).ctx).then(
      () => null,
      (e) => e,
    );
    expect(isRetryable(first)).toBe(true);
    await row.reload();
    expect(row.state).toBe("queued");
    // A message ref the page translates: the status, never the sidecar's own text (it may name its address).
    expect(row.error).toBe('admin:msg.evaluationRetryingCompute|{"attempt":1,"of":2,"status":"INTERNAL"}');
    expect(row.progress).toBe(25);

    const last = await ev.runEvaluationJob(job(row.id, 2, 2).ctx).then(
      () => null,
      (e) => e,
    );
    expect(isRetryable(last)).toBe(true);
    await row.reload();
    expect(row).toMatchObject({ state: "failed", attempts: 2 });
    expect(row.error).toBe('admin:msg.evaluationComputeFailed|{"status":"INTERNAL"}');
    expect(row.resultDir).toBeNull();
  });

  it("INVALID_ARGUMENT fails the run at once with the sidecar's own message", async () => {
    script = (call) => void call.emit("error", { code: grpc.status.INVALID_ARGUMENT, details: 'unknown attribution method "X" (known: Saliency)' });
    const row = await newRun();
    const err = await ev.runEvaluationJob(job(row.id).ctx).then(
      () => null,
      (e) => e,
    );
    expect(isRetryable(err)).toBe(false);
    await row.reload();
    expect(row).toMatchObject({ state: "failed", error: 'unknown attribution method "X" (known: Saliency)' });
  });

  it("a sidecar that stops talking is given up on after EVALUATION_IDLE_MS, retryably, and its call is cancelled", async () => {
    process.env.EVALUATION_IDLE_MS = "300";
    const before = serverCancelled;
    script = (call) => void call.write(progress(1, 4));
    try {
      const row = await newRun();
      const err = await ev.runEvaluationJob(job(row.id).ctx).then(
        () => null,
        (e) => e,
      );
      expect(err?.message).toContain("sent no progress for 0 s");
      expect(isRetryable(err)).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      expect(serverCancelled).toBe(before + 1);
    } finally {
      delete process.env.EVALUATION_IDLE_MS;
    }
  });

  it("cancelling from the page stops the stream and the row stays cancelled", async () => {
    const before = serverCancelled;
    let timer: NodeJS.Timeout | undefined;
    script = (call) => {
      let n = 0;
      timer = setInterval(() => call.writable && call.write(progress(++n, 1000)), 100);
      call.on("cancelled", () => clearInterval(timer));
    };
    const row = await newRun();
    const running = ev.runEvaluationJob(job(row.id).ctx);
    await new Promise((r) => setTimeout(r, 400));
    expect(await ev.cancelEvaluation(row.id, { username: "eval-admin" })).toBe(true);
    await expect(running).resolves.toMatchObject({ state: "cancelled" });
    clearInterval(timer);
    await row.reload();
    expect(row).toMatchObject({ state: "cancelled", error: 'admin:runs.msg.cancelledBy|{"user":"eval-admin"}' });
    await new Promise((r) => setTimeout(r, 100));
    expect(serverCancelled).toBe(before + 1);
    expect(await ev.cancelEvaluation(row.id, { username: "eval-admin" })).toBe(false);
  });

  it("a sidecar at its limit of runs (RESOURCE_EXHAUSTED) makes the run wait in the queue with backoff, without spending an attempt", async () => {
    // 400 ms then 800 ms of waiting (the test measures the doubling below).
    process.env.EVALUATION_BUSY_PAUSE_MS = "400";
    let calls = 0;
    const seen: Array<{ state: string; error: string | null }> = [];
    script = async (call) => {
      if (++calls <= 2) {
        call.emit("error", {
          code: grpc.status.RESOURCE_EXHAUSTED,
          details: "This compute server is already running 1 evaluation run(s), its limit; try again later.",
        });
        return;
      }
      call.write({
        result: {
          morfCsv: CSV("1"),
          lerfCsv: CSV("0.5"),
          localisation: [],
          imagesJson: "{}",
          paramsJson: "{}",
          tasks: ["scenes_resnet"],
          imagesPerTask: 4,
          seconds: 1,
          backend: "wasm",
        },
      });
      call.end();
    };
    const row = await newRun();
    // Every state the job writes, as it writes it (polling the row missed the short queued spell on a
    // loaded machine): transitions are bulk updates (models/EvaluationRun.ts transitionRun).
    models.EvaluationRun.addHook("beforeBulkUpdate", "watch-states", (options) => {
      // Sequelize hands a bulk update's values to this hook as options.attributes (not in its type).
      const written = (options as { attributes?: { state?: string; error?: string | null } }).attributes;
      if (written?.state) seen.push({ state: written.state, error: written.error ?? null });
    });
    const t0 = Date.now();
    try {
      // The job's only attempt: a busy sidecar does not use it up.
      await expect(ev.runEvaluationJob(job(row.id, 1, 1).ctx)).resolves.toMatchObject({ state: "completed" });
    } finally {
      models.EvaluationRun.removeHook("beforeBulkUpdate", "watch-states");
      delete process.env.EVALUATION_BUSY_PAUSE_MS;
    }
    expect(calls).toBe(3);
    // 400 ms, then 800 ms (doubling).
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1200);
    await row.reload();
    expect(row).toMatchObject({ state: "completed", attempts: 1, error: null });
    const waiting = seen.find((r) => r.state === "queued");
    // A message ref the admin page translates (app/locales/<lng>/admin.json msg.evaluationBusy).
    expect(waiting?.error).toBe('admin:msg.evaluationBusy|{"seconds":1}');
  });

  it("a sidecar that does not answer (UNAVAILABLE: killed, restarting) makes the run wait without spending an attempt", async () => {
    process.env.EVALUATION_BUSY_PAUSE_MS = "200";
    let calls = 0;
    const notes: (string | null)[] = [];
    script = async (call) => {
      if (++calls === 1) return void call.emit("error", { code: grpc.status.UNAVAILABLE, details: "connect ECONNREFUSED 127.0.0.1:50051" });
      call.write({
        result: {
          morfCsv: CSV("1"),
          lerfCsv: CSV("0.5"),
          localisation: [],
          imagesJson: "{}",
          paramsJson: "{}",
          tasks: ["scenes_resnet"],
          imagesPerTask: 4,
          seconds: 1,
          backend: "wasm",
        },
      });
      call.end();
    };
    const row = await newRun();
    models.EvaluationRun.addHook("beforeBulkUpdate", "watch-notes", (options) => {
      const written = (options as { attributes?: { state?: string; error?: string | null } }).attributes;
      if (written?.state === "queued") notes.push(written.error ?? null);
    });
    try {
      await expect(ev.runEvaluationJob(job(row.id, 1, 1).ctx)).resolves.toMatchObject({ state: "completed" });
    } finally {
      models.EvaluationRun.removeHook("beforeBulkUpdate", "watch-notes");
      delete process.env.EVALUATION_BUSY_PAUSE_MS;
    }
    expect(calls).toBe(2);
    await row.reload();
    expect(row).toMatchObject({ state: "completed", attempts: 1, error: null });
    expect(notes).toEqual(['admin:msg.evaluationOffline|{"seconds":1}']);
  });

  it("a run waiting for a busy sidecar can be cancelled from the page", async () => {
    process.env.EVALUATION_BUSY_PAUSE_MS = "5000";
    script = (call) => void call.emit("error", { code: grpc.status.RESOURCE_EXHAUSTED, details: "busy" });
    const row = await newRun();
    try {
      const running = ev.runEvaluationJob(job(row.id).ctx);
      await new Promise((r) => setTimeout(r, 200));
      await row.reload();
      expect(row.state).toBe("queued");
      const t0 = Date.now();
      expect(await ev.cancelEvaluation(row.id, { username: "eval-admin" })).toBe(true);
      await expect(running).resolves.toMatchObject({ state: "cancelled" });
      expect(Date.now() - t0).toBeLessThan(1000);
    } finally {
      delete process.env.EVALUATION_BUSY_PAUSE_MS;
    }
    await row.reload();
    expect(row.state).toBe("cancelled");
  });

  it("a job for a cancelled row does nothing", async () => {
    let called = false;
    script = (call) => {
      called = true;
      call.end();
    };
    const row = await newRun();
    await ev.cancelEvaluation(row.id, { username: "eval-admin" });
    await expect(ev.runEvaluationJob(job(row.id).ctx)).resolves.toMatchObject({ state: "cancelled" });
    expect(called).toBe(false);
  });

  it("the form's checks", () => {
    expect(ev.checkStartInput({ suite: "metarank-local", method: "Saliency", limit: "2", params: "" })).toEqual({
      ok: true,
      value: { suite: "metarank-local", method: "Saliency", limit: 2, params: "" },
    });
    const bad = ev.checkStartInput({ suite: "", method: " ", limit: "1001", params: "{" });
    expect(bad).toEqual({
      ok: false,
      errors: { suite: ev.MSG.suiteRequired, method: ev.MSG.methodRequired, limit: ev.MSG.limitRange, params: ev.MSG.paramsJson },
    });
    expect(ev.checkStartInput({ suite: "s", method: "m", limit: "2.5", params: "[]" })).toMatchObject({
      ok: false,
      errors: { limit: ev.MSG.limitRange, params: ev.MSG.paramsJson },
    });
  });
});
