// The worker_threads pool: the same per-image results as evaluating in this thread,
// whatever the pool size; progress reaches the total; cancelling stops it.
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

  it("cancels: rejects with EvaluationCancelled and closes the pool", async () => {
    const pool = new EvaluationPool({ workers: 2, backend: "cpu", loaderModule });
    const ctrl = new AbortController();
    const run = pool.run(
      { taskId: "keypatch_mixed", algorithm: "IntegratedGradients", params: {}, settings, images: 200 },
      {
        signal: ctrl.signal,
        onProgress: (p) => {
          if (p.done === 1) ctrl.abort();
        },
      },
    );
    await expect(run).rejects.toBeInstanceOf(EvaluationCancelled);
    await expect(pool.run({ taskId: "keypatch_mixed", algorithm: "Saliency", params: {}, settings, images: 1 })).rejects.toThrow(/closed/);
  });
});
