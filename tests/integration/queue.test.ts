// Jobs on real Redis (127.0.0.1:6379) survive the app process dying mid-job: the next
// process picks the job up with its payload and user, retries a sidecar failure with
// backoff, and the progress is visible from outside. Each test run has its own key prefix.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { Client } from "../support/client.ts";
import { adminClient, userClient } from "../support/accounts.ts";
import Bull from "bull";
import { bullJobInfo, createJobQueue, type JobQueue } from "../../app/.server/queue.server.ts";

const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
const prefix = `metarank_test_${process.pid}_${crypto.randomBytes(3).toString("hex")}`;
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

function worker(mode: "crash" | "work") {
  const p: ChildProcess = spawn(process.execPath, ["--import", "tsx", "tests/integration/queueWorker.ts"], {
    cwd: ROOT,
    env: { ...process.env, REDIS_URL, QUEUE_PREFIX: prefix, MODE: mode, LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  p.stdout!.on("data", (d) => (out += d));
  p.stderr!.on("data", (d) => (out += d));
  const stop = () =>
    new Promise<void>((res) => {
      if (p.exitCode !== null || p.signalCode !== null) return res();
      p.once("exit", () => res());
      p.kill("SIGKILL");
    });
  cleanups.push(stop);
  return { p, out: () => out, stop };
}

async function until<T>(what: string, fn: () => Promise<T | false | null | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function dropKeys() {
  const { default: Redis } = await import("ioredis");
  const r = new Redis(REDIS_URL);
  const keys = await r.keys(`${prefix}:*`);
  if (keys.length) await r.del(...keys);
  await r.quit();
}
cleanups.push(dropKeys);

// Two worker processes, or an app started and restarted: well under a minute alone, more beside other suites.
describe("bull queue on real Redis", { timeout: 150_000 }, () => {
  it("a job taken by a process that dies is finished by the next one, with its user, after a retry", async () => {
    const producer: JobQueue = createJobQueue({ redisUrl: REDIS_URL, prefix, attempts: 4, backoffMs: 100 });
    cleanups.push(() => producer.close());
    expect(producer.backend).toBe("redis");
    const user = { id: 42, username: "alice" };
    const payload = { suite: "fashion-mnist", method: "saliency", limit: 5 };

    const first = worker("crash");
    const queued = await producer.enqueueJob("evaluation", payload, user);
    expect(queued.user).toEqual(user);
    await until("the first process to start the job", async () => first.out().includes(`STARTED ${queued.id}`));
    const running = await producer.getJob("evaluation", queued.id);
    expect(running).toMatchObject({ state: "active", progress: 30 });
    await first.stop(); // the app dies mid-job

    const second = worker("work");
    await until("the second process", async () => second.out().includes("READY"));
    const done = await until(
      "the job to finish in the second process",
      async () => {
        const j = await producer.getJob("evaluation", queued.id);
        return j && (j.state === "completed" || j.state === "failed") && j;
      },
      30_000,
    );
    expect(done.state, second.out()).toBe("completed");
    expect(done.progress).toBe(100);
    expect(done.result).toEqual({ finishedBy: second.p.pid, user, payload, attempt: 2 });
    expect(done.attemptsMade).toBe(2); // the sidecar failure, then the success
    expect(done.user).toEqual(user);
    expect((await producer.listJobs("evaluation", { userId: 42 })).map((j) => j.id)).toContain(queued.id);
    await second.stop();
  });
});

describe("a job read while it finishes", () => {
  it("reads as finished only with its result (the hash read before the state is read again)", async () => {
    const q = new Bull("race", REDIS_URL, { prefix: `${prefix}_race` });
    cleanups.push(() => q.close());
    const user = { id: 1, username: "racer", role: "user" };
    const ok = await q.add({ payload: {}, user });
    const bad = await q.add({ payload: {}, user }, { attempts: 1 });
    // Each job's hash as a reader had it before the worker finished the job.
    const staleOk = (await q.getJob(ok.id))!;
    const staleBad = (await q.getJob(bad.id))!;
    expect(staleOk.returnvalue ?? null).toBe(null);
    void q.process(async (job) => {
      if (job.id === bad.id) throw new Error("the sidecar refused");
      return { shard: 7 };
    });
    await until("both jobs finished", async () => (await q.getJobCounts()).completed + (await q.getJobCounts()).failed === 2);
    const a = await bullJobInfo("race", staleOk);
    expect(a.state).toBe("completed");
    expect(a.result).toEqual({ shard: 7 });
    expect(a.attemptsMade).toBe(1);
    expect(a.finishedAt).toBeGreaterThan(0);
    const b = await bullJobInfo("race", staleBad);
    expect(b.state).toBe("failed");
    expect(b.failedReason).toBe("the sidecar refused");
  });
});

describe("the web app on Redis", { timeout: 150_000 }, () => {
  let stack: Stack;
  it("keeps queued jobs across an app restart and shows them to admins only in bull-board", async () => {
    const appPrefix = `${prefix}_app`;
    stack = await startStack({ sidecar: false, env: { NODE_ENV: "test", REDIS_URL, QUEUE_PREFIX: appPrefix } });
    cleanups.push(() => stack.stop());
    const producer = createJobQueue({ redisUrl: REDIS_URL, prefix: appPrefix });
    cleanups.push(() => producer.close());
    cleanups.push(async () => {
      const { default: Redis } = await import("ioredis");
      const r = new Redis(REDIS_URL);
      const keys = await r.keys(`${appPrefix}:*`);
      if (keys.length) await r.del(...keys);
      await r.quit();
    });
    const job = await producer.enqueueJob("evaluation", { suite: "s", method: "m", limit: 1 }, { id: 1, username: "root-admin" }, { attempts: 1 });

    const admin = await adminClient(stack.baseUrl);
    const board = async (c: Client) => c.get("/admin/queues/api/queues?activeQueue=evaluation&status=latest&page=1&jobsPerPage=10");
    const seen = async () => {
      const res = await board(admin);
      expect(res.status).toBe(200);
      const body = await res.json();
      const q = body.queues.find((x: any) => x.name === "evaluation");
      return q?.jobs?.find((j: any) => String(j.id) === job.id) ?? null;
    };
    expect(await seen()).toMatchObject({ data: { user: { id: 1, username: "root-admin" } } });

    const user = await userClient(stack.baseUrl, "queue-user");
    expect((await board(user)).status).toBe(403);
    expect((await board(new Client(stack.baseUrl))).status).toBe(403);
    expect((await admin.get("/admin/queues")).status).toBe(200);

    await stack.restartWeb();
    expect(await seen()).toMatchObject({ data: { payload: { suite: "s", method: "m", limit: 1 }, user: { id: 1 } } });
  });
});
