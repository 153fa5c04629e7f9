// TaskOptions and Train (sidecar/tree/trainHandlers.ts) over real gRPC, each task in a real worker
// thread: a tiny ProtoTree task streams its stages, scalars, images and done event and writes the
// caller's tree (visible to them and admins only); the same task data-parallel on two threads
// (ddp_num 2) completes and takes two of the sidecar's training threads; refused requests get
// their status; a cancelled task writes nothing. Served by an in-test server holding only these two methods, so the test
// needs nothing of the rest of the Tree service.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as grpc from "@grpc/grpc-js";
import { metarankV1 } from "../../proto/contract.ts";
import type { TreeClient } from "../../proto/generated/metarank/v1/Tree.ts";
import type { TrainEvent__Output } from "../../proto/generated/metarank/v1/TrainEvent.ts";
import type { TrainRequest } from "../../proto/generated/metarank/v1/TrainRequest.ts";
import { admits, busyTrainingThreads, trainHandlers, runningTrainings } from "../../sidecar/tree/trainHandlers.ts";
import { openTree, TreeNotFoundError } from "../../sidecar/tree/checkpoint.ts";
import { disposeTree } from "../../sidecar/tree/protoTree.ts";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";

const treeDir = fs.mkdtempSync(path.join(os.tmpdir(), "d1-trees-"));
let server: grpc.Server;
let client: TreeClient;

beforeAll(async () => {
  process.env.TREE_DIR = treeDir;
  process.env.TENSOR_BACKEND = "wasm";
  // This host's data-parallel limit, fixed so the test does not depend on the machine's cores.
  process.env.TREE_MAX_DDP = "2";
  await initBackend("wasm");
  const { Tree } = metarankV1("metarank/v1/tree.proto");
  server = new grpc.Server();
  const unimplemented = (_call: unknown, cb: (e: grpc.ServiceError) => void) => cb({ code: grpc.status.UNIMPLEMENTED } as grpc.ServiceError);
  const others = Object.fromEntries(Object.keys(Tree.service).map((k) => [k, unimplemented]));
  server.addService(Tree.service, { ...others, ...trainHandlers() } as grpc.UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  client = new Tree(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as unknown as TreeClient;
});

afterAll(async () => {
  client?.close();
  await new Promise<void>((r) => server.tryShutdown(() => r()));
  fs.rmSync(treeDir, { recursive: true, force: true });
});

const tiny: TrainRequest = {
  taskId: "t1",
  caller: { username: "alice", admin: false },
  category: "ProtPTree",
  dataset: "scenes",
  depth: 2,
  iterations: 6,
  protoDim: 8,
  args: { train_size: "64", test_size: "32", batch_size: "16", test_every: "3" },
  ddpNum: 1,
  modelName: "tiny-1",
  seed: 3,
};

function train(
  req: TrainRequest,
  onEvent?: (e: TrainEvent__Output, call: grpc.ClientReadableStream<TrainEvent__Output>) => void,
): Promise<{ events: TrainEvent__Output[]; error: grpc.ServiceError | null }> {
  return new Promise((resolve) => {
    const events: TrainEvent__Output[] = [];
    const call = client.Train(req);
    let settled = false;
    call.on("data", (e: TrainEvent__Output) => {
      events.push(e);
      onEvent?.(e, call);
    });
    call.on("error", (error: grpc.ServiceError) => {
      if (!settled) resolve({ events, error });
      settled = true;
    });
    call.on("end", () => {
      if (!settled) resolve({ events, error: null });
      settled = true;
    });
  });
}

describe("TaskOptions", () => {
  it("lists the original site's choices, ProtoTree's installed datasets and arguments with descriptions and defaults", async () => {
    const reply = await new Promise<Record<string, unknown>>((resolve, reject) => client.TaskOptions({}, (e, r) => (e ? reject(e) : resolve(r as never))));
    expect(reply.depths).toEqual([8, 9, 10]);
    expect(reply.iterations).toEqual([100, 150, 200, 250, 300]);
    expect(reply.protoDims).toEqual([128, 256, 512, 1024]);
    expect(reply.maxDdp).toBe(2);
    const algos = reply.algorithms as Array<{
      id: string;
      args: Array<{ name: string; description: string; value: string }>;
      datasets: Array<{ id: string; platform: boolean }>;
    }>;
    const proto = algos.find((a) => a.id === "ProtPTree")!;
    expect(proto.datasets.map((d) => d.id)).toContain("scenes");
    expect(proto.datasets.find((d) => d.id === "scenes")!.platform).toBe(true);
    for (const name of ["train_size", "test_size", "batch_size", "backbone", "freeze_backbone", "pruning_threshold"]) {
      const a = proto.args.find((x) => x.name === name)!;
      expect(a.description.length).toBeGreaterThan(10);
      expect(a.value).not.toBe("");
    }
    expect(algos.map((a) => a.id)).toEqual(["ProtPTree", "SeBoW"]);
    expect(algos.map((a) => (a as unknown as { isSupportDdp: boolean }).isSupportDdp)).toEqual([true, false]);
  });
});

describe("Train", () => {
  it("streams a tiny ProtoTree task in its stages and writes the caller's tree", async () => {
    const { events, error } = await train(tiny);
    expect(error).toBeNull();
    const stages = events.filter((e) => e.stage).map((e) => `${e.stage!.name}:${e.stage!.state}`);
    expect(stages).toEqual(["data", "training", "pruning", "projection", "visualisation"].flatMap((s) => [`${s}:running`, `${s}:done`]));
    const done = events.filter((e) => e.stage?.state === "done");
    for (const e of done) expect(Date.parse(e.stage!.finishedAt)).toBeGreaterThanOrEqual(Date.parse(e.stage!.startedAt));
    const scalars = events.filter((e) => e.scalar).map((e) => e.scalar!);
    expect(scalars.map((s) => s.iteration)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(scalars.filter((s) => !Number.isNaN(s.testAccuracy)).map((s) => s.iteration)).toEqual([3, 6]);
    for (const s of scalars) expect(Number.isFinite(s.loss)).toBe(true);
    const images = events.filter((e) => e.image);
    expect(images.some((e) => e.image!.name.startsWith("prototype-"))).toBe(true);
    for (const e of images) expect([...e.image!.png.subarray(1, 4)].map((b) => String.fromCharCode(b)).join("")).toBe("PNG");
    const progress = events.map((e) => e.progress);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]);
    const last = events.at(-1)!;
    expect(last.done?.treeId).toBe("user:alice:tiny-1");
    expect(last.progress).toBe(1);
    expect(last.done!.leaves).toBe(4);
    expect(last.done!.testAccuracy).toBeGreaterThanOrEqual(0);
    expect(last.done!.cnnAccuracy).toBeGreaterThan(0.3);

    const tree = openTree("user:alice:tiny-1", { username: "alice" });
    expect(tree.manifest.dataset).toBe("scenes");
    expect(tree.manifest.testAccuracy).toBeCloseTo(last.done!.testAccuracy, 4);
    expect(tree.projections.filter(Boolean).length).toBeGreaterThan(0);
    disposeTree(tree);
    disposeTree(openTree("user:alice:tiny-1", { username: "root", admin: true }));
    expect(() => openTree("user:alice:tiny-1", { username: "bob" })).toThrow(TreeNotFoundError);

    // The name is now taken: a second task of that name fails without touching the first tree.
    const again = await train({ ...tiny, taskId: "t2", iterations: 1 });
    expect(again.error?.code).toBe(grpc.status.ALREADY_EXISTS);
  }, 300_000);

  it("trains data-parallel on two threads (ddp_num 2), taking two of the sidecar's training threads", async () => {
    const slots = process.env.TREE_TRAIN_SLOTS;
    process.env.TREE_TRAIN_SLOTS = "2";
    let busyDuring = -1;
    let second: Promise<{ error: grpc.ServiceError | null }> | null = null;
    try {
      const { events, error } = await train({ ...tiny, taskId: "t-ddp", modelName: "tiny-ddp", ddpNum: 2 }, (e) => {
        if (e.scalar?.iteration === 1 && !second) {
          busyDuring = busyTrainingThreads();
          // Both slots are taken by this task: a one-thread task must wait.
          second = train({ ...tiny, taskId: "t-wait", modelName: "waits" });
        }
      });
      expect(error).toBeNull();
      expect(busyDuring).toBe(2);
      const waited = await second!;
      expect(waited.error?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
      expect(waited.error?.details).toMatch(/training on 2 of its 2 training thread/);
      const logs = events.filter((e) => e.log).map((e) => e.log!);
      expect(logs.some((l) => /training on 2 worker threads \(data parallel\)/.test(l))).toBe(true);
      expect(logs.some((l) => /^iteration 3\/6 \(2 workers\)/.test(l))).toBe(true);
      expect(logs.some((l) => /^training: 6 steps on 2 worker threads .* steps\/s$/.test(l))).toBe(true);
      const scalars = events.filter((e) => e.scalar).map((e) => e.scalar!);
      expect(scalars.map((x) => x.iteration)).toEqual([1, 2, 3, 4, 5, 6]);
      for (const x of scalars) expect(Number.isFinite(x.loss)).toBe(true);
      const last = events.at(-1)!;
      expect(last.done?.treeId).toBe("user:alice:tiny-ddp");
      expect(last.done!.leaves).toBe(4);
      const tree = openTree("user:alice:tiny-ddp", { username: "alice" });
      expect(tree.manifest.iterations).toBe(6);
      disposeTree(tree);
      expect(busyTrainingThreads()).toBe(0);
      expect(fs.existsSync(path.join(treeDir, "users", "alice", "waits"))).toBe(false);
    } finally {
      if (slots === undefined) delete process.env.TREE_TRAIN_SLOTS;
      else process.env.TREE_TRAIN_SLOTS = slots;
    }
  }, 300_000);

  it("counts threads, not tasks: a task starts when its threads fit in the free slots, or on an idle sidecar", () => {
    const slots = process.env.TREE_TRAIN_SLOTS;
    try {
      process.env.TREE_TRAIN_SLOTS = "1";
      expect(admits(2, 0)).toBe(true);
      expect(admits(1, 1)).toBe(false);
      process.env.TREE_TRAIN_SLOTS = "3";
      expect(admits(2, 1)).toBe(true);
      expect(admits(2, 2)).toBe(false);
      expect(admits(1, 2)).toBe(true);
    } finally {
      if (slots === undefined) delete process.env.TREE_TRAIN_SLOTS;
      else process.env.TREE_TRAIN_SLOTS = slots;
    }
  });

  it("refuses what it cannot serve with the status that says why", async () => {
    const cases: Array<[Partial<TrainRequest>, grpc.status, RegExp]> = [
      [{ ddpNum: 3 }, grpc.status.FAILED_PRECONDITION, /ddp_num 3 exceeds what this sidecar serves \(max_ddp 2/],
      [{ category: "SeBoW", ddpNum: 2 }, grpc.status.INVALID_ARGUMENT, /SeBoW trains on one thread/],
      [{ args: { epochs: "3" } }, grpc.status.INVALID_ARGUMENT, /unknown ProtPTree argument "epochs"/],
      [{ args: { batch_size: "0" } }, grpc.status.INVALID_ARGUMENT, /batch_size must be an integer from 4/],
      [{ args: { freeze_backbone: "maybe" } }, grpc.status.INVALID_ARGUMENT, /freeze_backbone must be one of true, false/],
      [{ dataset: "cub" }, grpc.status.FAILED_PRECONDITION, /not installed/],
      [{ modelName: "../x" }, grpc.status.INVALID_ARGUMENT, /model_name/],
      [{ caller: null }, grpc.status.INVALID_ARGUMENT, /caller/],
      [{ category: "Forest" }, grpc.status.INVALID_ARGUMENT, /category/],
      [{ depth: 11 }, grpc.status.INVALID_ARGUMENT, /depth must be an integer from 1 to 10/],
    ];
    for (const [patch, code, message] of cases) {
      const { error } = await train({ ...tiny, modelName: "refused", ...patch });
      expect(error?.code, JSON.stringify(patch)).toBe(code);
      expect(error?.details).toMatch(message);
    }
    expect(fs.existsSync(path.join(treeDir, "users", "alice", "refused"))).toBe(false);
  }, 300_000);

  it("a cancelled task stops and writes nothing", async () => {
    const { error } = await train({ ...tiny, modelName: "cancelled", iterations: 5000 }, (e, call) => {
      if (e.scalar?.iteration === 2) call.cancel();
    });
    expect(error?.code).toBe(grpc.status.CANCELLED);
    await new Promise((r) => setTimeout(r, 200));
    expect(runningTrainings()).toBe(0);
    expect(fs.existsSync(path.join(treeDir, "users", "alice", "cancelled"))).toBe(false);
  }, 300_000);

  it("cancelling a data-parallel task stops its replica threads too", async () => {
    // Linux lists a process's threads in /proc/self/task; a worker thread is one of them.
    const threads = () => fs.readdirSync("/proc/self/task").length;
    // A call first, so threads the process starts once (the connection's, libuv's pool) are counted in `before`.
    await new Promise((resolve, reject) => client.TaskOptions({}, (e, r) => (e ? reject(e) : resolve(r))));
    const before = threads();
    let during = 0;
    const { error } = await train({ ...tiny, modelName: "cancelled-ddp", iterations: 5000, ddpNum: 2 }, (e, call) => {
      if (e.scalar?.iteration === 2) {
        during = threads();
        call.cancel();
      }
    });
    expect(error?.code).toBe(grpc.status.CANCELLED);
    expect(during).toBeGreaterThanOrEqual(before + 2);
    for (let i = 0; i < 50 && threads() > before; i++) await new Promise((r) => setTimeout(r, 100));
    expect(threads()).toBeLessThanOrEqual(before);
    expect(busyTrainingThreads()).toBe(0);
    expect(fs.existsSync(path.join(treeDir, "users", "alice", "cancelled-ddp"))).toBe(false);
  }, 300_000);
});
