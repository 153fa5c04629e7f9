// A regeneration killed half-way continues where it stopped (docs/evaluation.md "5. Running it"):
// finished method × task shards are kept (sidecar/inference/evaluation/shards.ts) and reused, and
// the resumed run gives exactly the numbers and files of an uninterrupted one. A changed input
// (parameters, images, backend) names another shard, so nothing stale is reused.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EvaluationCancelled } from "../../sidecar/inference/evaluation/engine.ts";
import { EvaluationPool } from "../../sidecar/inference/evaluation/pool.ts";
import { resultCsv } from "../../sidecar/inference/evaluation/resultFiles.ts";
import { evaluateMethod, type MethodRun } from "../../sidecar/inference/evaluation/run.ts";
import { ShardStore, shardFingerprint } from "../../sidecar/inference/evaluation/shards.ts";
import { readSuite } from "../../sidecar/inference/evaluation/suite.ts";

const suite = readSuite("metarank-local");
const tasks = ["fashionmnist_resnet", "scenes_resnet"];
const run: MethodRun = { algorithm: "Saliency", params: {}, tasks, images: 3 };
const BACKEND = "cpu";
let pool: EvaluationPool;
let dir: string;

beforeAll(() => {
  pool = new EvaluationPool({ workers: 1, backend: BACKEND });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "regen-state-"));
});
afterAll(async () => {
  await pool.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("resumable evaluation", () => {
  it("a run cancelled in its second task resumes with the first task reused and ends with the uninterrupted numbers", async () => {
    const whole = await evaluateMethod(suite, run, pool);

    const store = new ShardStore(dir);
    const ctrl = new AbortController();
    const cancelled = evaluateMethod(suite, run, pool, {
      signal: ctrl.signal,
      shards: { store, backend: BACKEND },
      onProgress: (p) => {
        if (p.taskNumber === 2) ctrl.abort();
      },
    });
    await expect(cancelled).rejects.toBeInstanceOf(EvaluationCancelled);
    expect(store.count()).toBe(1);

    const reused: string[] = [];
    const evaluated: string[] = [];
    const resumed = await evaluateMethod(suite, run, pool, {
      shards: { store, backend: BACKEND, onReused: (t) => reused.push(t) },
      onProgress: (p) => {
        if (!evaluated.includes(p.task)) evaluated.push(p.task);
      },
    });
    expect(reused).toEqual(["fashionmnist_resnet"]);
    expect(evaluated).toEqual(["scenes_resnet"]);
    expect(resumed.summaries).toEqual(whole.summaries);
    expect(resumed.perImage).toEqual(whole.perImage);
    for (const protocol of ["morf", "lerf"] as const) {
      expect(resultCsv(protocol, suite.settings.grid, tasks, resumed.summaries)).toBe(resultCsv(protocol, suite.settings.grid, tasks, whole.summaries));
    }
    expect(store.count()).toBe(2);
  }, 240_000);

  it("every input of a shard's numbers is in its name", () => {
    const base = { suite, task: tasks[0], algorithm: "Saliency", params: { abs: true }, images: 3, backend: BACKEND };
    const id = shardFingerprint(base);
    expect(shardFingerprint({ ...base, params: { abs: true } })).toBe(id);
    for (const changed of [
      { ...base, params: { abs: false } },
      { ...base, images: 4 },
      { ...base, backend: "wasm" },
      { ...base, task: tasks[1] },
      { ...base, algorithm: "InputXGradient" },
      { ...base, suite: { ...suite, settings: { ...suite.settings, patchSize: 4 } } },
    ]) {
      expect(shardFingerprint(changed)).not.toBe(id);
    }
  });
});
