// A board regeneration's shard that finds no compute server waits for one without spending its
// attempts (app/.server/regeneration.server.ts, through app/.server/queue.server.ts
// untilSidecarServes; docs/architecture.md "Supervision"): none online yet, the chosen sidecar not
// answering (UNAVAILABLE: killed, restarting) or at its limit of evaluation runs
// (RESOURCE_EXHAUSTED). Against a scripted Evaluation sidecar and the in-process queue with one
// attempt per job: a shard used to fail on the first of these and with it the whole regeneration.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobQueue } from "../../app/.server/queue.server.ts";

process.env.LOG_LEVEL = "silent";
const { createJobQueue } = await import("../../app/.server/queue.server.ts");
const { regenerateBoard, registerShardHandler } = await import("../../app/.server/regeneration.server.ts");

type Script = (call: grpc.ServerWritableStream<any, any>) => void;
let script: Script = () => {};
let server: grpc.Server;
let address = "";
let queue: JobQueue | undefined;
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "regen-wait-"));

const RESULT = {
  result: {
    morfCsv: "task,0,0.5,1\nt1,0.9,0.5,0.1\n",
    lerfCsv: "task,0,0.5,1\nt1,0.9,0.8,0.1\n",
    localisation: [],
    imagesJson: JSON.stringify({
      suite: "s",
      algorithm: "Saliency",
      params: {},
      backend: "cpu",
      images: 1,
      settings: {},
      checkpoints: { t1: "c" },
      tasks: { t1: {} },
    }),
    paramsJson: "{}",
    tasks: ["t1"],
    imagesPerTask: 1,
    seconds: 0.1,
    backend: "cpu",
  },
};

beforeAll(async () => {
  const def = protoLoader.loadSync("metarank/v1/evaluation.proto", {
    keepCase: false,
    longs: Number,
    enums: String,
    defaults: true,
    oneofs: true,
    includeDirs: [path.resolve("proto")],
  });
  const Svc = (grpc.loadPackageDefinition(def) as any).metarank.v1.Evaluation;
  server = new grpc.Server();
  server.addService(Svc.service, { Run: (call: grpc.ServerWritableStream<any, any>) => script(call) });
  const port = await new Promise<number>((res, rej) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))),
  );
  address = `127.0.0.1:${port}`;
});

afterAll(async () => {
  await queue?.close();
  server?.forceShutdown();
  fs.rmSync(outDir, { recursive: true, force: true });
});

const run = (q: JobQueue) =>
  regenerateBoard(
    q,
    {
      suite: "s",
      tasks: ["t1"],
      images: 1,
      methods: [{ folder: "saliency", algorithm: "Saliency", params: {} }],
      outDir,
      user: { id: 0, username: "test" },
    },
    undefined,
    20,
  );

describe("a regeneration shard waiting for a compute server", () => {
  it("waits, on its one attempt, while the sidecar does not answer and while it is busy", async () => {
    let calls = 0;
    script = (call) => {
      calls++;
      if (calls === 1) return void call.emit("error", { code: grpc.status.UNAVAILABLE, details: "connect ECONNREFUSED 127.0.0.1:50051" });
      if (calls === 2) return void call.emit("error", { code: grpc.status.RESOURCE_EXHAUSTED, details: "at most 1 evaluation run at once" });
      call.write(RESULT);
      call.end();
    };
    queue = createJobQueue({ attempts: 1, backoffMs: 10 });
    registerShardHandler(queue, [{ address, callKey: null }], { firstPauseMs: 20 });
    const progress = await run(queue);
    expect(progress).toMatchObject({ done: 1, total: 1, bySidecar: { [address]: 1 } });
    expect(calls).toBe(3);
    const [job] = await queue.listJobs("regeneration-shard");
    expect(job).toMatchObject({ state: "completed", attemptsMade: 1 });
    await queue.close();
  });

  it("asks the registry again while none is online, and runs on the sidecar that comes online", async () => {
    let asks = 0;
    script = (call) => {
      call.write(RESULT);
      call.end();
    };
    queue = createJobQueue({ attempts: 1, backoffMs: 10 });
    registerShardHandler(queue, async () => (++asks <= 2 ? [] : [{ address, callKey: null }]), { firstPauseMs: 20 });
    const progress = await run(queue);
    expect(progress.bySidecar).toEqual({ [address]: 1 });
    expect(asks).toBe(3);
    const [job] = await queue.listJobs("regeneration-shard");
    expect(job).toMatchObject({ state: "completed", attemptsMade: 1 });
  });
});
