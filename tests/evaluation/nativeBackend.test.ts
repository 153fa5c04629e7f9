// The "onnxruntime" evaluation backend (evaluation/backend.ts): a task's zoo net is served
// natively, the pool's images come back exactly as the tfjs evaluation in this thread gives
// them, and cancelling a run while onnxruntime works for it neither aborts the process (a thread
// terminated mid-run would, engine/nativeGuard.ts) nor leaves the pool unusable.
import { describe, it, expect, beforeAll } from "vitest";
import { getAlgorithm } from "../../sidecar/inference/attribution/index.ts";
import { ONNXRUNTIME, initEvaluationBackend, serveTaskNet } from "../../sidecar/inference/evaluation/backend.ts";
import { evaluateIndices, EvaluationCancelled } from "../../sidecar/inference/evaluation/engine.ts";
import { EvaluationPool } from "../../sidecar/inference/evaluation/pool.ts";
import { pinnedCheckpoint, readSuite } from "../../sidecar/inference/evaluation/suite.ts";
import { loadTask } from "../../sidecar/inference/evaluation/tasks.ts";

const suite = readSuite("metarank-local");
const TASK = "fashionmnist_resnet";
const checkpoint = pinnedCheckpoint(suite, TASK);
const settings = suite.settings;
const images = 4;

// Each test loads the task in a fresh thread (export, sessions, gradient graph): seconds, more on a busy machine.
describe("onnxruntime evaluation backend", { timeout: 180_000 }, () => {
  beforeAll(async () => {
    await initEvaluationBackend(ONNXRUNTIME);
  });

  it("serves the task's net natively, with gradients, and the pool gives the tfjs results", async () => {
    const { net: tfjsNet, split } = await loadTask(TASK, images, checkpoint);
    const onTfjs = await evaluateIndices(tfjsNet, getAlgorithm("Saliency"), {}, settings, split, [0, 1, 2, 3]);
    const { net: loaded } = await loadTask(TASK, images, checkpoint);
    const native = await serveTaskNet(loaded, ONNXRUNTIME, 1);
    expect(native.native).toBeDefined();
    expect(native.nativeGradients).toBe(true);
    expect(await evaluateIndices(native, getAlgorithm("Saliency"), {}, settings, split, [0, 1, 2, 3])).toEqual(onTfjs);
    // Not vacuous: the removal curves of these images are not all the same.
    expect(new Set(onTfjs.map((r) => r.morf.join("") + r.lerf.join(""))).size).toBeGreaterThan(1);

    const pool = new EvaluationPool({ workers: 1, backend: ONNXRUNTIME });
    try {
      expect(await pool.run({ taskId: TASK, checkpoint, algorithm: "Saliency", params: {}, settings, images })).toEqual(onTfjs);
    } finally {
      await pool.close();
    }
  });

  it("cancels mid-image without taking the process down, and the pool serves the next run", async () => {
    const pool = new EvaluationPool({ workers: 1, backend: ONNXRUNTIME });
    try {
      // Warm the thread (net exported, sessions built) so the cancel lands inside onnxruntime runs.
      await pool.run({ taskId: TASK, checkpoint, algorithm: "Saliency", params: {}, settings, images, indices: [0] });
      const ctrl = new AbortController();
      // 1,000 path points one at a time for each of three images: thousands of native runs, stopped after 300 ms.
      const run = pool.run(
        { taskId: TASK, checkpoint, algorithm: "IntegratedGradients", params: { n_steps: 1000, internal_batch_size: 1 }, settings, images, indices: [1, 2, 3] },
        { signal: ctrl.signal },
      );
      setTimeout(() => ctrl.abort(), 300);
      const abortedAt = performance.now() + 300;
      await expect(run).rejects.toBeInstanceOf(EvaluationCancelled);
      expect(performance.now() - abortedAt).toBeLessThan(1500);
      const after = await pool.run({ taskId: TASK, checkpoint, algorithm: "Saliency", params: {}, settings, images, indices: [2, 3] });
      expect(after.map((r) => r.index)).toEqual([2, 3]);
    } finally {
      await pool.close();
    }
  });
});
