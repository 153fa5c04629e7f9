// The messages of a group of web processes (server/cluster.ts): shared counters that every other
// process hears, broadcasts, shared values and calls to the leader, relayed by a real primary to
// two real workers (tests/support/clusterProbe.ts), plus the group's size from WEB_PROCESSES.
import { spawn } from "node:child_process";
import os from "node:os";
import { describe, expect, it } from "vitest";
import { webProcessCount } from "../../server/cluster.ts";
import { answerQueueCalls, createJobQueue, leaderQueueProxy } from "../../app/.server/queue.server.ts";
import { ROOT } from "../support/stack.ts";

describe("WEB_PROCESSES", () => {
  it("is one process per core by default, one under Vite's dev server, and refuses what is not a count", () => {
    expect(webProcessCount({})).toBe(os.availableParallelism());
    expect(webProcessCount({ NODE_ENV: "development" })).toBe(1);
    expect(webProcessCount({ WEB_PROCESSES: "3", NODE_ENV: "development" })).toBe(3);
    expect(() => webProcessCount({ WEB_PROCESSES: "0" })).toThrow(/WEB_PROCESSES/);
    expect(() => webProcessCount({ WEB_PROCESSES: "two" })).toThrow(/WEB_PROCESSES/);
  });
});

describe("a group of two web processes", () => {
  it("shares counters, broadcasts and values through the primary, and answers calls from the leader", async () => {
    const lines = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
      const p = spawn(process.execPath, ["--import", "tsx", "tests/support/clusterProbe.ts"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
      let text = "";
      p.stdout.on("data", (d) => (text += d));
      p.stderr.on("data", (d) => (text += d));
      const timer = setTimeout(() => p.kill("SIGKILL"), 30_000);
      const got = () =>
        text
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .map((l) => JSON.parse(l) as Record<string, unknown>);
      // Both workers print what they heard; then the group is stopped as make serve stops it.
      const poll = setInterval(() => {
        if (got().filter((l) => "seen" in l).length >= 2) {
          clearInterval(poll);
          clearTimeout(timer);
          p.kill("SIGTERM");
        }
      }, 50);
      p.on("exit", (code) => {
        clearInterval(poll);
        clearTimeout(timer);
        const all = got();
        if (all.filter((l) => "seen" in l).length >= 2 && code === 0) resolve(all);
        else reject(new Error(`the probe ended early:\n${text}`));
      });
    });
    const result = lines.find((l) => l.index === 1 && "first" in l)!;
    const start = result.start as number;
    // A counter starts at the group's start time, so values never repeat across restarts.
    expect(start).toBeGreaterThan(Date.now() - 60_000);
    expect(result).toMatchObject({ first: start + 1, second: start + 2, kept: { done: 3, total: 7 } });
    expect(result.call).toEqual({ op: "enqueueJob", args: ["tree", { id: 1 }], by: 0 });
    expect(result.failure).toBe("refused by the leader");
    // The leader heard both increments and the broadcast, in order; the incrementing worker hears neither of its own.
    const leaderSaw = lines.find((l) => l.index === 0 && "seen" in l)!.seen;
    expect(leaderSaw).toEqual([
      { counter: "v", value: start + 1 },
      { counter: "v", value: start + 2 },
      { topic: "cancel", data: 42 },
    ]);
    expect(lines.find((l) => l.index === 1 && "seen" in l)!.seen).toEqual([]);
  }, 40_000);
});

describe("the leader's in-process queue seen from another process", () => {
  it("queues, reads and lists the leader's jobs, payloads and results passing as JSON, and refuses handlers", async () => {
    const leaderQueue = createJobQueue({ redisUrl: null, attempts: 1, backoffMs: 10 });
    leaderQueue.registerJobHandler("evaluation", async (job) => ({ echoed: job.payload.method, by: job.user.username }));
    const answer = answerQueueCalls(leaderQueue);
    // What crosses the primary is JSON (process.send), both ways.
    const json = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));
    const other = leaderQueueProxy(async (op, args) => json(await answer(op, json(args))));
    try {
      expect(other.backend).toBe("memory");
      const queued = await other.enqueueJob("evaluation", { suite: "s", method: "m", limit: 1 }, { id: 3, username: "carol" });
      let job = await other.getJob("evaluation", queued.id);
      for (let i = 0; i < 100 && job?.state !== "completed"; i++) {
        await new Promise((r) => setTimeout(r, 10));
        job = await other.getJob("evaluation", queued.id);
      }
      expect(job).toMatchObject({ state: "completed", result: { echoed: "m", by: "carol" }, user: { id: 3, username: "carol" } });
      expect((await other.listJobs("evaluation", { userId: 3 })).map((j) => j.id)).toEqual([queued.id]);
      expect(await other.getJob("evaluation", "999")).toBeNull();
      expect(() => other.registerJobHandler("evaluation", async () => null)).toThrow(/leading web process/);
    } finally {
      await leaderQueue.close();
    }
  });
});
