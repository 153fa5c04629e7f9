// The sidecar's Evaluation service over real gRPC (an in-process server with the service's
// handlers, the installed checkpoints and data): ListSuites, a one-image Run streamed to its
// result, INVALID_ARGUMENT with an actionable message for every bad input, and a cancelled
// call stopping the run's threads.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOADER_OPTIONS, PROTO_ROOT } from "../../proto/contract.ts";
import { activeRunCount, checkRunRequest, evaluationHandlers } from "../../sidecar/inference/evaluation/service.ts";
import { taskAvailability } from "../../sidecar/inference/evaluation/taskCheckpoints.ts";

// The split size is the suite's own (docs/evaluation.md §1), read rather than restated.
const SPLIT_IMAGES = (
  JSON.parse(fs.readFileSync(fileURLToPath(new URL("../../seeds/suites/metarank-local/suite.json", import.meta.url)), "utf8")) as {
    evaluation: { images: number };
  }
).evaluation.images;

let server: grpc.Server;
let client: grpc.Client & Record<string, any>;

beforeAll(async () => {
  const def = protoLoader.loadSync("metarank/v1/evaluation.proto", { ...LOADER_OPTIONS, includeDirs: [PROTO_ROOT] });
  const Svc = (grpc.loadPackageDefinition(def) as any).metarank.v1.Evaluation;
  server = new grpc.Server();
  // The cpu backend: no wasm files to load in the test's threads, and the same numbers for these nets.
  server.addService(Svc.service, evaluationHandlers({ backend: "cpu" }));
  const port = await new Promise<number>((res, rej) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))),
  );
  client = new Svc(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
});
afterAll(() => {
  client?.close();
  server?.forceShutdown();
});

function unary<T = any>(method: string, req: unknown): Promise<T> {
  return new Promise((res, rej) => client[method](req, (e: grpc.ServiceError | null, r: T) => (e ? rej(e) : res(r))));
}

/** Collects a Run stream: its messages and how it ended. */
function run(req: Record<string, unknown>, onEvent?: (ev: any, call: grpc.ClientReadableStream<any>) => void) {
  return new Promise<{ events: any[]; error: grpc.ServiceError | null }>((resolve) => {
    const call = client.Run(req) as grpc.ClientReadableStream<any>;
    const events: any[] = [];
    call.on("data", (ev) => {
      events.push(ev);
      onEvent?.(ev, call);
    });
    call.on("error", (error: grpc.ServiceError) => resolve({ events, error }));
    call.on("end", () => resolve({ events, error: null }));
  });
}

async function invalid(req: Record<string, unknown>): Promise<string> {
  const { events, error } = await run(req);
  expect(events).toEqual([]);
  expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
  return error!.details;
}

const base = { suiteId: "metarank-local", method: "Saliency", paramsJson: "", limit: 1, tasks: ["scenes_resnet"] };

describe("Evaluation service", () => {
  it("lists the suites with task availability, the split size, the grid and the methods", async () => {
    const r = await unary("ListSuites", {});
    const local = r.suites.find((s: any) => s.id === "metarank-local");
    expect(local).toMatchObject({ splitImages: SPLIT_IMAGES, patchSize: 2, grid: [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1] });
    const tasks = ["fashionmnist", "scenes", "textures"].flatMap((d) => ["resnet", "vgg", "inception"].map((a) => `${d}_${a}`));
    expect(local.tasks.map((t: any) => [t.id, t.available])).toEqual([...tasks, "scenes64_resnet", "scenes64_resnet50"].map((t) => [t, true]));
    // Each task on the checkpoint its suite pins (the first version's on metarank-local-v1).
    expect(local.tasks.find((t: any) => t.id === "scenes_vgg").checkpointId).toBe("vgg-scenes-v2");
    const v1 = r.suites.find((s: any) => s.id === "metarank-local-v1");
    expect(v1.tasks.find((t: any) => t.id === "scenes_vgg")).toMatchObject({ available: true, checkpointId: "vgg-scenes" });
    expect(JSON.parse(local.baselineParams.SmoothGrad)).toEqual({ stdevs: 0.15 });
    // The metarank-seed suite's tasks have no data or checkpoints here, and say so.
    const seed = r.suites.find((s: any) => s.id === "metarank-seed");
    expect(seed.tasks.every((t: any) => !t.available && t.problem)).toBe(true);
    expect(r.methods.map((m: any) => m.name)).toEqual(expect.arrayContaining(["Saliency", "IntegratedGradients", "GradCAM"]));
  });

  it("streams progress then one result with the result files, localisation and the parameters used", async () => {
    const { events, error } = await run({ ...base, limit: 2 });
    expect(error).toBeNull();
    const progress = events.filter((e) => e.event === "progress").map((e) => e.progress);
    const results = events.filter((e) => e.event === "result").map((e) => e.result);
    expect(events.at(-1).event).toBe("result");
    expect(results).toHaveLength(1);
    expect(progress.at(-1)).toMatchObject({ imagesDone: 2, imagesTotal: 2, task: "scenes_resnet", taskNumber: 1, taskCount: 1 });
    expect(progress.some((p) => p.etaSeconds !== undefined && p.etaSeconds !== null)).toBe(true);
    const r = results[0];
    expect(r.morfCsv.split("\n")[0]).toBe("task,0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1");
    expect(r.morfCsv.trim().split("\n")).toHaveLength(2);
    expect(r.lerfCsv.trim().split("\n")[1]).toMatch(/^scenes_resnet(,(0|0\.5|1)){11}$/);
    expect(r.localisation).toHaveLength(1);
    expect(r.localisation[0].task).toBe("scenes_resnet");
    expect(r).toMatchObject({ tasks: ["scenes_resnet"], imagesPerTask: 2, paramsJson: "{}", backend: "cpu" });
    expect(JSON.parse(r.imagesJson).tasks.scenes_resnet.morf).toHaveLength(2);
  });

  it("answers INVALID_ARGUMENT with what to change", async () => {
    expect(await invalid({ ...base, suiteId: "nope" })).toMatch(/unknown suite "nope" \(this sidecar can evaluate: .*metarank-local/);
    expect(await invalid({ ...base, method: "Nope" })).toMatch(/unknown attribution method "Nope" \(known: Saliency/);
    expect(await invalid({ ...base, paramsJson: "{oops" })).toMatch(/params_json is not valid JSON/);
    expect(await invalid({ ...base, paramsJson: "[1]" })).toMatch(/params_json must be a JSON object/);
    expect(await invalid({ ...base, method: "IntegratedGradients", paramsJson: '{"n_steps": "many"}' })).toMatch(
      /IntegratedGradients parameter "n_steps" must be a number/,
    );
    const range = new RegExp(`limit must be a whole number from 1 to ${SPLIT_IMAGES}`);
    expect(await invalid({ ...base, limit: 0 })).toMatch(range);
    expect(await invalid({ ...base, limit: SPLIT_IMAGES + 1 })).toMatch(range);
    expect(await invalid({ ...base, tasks: ["cifar_resnet"] })).toMatch(/suite metarank-local has no task "cifar_resnet"/);
    expect(await invalid({ ...base, suiteId: "metarank-seed", tasks: [] })).toMatch(
      /not installed on this sidecar: .*Install the checkpoint or choose other tasks/,
    );
  });

  it("a task whose checkpoint is missing is refused before any work, with how to train one", () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "no-checkpoints-"));
    try {
      expect(taskAvailability("scenes_vgg", empty)).toMatchObject({
        available: false,
        problem: expect.stringContaining("npm run train -- --dataset scenes --arch vgg"),
      });
      const previous = process.env.CHECKPOINT_DIR;
      process.env.CHECKPOINT_DIR = empty;
      try {
        expect(() => checkRunRequest(base)).toThrow(/scenes_resnet: no usable checkpoint/);
      } finally {
        if (previous === undefined) delete process.env.CHECKPOINT_DIR;
        else process.env.CHECKPOINT_DIR = previous;
      }
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it("uses the suite's baseline parameters when none are given", () => {
    expect(checkRunRequest({ ...base, method: "SmoothGrad" }).run.params).toEqual({ stdevs: 0.15 });
    expect(checkRunRequest({ ...base, method: "SmoothGrad", paramsJson: '{"stdevs": 0.3}' }).run.params).toEqual({ stdevs: 0.3 });
  });

  it("a cancelled call stops the run", async () => {
    const { error } = await run({ ...base, limit: 100, tasks: [] }, (ev, call) => {
      if (ev.event === "progress" && ev.progress.imagesDone >= 1) call.cancel();
    });
    expect(error?.code).toBe(grpc.status.CANCELLED);
    const until = Date.now() + 10_000;
    while (activeRunCount() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(activeRunCount()).toBe(0);
  });
});
