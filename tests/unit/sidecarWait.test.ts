// The one way queued jobs wait for a compute server (app/.server/queue.server.ts
// untilSidecarServes): none online, the chosen one down (UNAVAILABLE) or every one busy
// (RESOURCE_EXHAUSTED) makes the job pause and ask again, doubling the pause, inside the same
// attempt; any other failure, a cancel or the end of the allowed wait ends it at once.
import * as grpc from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { RetryableJobError, sidecarWaitReason, untilSidecarServes } from "../../app/.server/queue.server.ts";
import { SidecarCallError, SidecarUnavailableError } from "../../app/.server/sidecar.server.ts";

process.env.LOG_LEVEL = "silent";
const down = () => new SidecarCallError("did not answer", grpc.status.UNAVAILABLE, "connect ECONNREFUSED 127.0.0.1:50051");
const busy = () => new SidecarCallError("busy", grpc.status.RESOURCE_EXHAUSTED, "busy");

describe("waiting for a compute server", () => {
  it("names what a failure means: offline (none online, or not answering), busy, or something else", () => {
    expect(sidecarWaitReason(new SidecarUnavailableError())).toBe("offline");
    expect(sidecarWaitReason(down())).toBe("offline");
    expect(sidecarWaitReason(busy())).toBe("busy");
    expect(sidecarWaitReason(new SidecarCallError("x", grpc.status.INTERNAL, "x"))).toBeNull();
    expect(sidecarWaitReason(new SidecarCallError("x", grpc.status.DEADLINE_EXCEEDED, "x"))).toBeNull();
    expect(sidecarWaitReason(new RetryableJobError("x"))).toBeNull();
    expect(sidecarWaitReason(new Error("x"))).toBeNull();
  });

  it("asks again after each failure for want of a server, doubling the pause, and says so before each pause", async () => {
    const failures = [new SidecarUnavailableError(), down(), busy()];
    const waits: [string, number][] = [];
    let resumed = 0;
    const t0 = Date.now();
    const r = await untilSidecarServes(
      async () => {
        const f = failures.shift();
        if (f) throw f;
        return "done";
      },
      { firstPauseMs: 20, onWait: (reason, ms) => void waits.push([reason, ms]), onResume: () => void resumed++ },
    );
    expect(r).toBe("done");
    expect(waits).toEqual([
      ["offline", 20],
      ["offline", 40],
      ["busy", 80],
    ]);
    expect(resumed).toBe(3);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it("other failures end it at once, and so do the end of the allowed wait and a cancel", async () => {
    const internal = new SidecarCallError("x", grpc.status.INTERNAL, "x");
    let calls = 0;
    await expect(untilSidecarServes(async () => (calls++, Promise.reject(internal)), { firstPauseMs: 10 })).rejects.toBe(internal);
    expect(calls).toBe(1);
    calls = 0;
    await expect(untilSidecarServes(async () => (calls++, Promise.reject(down())), { firstPauseMs: 10, maxWaitMs: 50 })).rejects.toBeInstanceOf(
      SidecarCallError,
    );
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(calls).toBeLessThanOrEqual(4);
    const ctrl = new AbortController();
    const t0 = Date.now();
    const waiting = untilSidecarServes(async () => Promise.reject(down()), { firstPauseMs: 10_000, signal: ctrl.signal });
    setTimeout(() => ctrl.abort(), 50);
    await expect(waiting).rejects.toBeInstanceOf(SidecarCallError);
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});
