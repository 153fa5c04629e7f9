// A board regeneration spread over two real sidecars through bull on the real Redis
// (docs/evaluation.md "5. Running it"): one job per task × method, both sidecars take shards, and
// the gathered method folders are byte for byte what one machine's run writes (evaluateMethod +
// writeMethodFolder, the code behind `npm run -s evaluate -- --all-methods`) on the same backend.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metarankV1 } from "../../proto/contract.ts";
import { createJobQueue, type JobQueue } from "../../app/.server/queue.server.ts";
import { regenerateBoard, registerShardHandler } from "../../app/.server/regeneration.server.ts";
import { EvaluationPool } from "../../sidecar/inference/evaluation/pool.ts";
import { evaluateMethod, writeMethodFolder } from "../../sidecar/inference/evaluation/run.ts";
import { readSuite } from "../../sidecar/inference/evaluation/suite.ts";
import { TEST_CALL_KEY } from "../support/callKey.ts";
import { startTestSidecar, type TestSidecar } from "../support/sidecar.ts";

const suite = readSuite("metarank-local");
const tasks = ["fashionmnist_resnet", "scenes_vgg"];
const methods = suite.evaluation!.methods.filter((m) => ["Saliency", "InputXGradient"].includes(m.algorithm));
const IMAGES = 2;
let sidecars: TestSidecar<import("@grpc/grpc-js").Client>[] = [];
let queue: JobQueue;
let dir: string;

beforeAll(async () => {
  const Evaluation = metarankV1("metarank/v1/evaluation.proto").Evaluation;
  sidecars = await Promise.all([startTestSidecar(Evaluation, { readyMs: 120_000 }), startTestSidecar(Evaluation, { readyMs: 120_000 })]);
  queue = createJobQueue({
    redisUrl: process.env.REDIS_URL || "redis://127.0.0.1:6379",
    prefix: `regen-test-${process.pid}-${Date.now()}`,
    attempts: 2,
    backoffMs: 500,
  });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "regen-"));
}, 180_000);

afterAll(async () => {
  await queue?.close();
  await Promise.all(sidecars.map((s) => s.stop()));
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("regeneration over two sidecars", () => {
  it("every task × method is one job, both sidecars take jobs, and the folders equal a one-machine run byte for byte", async () => {
    expect(queue.backend).toBe("redis");
    registerShardHandler(
      queue,
      sidecars.map((s) => ({ address: s.address, callKey: TEST_CALL_KEY })),
    );
    const seen: number[] = [];
    const result = await regenerateBoard(
      queue,
      { suite: suite.id, tasks, images: IMAGES, methods, outDir: path.join(dir, "distributed"), user: { id: 0, username: "test" } },
      (p) => seen.push(p.done),
      100,
    );
    expect(result.total).toBe(methods.length * tasks.length);
    expect(seen.at(-1)).toBe(result.total);
    expect(Object.keys(result.bySidecar).sort()).toEqual(sidecars.map((s) => s.address).sort());

    // The same methods on one machine, on the suite's backend.
    const pool = new EvaluationPool({ workers: 1, backend: suite.evaluation!.backend });
    try {
      for (const m of methods) {
        const run = { algorithm: m.algorithm, params: m.params, tasks, images: IMAGES };
        const outcome = await evaluateMethod(suite, run, pool);
        const meta = { contributor: "Meta-Rank baseline", institute: "Meta-Rank platform", algorithm: m.algorithm };
        writeMethodFolder(path.join(dir, "local", m.folder), suite, run, outcome, { backend: suite.evaluation!.backend, meta });
      }
    } finally {
      await pool.close();
    }
    for (const m of methods) {
      const local = path.join(dir, "local", m.folder);
      const files = fs.readdirSync(local).sort();
      expect(fs.readdirSync(path.join(dir, "distributed", m.folder)).sort()).toEqual(files);
      expect(files).toEqual(expect.arrayContaining(["morf.csv", "lerf.csv", "images.json", "localisation.json", "method.json"]));
      for (const f of files)
        expect(fs.readFileSync(path.join(dir, "distributed", m.folder, f), "utf8"), `${m.folder}/${f}`).toBe(fs.readFileSync(path.join(local, f), "utf8"));
    }
  }, 480_000);
});
