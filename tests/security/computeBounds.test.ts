// The sidecar cannot be jammed (docs/security.md "Compute bounds"): a request above the cost bound
// is refused before it takes a worker, a cancelled Explain frees its worker within about a second,
// a full queue answers RESOURCE_EXHAUSTED at once (the demo then says the server is busy, in the
// visitor's language), and a second concurrent evaluation run is refused while one runs.
import fs from "node:fs";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metarankV1 } from "../../proto/contract.ts";
import { presentKey } from "../support/callKey.ts";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { userClient } from "../support/accounts.ts";

let stack: Stack;
let inference: grpc.Client & Record<string, Function>;
let evaluation: grpc.Client & Record<string, Function>;
const png = fs.readFileSync(path.join(ROOT, "tests/fixtures/data/samples/fashion-mnist-0.png"));
const MODEL = "resnet-fashion-mnist";
/** 20,000 evaluations: about a minute of one worker on an idle two-core machine. */
const LONG = { nt_samples: 20, n_steps: 500 };

beforeAll(async () => {
  // One worker and no waiting room: the smallest sidecar, the easiest to jam.
  // A higher cost bound than the default, so the long job below (about a minute of one worker) is allowed.
  stack = await startStack({
    env: { SIDECAR_WORKERS: "1", SIDECAR_QUEUE_MAX: "0", EVALUATION_MAX_RUNS: "1", EVALUATION_WORKERS: "1", SIDECAR_MAX_EVALUATIONS: "20000" },
  });
  const opts = { interceptors: [presentKey()] };
  type Ctor = new (a: string, c: grpc.ChannelCredentials, o: object) => grpc.Client & Record<string, Function>;
  inference = new (metarankV1("metarank/v1/inference.proto").Inference as unknown as Ctor)(stack.sidecarAddress, grpc.credentials.createInsecure(), opts);
  evaluation = new (metarankV1("metarank/v1/evaluation.proto").Evaluation as unknown as Ctor)(stack.sidecarAddress, grpc.credentials.createInsecure(), opts);
});
afterAll(async () => {
  inference?.close();
  evaluation?.close();
  await stack?.stop();
});

function explain(
  params: object,
  opts: { deadlineMs?: number; signal?: AbortSignal } = {},
  algorithm = "IntegratedGradients",
): Promise<{ code: number; details: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const call = inference.Explain(
      { modelId: MODEL, algorithm, imagePng: png, paramsJson: JSON.stringify(params) },
      { deadline: new Date(Date.now() + (opts.deadlineMs ?? 60_000)) },
      (err: grpc.ServiceError | null) => resolve({ code: err ? err.code : 0, details: err?.details ?? "", ms: performance.now() - t0 }),
    );
    opts.signal?.addEventListener("abort", () => call.cancel(), { once: true });
  });
}

describe("inference", () => {
  it("refuses a request above the cost bound at once, naming the parameter", async () => {
    const r = await explain({ n_steps: 100, internal_batch_size: 50 }, {});
    expect(r.code).toBe(0); // 200 evaluations: allowed
    const nt = await new Promise<{ code: number; details: string }>((resolve) =>
      inference.Explain(
        { modelId: MODEL, algorithm: "IG_with_noise_tunnel", imagePng: png, paramsJson: JSON.stringify({ nt_samples: 500, n_steps: 1000 }) },
        (err: grpc.ServiceError | null) => resolve({ code: err ? err.code : 0, details: err?.details ?? "" }),
      ),
    );
    expect(nt.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(nt.details).toMatch(/needs 1000000 model evaluations; this server runs at most 20000 per request\. Please lower nt_samples or n_steps\./);
  });

  it("frees the worker of a cancelled Explain (its thread is replaced; the pool test times the thread's end), and answers a full queue at once", async () => {
    const ctrl = new AbortController();
    const long = explain(LONG, { signal: ctrl.signal }, "IG_with_noise_tunnel");
    await new Promise((r) => setTimeout(r, 400));
    // The only worker is busy and there is no waiting room: refused at once.
    const refused = await explain({ n_steps: 5 });
    expect(refused.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(refused.details).toMatch(/busy/);
    expect(refused.ms).toBeLessThan(500);
    ctrl.abort();
    expect((await long).code).toBe(grpc.status.CANCELLED);
    // Within about a second the worker serves again (its replacement thread is up).
    const t0 = performance.now();
    let next = await explain({ n_steps: 5 });
    while (next.code === grpc.status.RESOURCE_EXHAUSTED && performance.now() - t0 < 20_000) {
      await new Promise((r) => setTimeout(r, 50));
      next = await explain({ n_steps: 5 });
    }
    const freedMs = performance.now() - t0;
    expect(next.code).toBe(0);
    console.log(`cancelled Explain → next Explain answered after ${Math.round(freedMs)} ms`);
    // About 1 s on an idle machine (a new thread, its runtime and the model); the long job alone
    // would have held the worker for about a minute. The bound leaves room for a loaded CI machine.
    expect(freedMs).toBeLessThan(20_000);
  });

  it("stops a job whose caller's deadline passed, so the worker is free again", async () => {
    const r = await explain(LONG, { deadlineMs: 300 }, "IG_with_noise_tunnel");
    expect(r.code).toBe(grpc.status.DEADLINE_EXCEEDED);
    const t0 = performance.now();
    let next = await explain({ n_steps: 5 });
    while (next.code === grpc.status.RESOURCE_EXHAUSTED && performance.now() - t0 < 20_000) {
      await new Promise((r) => setTimeout(r, 50));
      next = await explain({ n_steps: 5 });
    }
    expect(next.code).toBe(0);
    expect(performance.now() - t0).toBeLessThan(20_000);
  });
});

describe("the demo while the compute server is busy", () => {
  it("says the server is busy, try again in a moment, in English and Chinese, at once", async () => {
    const alice = await userClient(stack.baseUrl, "alice");
    const step1 = await alice.html("/UserImgclassification?type=name&q=fashion");
    const datasetId = Number(step1.match(/data-dataset-id="(\d+)"/)![1]);
    const pictures = [...(await alice.html(`/UserImgclassification?dataset=${datasetId}`)).matchAll(/data-picture-id="(\d+)"/g)].map((m) => m[1]);
    // The only worker is busy with a long job and there is no waiting room (SIDECAR_QUEUE_MAX=0).
    const ctrl = new AbortController();
    const long = explain(LONG, { signal: ctrl.signal }, "IG_with_noise_tunnel");
    await new Promise((r) => setTimeout(r, 400));
    try {
      for (const [lng, picture, words] of [
        ["en", pictures[0], ["The compute server is busy", "The compute server is busy, try again in a moment."]],
        ["zh", pictures[1], ["计算服务器正忙", "计算服务器正忙，请稍后再试。"]],
      ] as const) {
        const t0 = performance.now();
        const res = await alice.request(`/UserImgclassification?dataset=${datasetId}&picture=${picture}`, {
          method: "POST",
          headers: { "Accept-Language": lng === "zh" ? "zh-CN,zh;q=0.9" : "en" },
          body: new URLSearchParams({ intent: "run", model: MODEL, algorithm: "IG", picture }),
        });
        const ms = performance.now() - t0;
        const html = await res.text();
        expect(res.status, lng).toBe(503);
        expect(res.headers.get("retry-after")).toBe("10");
        expect(html).toContain('data-busy="1"');
        for (const w of words) expect(html, lng).toContain(w);
        console.log(`demo while busy (${lng}): answered in ${Math.round(ms)} ms`);
        expect(ms).toBeLessThan(3000);
      }
    } finally {
      ctrl.abort();
      await long;
    }
  });
});

describe("evaluation runs", () => {
  it("refuses a second concurrent run with RESOURCE_EXHAUSTED while the first one runs", async () => {
    const first = evaluation.Run({ suiteId: "metarank-local-v1", method: "IntegratedGradients", limit: 20 });
    const firstEvents: unknown[] = [];
    first.on("data", (m: unknown) => firstEvents.push(m));
    first.on("error", () => {});
    const started = Date.now();
    while (firstEvents.length === 0 && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 100));
    expect(firstEvents.length).toBeGreaterThan(0);
    const second = await new Promise<number>((resolve) => {
      const call = evaluation.Run({ suiteId: "metarank-local-v1", method: "Saliency", limit: 1 });
      call.on("data", () => {});
      call.on("error", (e: grpc.ServiceError) => resolve(e.code));
      call.on("end", () => resolve(0));
    });
    expect(second).toBe(grpc.status.RESOURCE_EXHAUSTED);
    first.cancel();
  });
});
