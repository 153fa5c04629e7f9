// The worker pool: requests spread over the threads, a bad request answers with an
// input error and leaves the worker serving, and a crashed worker is replaced.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InferencePool, PoolRequestError } from "../../sidecar/inference/pool.ts";

const SAMPLES = path.resolve(__dirname, "../fixtures/data/samples");
const png = fs.readFileSync(path.join(SAMPLES, "fashion-mnist-0.png"));
const MODEL = "resnet-fashion-mnist";

describe("InferencePool", () => {
  const pool = new InferencePool({ workers: 2, backend: "wasm" });
  afterAll(() => pool.close());

  it("answers predictions from both workers", async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => pool.predict({ modelId: MODEL, image: { png } })));
    for (const r of results) expect(r.predictedLabel).toBe("Ankle boot");
    expect(pool.stats()).toMatchObject({ workers: 2, busy: 0, queued: 0, backend: "wasm" });
  });

  it("rejects bad input as an input error and keeps serving", async () => {
    const err = await pool.explain({ modelId: MODEL, image: { png }, algorithm: "Saliency", params: { abs: "maybe" } }).catch((e) => e);
    expect(err).toBeInstanceOf(PoolRequestError);
    expect(err.kind).toBe("input");
    const unknown = await pool.predict({ modelId: "no-such-model", image: { png } }).catch((e) => e);
    expect(unknown.kind).toBe("input");
    expect(unknown.message).toMatch(/unknown model "no-such-model"; available models: .*resnet-fashion-mnist/);
    const r = await pool.explain({ modelId: MODEL, image: { png }, algorithm: "Saliency", params: {} });
    expect(r.attribution.shape).toEqual([1, 28, 28, 1]);
    expect(r.heatmapPng!.length).toBeGreaterThan(100);
  });

  it("replaces a crashed worker and goes on answering", async () => {
    await pool.killWorker(0);
    const results = await Promise.all([1, 2, 3].map(() => pool.predict({ modelId: MODEL, image: { png } })));
    expect(results.every((r) => r.predictedClass === 9)).toBe(true);
    expect(pool.stats().restarts).toBeGreaterThanOrEqual(1);
  });
});
