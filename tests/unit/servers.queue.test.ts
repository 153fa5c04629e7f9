// The in-process job runner (no REDIS_URL): same interface as the bull queues — user on
// every job, progress, retries with backoff on sidecar failures only.
import { afterEach, describe, expect, it } from "vitest";
import { RetryableJobError, createJobQueue, isRetryable, type JobQueue } from "../../app/.server/queue.server.ts";
import * as grpc from "@grpc/grpc-js";
import { SidecarCallError, SidecarUnavailableError, classifyStatus, toSidecarError } from "../../app/.server/sidecar.server.ts";

const user = { id: 7, username: "alice" };
const payload = { suite: "fashion-mnist", method: "saliency", limit: 10 };
let q: JobQueue | null = null;
afterEach(async () => {
  await q?.close();
  q = null;
});

async function settled(queue: JobQueue, id: string, ms = 5000) {
  const until = Date.now() + ms;
  for (;;) {
    const j = await queue.getJob("evaluation", id);
    if (j && (j.state === "completed" || j.state === "failed")) return j;
    if (Date.now() > until) throw new Error(`job ${id} did not finish: ${JSON.stringify(j)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("in-process job queue", () => {
  it("runs a job with its payload and user, and exposes progress and the result", async () => {
    q = createJobQueue({ redisUrl: null, attempts: 3, backoffMs: 10 });
    expect(q.backend).toBe("memory");
    const seen: unknown[] = [];
    q.registerJobHandler("evaluation", async (job) => {
      seen.push({ payload: job.payload, user: job.user, attempt: job.attempt });
      await job.progress(40);
      return { score: 0.9 };
    });
    const queued = await q.enqueueJob("evaluation", payload, user);
    expect(queued.state).toBe("waiting");
    expect(queued.user).toEqual(user);
    const done = await settled(q, queued.id);
    expect(done).toMatchObject({ state: "completed", progress: 40, result: { score: 0.9 }, attemptsMade: 1, user });
    expect(seen).toEqual([{ payload, user, attempt: 1 }]);
    expect((await q.listJobs("evaluation", { userId: 7 })).map((j) => j.id)).toEqual([queued.id]);
    expect(await q.listJobs("evaluation", { userId: 8 })).toEqual([]);
  });

  it("retries sidecar failures with growing delays, then succeeds", async () => {
    q = createJobQueue({ redisUrl: null, attempts: 4, backoffMs: 40 });
    const at: number[] = [];
    q.registerJobHandler("evaluation", async (job) => {
      at.push(Date.now());
      if (job.attempt < 3) throw new SidecarUnavailableError();
      return "ok";
    });
    const { id } = await q.enqueueJob("evaluation", payload, user);
    const done = await settled(q, id);
    expect(done.state).toBe("completed");
    expect(done.attemptsMade).toBe(3);
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(35); // 40 ms
    expect(at[2] - at[1]).toBeGreaterThanOrEqual(75); // then 80 ms
  });

  it("gives up after the last attempt", async () => {
    q = createJobQueue({ redisUrl: null, attempts: 2, backoffMs: 5 });
    q.registerJobHandler("evaluation", async () => {
      throw new RetryableJobError("sidecar busy");
    });
    const done = await settled(q, (await q.enqueueJob("evaluation", payload, user)).id);
    expect(done).toMatchObject({ state: "failed", attemptsMade: 2, failedReason: "sidecar busy" });
  });

  it("fails at once on errors a retry cannot fix", async () => {
    q = createJobQueue({ redisUrl: null, attempts: 5, backoffMs: 5 });
    let runs = 0;
    q.registerJobHandler("evaluation", async () => {
      runs++;
      throw new SidecarCallError("unknown method", 3, "unknown method");
    });
    const done = await settled(q, (await q.enqueueJob("evaluation", payload, user)).id);
    expect(done).toMatchObject({ state: "failed", attemptsMade: 1 });
    expect(runs).toBe(1);
  });

  it("waits for a handler: jobs queued before registration run after it", async () => {
    q = createJobQueue({ redisUrl: null });
    const { id } = await q.enqueueJob("evaluation", payload, user);
    await new Promise((r) => setTimeout(r, 20));
    expect((await q.getJob("evaluation", id))!.state).toBe("waiting");
    q.registerJobHandler("evaluation", async () => "late");
    expect((await settled(q, id)).result).toBe("late");
  });

  it("refuses a job without a user", async () => {
    q = createJobQueue({ redisUrl: null });
    await expect(q.enqueueJob("evaluation", payload, undefined as never)).rejects.toThrow(/user/);
  });

  it("classifies errors", () => {
    expect(isRetryable(new SidecarUnavailableError())).toBe(true);
    expect(isRetryable(new SidecarCallError("x", 14, "unavailable"))).toBe(true);
    expect(isRetryable(new SidecarCallError("x", 9, "bad"))).toBe(false);
    // A busy sidecar (its queue full, or at its cap of concurrent evaluation runs): retryable, with its own words.
    expect(isRetryable(new SidecarCallError("busy", 8, "already running 1 evaluation run(s)"))).toBe(true);
    expect(classifyStatus(grpc.status.RESOURCE_EXHAUSTED)).toBe("retryable");
    const busy = toSidecarError(
      Object.assign(new Error("busy"), { code: grpc.status.RESOURCE_EXHAUSTED, details: "The compute server is busy", metadata: new grpc.Metadata() }),
      "Explain",
      "x:1",
    );
    expect(busy).toMatchObject({ kind: "retryable", message: "The compute server is busy" });
    expect(isRetryable(new SidecarCallError("x", 3, "bad argument"))).toBe(false);
    expect(isRetryable(new Error("bug"))).toBe(false);
  });
});
