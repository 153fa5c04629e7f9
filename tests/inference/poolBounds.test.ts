// The pool's compute bounds (docs/security.md "Compute bounds"): a cancelled job frees its worker
// at once, a job past its time limit is stopped, and a full queue answers at once instead of
// waiting.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InferencePool, PoolRequestError } from "../../sidecar/inference/pool.ts";

const png = fs.readFileSync(path.resolve(__dirname, "../fixtures/data/samples/fashion-mnist-0.png"));
const MODEL = "resnet-fashion-mnist";
// 20,000 evaluations (the pool itself has no cost bound; the service has): about a minute of one
// worker on an idle two-core machine, so a worker still running it could not answer in time.
const LONG = { modelId: MODEL, image: { png }, algorithm: "IG_with_noise_tunnel", params: { nt_samples: 20, n_steps: 500 } };

describe("InferencePool bounds (one worker, queue of one)", () => {
  const pool = new InferencePool({ workers: 1, backend: "wasm", maxQueue: 1 });
  afterAll(() => pool.close());

  it("a cancelled long job frees its worker: its thread ends within a second, and the next request is served", async () => {
    await pool.warm([MODEL]);
    const ctrl = new AbortController();
    const long = pool.explain(LONG, { signal: ctrl.signal }).catch((e) => e);
    await new Promise((r) => setTimeout(r, 300));
    expect(pool.stats().busy).toBe(1);
    const [runner] = pool.threadIds();
    const t0 = performance.now();
    ctrl.abort();
    const err = await long;
    expect(err).toBeInstanceOf(PoolRequestError);
    expect(err.kind).toBe("cancelled");
    // Cancellation reaches the worker, not left to finish: a job on the native runtime ends itself
    // after its current batch (sidecar/engine/nativeGuard.ts) and the thread serves on; a job
    // inside a tfjs loop has its thread terminated and replaced.
    const ended = () => pool.stats().busy === 0 || !pool.threadIds().includes(runner);
    while (!ended() && performance.now() - t0 < 1000) await new Promise((r) => setTimeout(r, 10));
    const stoppedMs = performance.now() - t0;
    expect(ended()).toBe(true);
    const r = await pool.predict({ modelId: MODEL, image: { png } });
    const freedMs = performance.now() - t0;
    expect(r.predictedLabel).toBe("Ankle boot");
    // A replacement thread starts its runtime and loads the model again (about 0.8 s on an idle
    // machine); the long job alone would have held the worker for about a minute.
    console.log(`cancel → job ended in ${Math.round(stoppedMs)} ms; next request answered in ${Math.round(freedMs)} ms`);
    expect(freedMs).toBeLessThan(20_000);
  });

  it("stops a job that runs past its time limit", async () => {
    const t0 = performance.now();
    const err = await pool.explain(LONG, { timeLimitMs: 400 }).catch((e) => e);
    expect(err.kind).toBe("timeout");
    expect(err.message).toMatch(/time limit/);
    expect(performance.now() - t0).toBeLessThan(1500);
  });

  it("answers at once when the queue is full, and serves the queued request when the worker frees", async () => {
    // The thread the time limit replaced is up again (a starting thread counts as room in the queue).
    await pool.predict({ modelId: MODEL, image: { png } });
    const ctrl = new AbortController();
    const running = pool.explain(LONG, { signal: ctrl.signal }).catch((e) => e);
    await new Promise((r) => setTimeout(r, 100));
    const queued = pool.predict({ modelId: MODEL, image: { png } }).catch((e) => e);
    expect(pool.stats().queued).toBe(1);
    const t0 = performance.now();
    const refused = await pool.predict({ modelId: MODEL, image: { png } }).catch((e) => e);
    const refusedMs = performance.now() - t0;
    expect(refused).toBeInstanceOf(PoolRequestError);
    expect(refused.kind).toBe("busy");
    console.log(`full queue answered in ${refusedMs.toFixed(1)} ms`);
    expect(refusedMs).toBeLessThan(100);
    ctrl.abort();
    expect((await running).kind).toBe("cancelled");
    expect((await queued).predictedLabel).toBe("Ankle boot");
  });
});

describe("InferencePool bounds with the default settings (two workers, SIDECAR_QUEUE_MAX unset)", () => {
  it("of 16 parallel explanations, each with a caller's signal as gRPC calls have, 2 run, 8 wait and 6 are refused at once", async () => {
    const saved = process.env.SIDECAR_QUEUE_MAX;
    delete process.env.SIDECAR_QUEUE_MAX;
    const pool = new InferencePool({ workers: 2, backend: "wasm" });
    if (saved !== undefined) process.env.SIDECAR_QUEUE_MAX = saved;
    try {
      expect(pool.maxQueue).toBe(8);
      const ctrls = Array.from({ length: 16 }, () => new AbortController());
      const t0 = performance.now();
      const settled = ctrls.map((c) =>
        pool.explain(LONG, { signal: c.signal, timeLimitMs: 60_000 }).then(
          () => ({ refusedMs: null as number | null, kind: "ok" }),
          (e: PoolRequestError) => ({ refusedMs: performance.now() - t0, kind: e.kind }),
        ),
      );
      // Refusals come before any worker is involved; give them a moment to settle.
      await new Promise((r) => setTimeout(r, 50));
      expect(pool.stats().queued).toBe(8);
      ctrls.forEach((c) => c.abort());
      const results = await Promise.all(settled);
      const refused = results.filter((r) => r.kind === "busy");
      console.log(
        `16 parallel explanations on 2 workers: ${refused.length} refused at once (slowest in ${Math.max(...refused.map((r) => r.refusedMs!)).toFixed(1)} ms)`,
      );
      expect(refused).toHaveLength(6);
      // At once: before any worker is involved, not after the 60 s limit (a loaded 2-core machine took 137 ms).
      expect(refused.every((r) => r.refusedMs! < 500)).toBe(true);
      expect(results.filter((r) => r.kind === "cancelled")).toHaveLength(10);
    } finally {
      await pool.close();
    }
  });
});
