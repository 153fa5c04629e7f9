// The piscina evaluation pool: the same per-image results as evaluating in this thread,
// whatever the pool size; progress reaches the total; cancelling stops it and leaves the pool
// usable; a dead thread fails only its run.
import { describe, it, expect, beforeAll } from "vitest";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { getAlgorithm } from "../../sidecar/inference/attribution/index.ts";
import { evaluateIndices, EvaluationCancelled, type Progress } from "../../sidecar/inference/evaluation/engine.ts";
import { EvaluationPool } from "../../sidecar/inference/evaluation/pool.ts";
import { GRID11, keyPatchNet, mixedImages } from "./fixtures.ts";

const loaderModule = new URL("./fixtures.ts", import.meta.url).href;
const settings = { patchSize: 2, filler: [0], grid: GRID11 };
const N = 9;

describe("evaluation pool", () => {
  beforeAll(async () => {
    await initBackend("cpu");
  });

  it("two workers give the in-thread results, sorted by image", async () => {
    const local = await evaluateIndices(
      keyPatchNet(),
      getAlgorithm("InputXGradient"),
      {},
      settings,
      mixedImages(N),
      Array.from({ length: N }, (_, i) => i),
    );
    const pool = new EvaluationPool({ workers: 2, backend: "cpu", loaderModule });
    const progress: Progress[] = [];
    try {
      const viaPool = await pool.run(
        { taskId: "keypatch_mixed", algorithm: "InputXGradient", params: {}, settings, images: N },
        { onProgress: (p) => progress.push(p) },
      );
      expect(viaPool).toEqual(local);
      // The dark-key images really differ from the bright ones (the comparison is not vacuous).
      expect(new Set(viaPool.map((r) => r.lerf.join(""))).size).toBeGreaterThan(1);
      // A subset of indices gives exactly those images' results.
      const some = await pool.run({ taskId: "keypatch_mixed", algorithm: "InputXGradient", params: {}, settings, images: N, indices: [7, 2] });
      expect(some).toEqual([local[2], local[7]]);
    } finally {
      await pool.close();
    }
    expect(progress[0]).toEqual({ done: 0, total: N, etaSeconds: null });
    expect(progress.at(-1)).toMatchObject({ done: N, total: N, etaSeconds: 0 });
  });

  it("reports a worker's error instead of hanging", async () => {
    const pool = new EvaluationPool({ workers: 1, backend: "cpu", loaderModule });
    try {
      await expect(pool.run({ taskId: "nope", algorithm: "Saliency", params: {}, settings, images: 2 })).rejects.toThrow(/fixture has no task nope/);
    } finally {
      await pool.close();
    }
  });

  it("cancels: rejects with EvaluationCancelled within a second, and the pool serves the next run", async () => {
    const pool = new EvaluationPool({ workers: 2, backend: "cpu", loaderModule });
    try {
      const ctrl = new AbortController();
      let abortedAt = 0;
      const run = pool.run(
        { taskId: "keypatch_mixed", algorithm: "IntegratedGradients", params: {}, settings, images: 200 },
        {
          signal: ctrl.signal,
          onProgress: (p) => {
            if (p.done === 1) {
              abortedAt = performance.now();
              ctrl.abort();
            }
          },
        },
      );
      await expect(run).rejects.toBeInstanceOf(EvaluationCancelled);
      expect(performance.now() - abortedAt).toBeLessThan(1000);
      // The threads stopped mid-image were replaced; the pool is still usable.
      const after = await pool.run({ taskId: "keypatch_mixed", algorithm: "Saliency", params: {}, settings, images: 2 });
      expect(after.map((r) => r.index)).toEqual([0, 1]);
      await pool.close();
      await expect(pool.run({ taskId: "keypatch_mixed", algorithm: "Saliency", params: {}, settings, images: 1 })).rejects.toThrow(/closed/);
    } finally {
      await pool.close();
    }
  });

  it("a thread that dies fails only the run it was working for; a replacement serves the next run", async () => {
    const pool = new EvaluationPool({ workers: 1, backend: "cpu", loaderModule });
    try {
      let killed = false;
      const run = pool.run(
        { taskId: "keypatch_mixed", algorithm: "IntegratedGradients", params: {}, settings, images: 200 },
        {
          onProgress: (p) => {
            if (p.done === 1 && !killed) {
              killed = true;
              void pool.killWorker(0);
            }
          },
        },
      );
      await expect(run).rejects.toThrow(/evaluation thread stopped while evaluating image/);
      const after = await pool.run({ taskId: "keypatch_mixed", algorithm: "InputXGradient", params: {}, settings, images: 3 });
      expect(after).toHaveLength(3);
      expect(pool.restarts).toBeGreaterThanOrEqual(1);
    } finally {
      await pool.close();
    }
  });
});
