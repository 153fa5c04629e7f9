// The Tree service's TaskOptions and Train (proto/metarank/v1/tree.proto), composed into the
// service by sidecar/tree/service.ts (trainHandlers()).
//  - TaskOptions: the create-task form's choices (seed 001 §9 task options: heights 8/9/10,
//    iterations 100–300, prototype dimensions 128–1024), each category's installed datasets and
//    advanced arguments with descriptions and defaults.
//  - Train: one task in its own worker thread (trainWorker.ts), so the sidecar's event loop keeps
//    serving while tfjs computes, and cancelling the call terminates the thread at once (a tfjs
//    kernel cannot be interrupted; the tree is written only at the very end, by an atomic rename,
//    so a cancelled task writes nothing). Category "ProtPTree" trains a ProtoTree
//    (trainProtoTree.ts); "SeBoW" is dispatched to trainSebow (sidecar/tree/sebow.ts).
//  - ddp_num: this host trains a task on one thread; a larger count is refused with
//    RESOURCE_EXHAUSTED (max_ddp = 1 in TaskOptions; docs in sidecar/tree/README.md).
import os from "node:os";
import { Worker } from "node:worker_threads";
import * as grpc from "@grpc/grpc-js";
import { grpcError } from "../../proto/contract.ts";
import type { TreeHandlers } from "../../proto/generated/metarank/v1/Tree.ts";
import type { TaskOptionsReply } from "../../proto/generated/metarank/v1/TaskOptionsReply.ts";
import type { TreeArg } from "../../proto/generated/metarank/v1/TreeArg.ts";
import type { TreeDataset } from "../../proto/generated/metarank/v1/TreeDataset.ts";
import type { TrainEvent } from "../../proto/generated/metarank/v1/TrainEvent.ts";
import type { TrainRequest__Output } from "../../proto/generated/metarank/v1/TrainRequest.ts";
import { logger } from "../log.ts";
import { SCENE_CLASSES, SCENES_TEST_SIZE, SCENES_TRAIN_SIZE } from "../data/scenes.ts";
import { treeDatasets } from "./treeDatasets.ts";
import { protoTreeArgs, protoTreeOptions, type ArgSpec, type WorkerTrainRequest } from "./trainArgs.ts";
import { userTreeRoot, validTreeName } from "./checkpoint.ts";
import fs from "node:fs";
import path from "node:path";

const log = logger.child({ service: "tree-train" });

export const DEPTHS = [8, 9, 10];
export const ITERATIONS = [100, 150, 200, 250, 300];
export const PROTO_DIMS = [128, 256, 512, 1024];
/** Data-parallel threads per task this host serves (see the header). */
export const MAX_DDP = 1;

/** Tasks training at once on this sidecar (each takes one core); TREE_TRAIN_SLOTS overrides. */
export function trainSlots(): number {
  const env = Number(process.env.TREE_TRAIN_SLOTS);
  if (Number.isInteger(env) && env >= 1) return env;
  return Math.max(1, Math.floor((os.availableParallelism?.() ?? os.cpus().length) / 2));
}

function sebowDatasets(): TreeDataset[] {
  const out: TreeDataset[] = [
    { id: "scenes", name: "Generated scenes", classes: SCENE_CLASSES.length, trainSize: SCENES_TRAIN_SIZE, testSize: SCENES_TEST_SIZE, platform: true },
  ];
  if (process.env.CIFAR10_DIR) out.push({ id: "cifar10", name: "CIFAR-10", classes: 10, trainSize: 50000, testSize: 10000, platform: false });
  if (process.env.CIFAR100_DIR) out.push({ id: "cifar100", name: "CIFAR-100", classes: 100, trainSize: 50000, testSize: 10000, platform: false });
  return out;
}

/**
 * SeBoW's arguments from its module (sidecar/tree/sebowTrain.ts, helper G's), imported by a
 * computed path so this file builds and serves ProtoTree before that module exists; without it
 * SeBoW is listed with no datasets (Train then answers FAILED_PRECONDITION).
 */
async function sebowArgs(): Promise<ArgSpec[] | null> {
  const file = "./sebowTrain.ts";
  try {
    const m = (await import(file)) as { SEBOW_ARGS?: readonly ArgSpec[] };
    return m.SEBOW_ARGS ? m.SEBOW_ARGS.map((a) => ({ ...a, choices: [...a.choices] })) : null;
  } catch {
    return null;
  }
}

export async function taskOptions(): Promise<TaskOptionsReply> {
  const sebow = await sebowArgs();
  const protoDatasets = treeDatasets().map((d) => ({
    id: d.id,
    name: d.name,
    classes: d.classes,
    trainSize: d.trainSize,
    testSize: d.testSize,
    platform: d.platform,
  }));
  return {
    algorithms: [
      { id: "ProtPTree", args: protoTreeArgs() as TreeArg[], isSupportDdp: MAX_DDP > 1, datasets: protoDatasets },
      { id: "SeBoW", args: (sebow ?? []) as TreeArg[], isSupportDdp: false, datasets: sebow ? sebowDatasets() : [] },
    ],
    depths: DEPTHS,
    iterations: ITERATIONS,
    protoDims: PROTO_DIMS,
    maxDdp: MAX_DDP,
  };
}

/** A request the handler refuses before a thread is taken, with its status. */
export class TrainRefusal extends Error {
  constructor(
    readonly code: grpc.status,
    message: string,
  ) {
    super(message);
    this.name = "TrainRefusal";
  }
}

/** Checks that need no data: caller, name, category, counts. The worker checks the rest (arguments, dataset). */
export function precheck(req: TrainRequest__Output, running: number): void {
  const bad = (m: string) => new TrainRefusal(grpc.status.INVALID_ARGUMENT, m);
  if (!req.caller?.username) throw bad("Train needs the signed-in caller");
  if (!validTreeName(req.modelName ?? "")) throw bad("model_name must be 1–64 letters, digits, '-', '_' or '.'");
  if (req.category !== "ProtPTree" && req.category !== "SeBoW") throw bad(`category must be ProtPTree or SeBoW, not "${req.category}"`);
  // Checked again when the tree is written (a rename never overwrites), but refused here before any work.
  if (!/[/\\]|^\./.test(req.caller.username) && fs.existsSync(path.join(userTreeRoot(), req.caller.username, req.modelName)))
    throw new TrainRefusal(grpc.status.ALREADY_EXISTS, `you already have a tree named "${req.modelName}"`);
  const ddp = req.ddpNum || 1;
  if (ddp < 1) throw bad(`ddp_num must be at least 1, got ${req.ddpNum}`);
  if (ddp > MAX_DDP)
    throw new TrainRefusal(
      grpc.status.RESOURCE_EXHAUSTED,
      `ddp_num ${ddp} exceeds what this sidecar serves (${MAX_DDP}: a task trains on one worker thread here)`,
    );
  if (running >= trainSlots())
    throw new TrainRefusal(grpc.status.RESOURCE_EXHAUSTED, `this sidecar is already training ${running} task(s), its limit; try again when one finishes`);
}

/** Messages between the handler and its worker thread (trainWorker.ts). */
export type WorkerMessage = { type: "event"; event: TrainEvent } | { type: "error"; code: number; message: string } | { type: "end" };

const WORKER_ENTRY = new URL("./trainWorkerEntry.mjs", import.meta.url);

let running = 0;
/** Tasks training now (tests check a cancelled one is gone). */
export function runningTrainings(): number {
  return running;
}

export function trainHandlers(): Pick<TreeHandlers, "TaskOptions" | "Train"> {
  return {
    TaskOptions(_call, cb) {
      taskOptions().then(
        (reply) => cb(null, reply),
        (err) => {
          log.error({ err }, "TaskOptions failed");
          cb(grpcError(grpc.status.INTERNAL, `TaskOptions failed: ${(err as Error).message}`));
        },
      );
    },

    Train(call) {
      const req = call.request;
      try {
        precheck(req, running);
      } catch (err) {
        const e = err as TrainRefusal;
        call.emit("error", grpcError(e.code ?? grpc.status.INTERNAL, e.message));
        return;
      }
      const workerReq: WorkerTrainRequest = {
        taskId: req.taskId,
        caller: { username: req.caller!.username, admin: !!req.caller!.admin },
        category: req.category,
        dataset: req.dataset,
        depth: req.depth,
        iterations: req.iterations,
        protoDim: req.protoDim,
        args: { ...(req.args ?? {}) },
        ddpNum: req.ddpNum,
        modelName: req.modelName,
        seed: req.seed,
      };
      if (req.category === "ProtPTree") {
        try {
          protoTreeOptions(workerReq);
        } catch (err) {
          const e = err as { code?: number; message: string };
          call.emit("error", grpcError(typeof e.code === "number" ? e.code : grpc.status.INVALID_ARGUMENT, e.message));
          return;
        }
      }
      running++;
      const started = Date.now();
      log.info({ task: req.taskId, category: req.category, dataset: req.dataset, depth: req.depth, iterations: req.iterations }, "tree training started");
      const worker = new Worker(WORKER_ENTRY, {
        workerData: { req: workerReq },
      });
      let finished = false;
      const finish = () => {
        if (finished) return false;
        finished = true;
        running--;
        return true;
      };
      call.on("cancelled", () => {
        if (!finish()) return;
        log.info({ task: req.taskId }, "tree training cancelled by the client");
        void worker.terminate();
      });
      worker.on("message", (m: WorkerMessage) => {
        if (finished) return;
        if (m.type === "event") {
          const e = m.event;
          if (e.image?.png) e.image.png = Buffer.from(e.image.png as Uint8Array);
          call.write(e);
        } else if (m.type === "error") {
          finish();
          log.warn({ task: req.taskId, code: m.code, message: m.message }, "tree training failed");
          call.emit("error", grpcError(m.code, m.message));
          void worker.terminate();
        } else {
          finish();
          log.info({ task: req.taskId, ms: Date.now() - started }, "tree training done");
          call.end();
          void worker.terminate();
        }
      });
      worker.on("error", (err) => {
        if (!finish()) return;
        log.error({ err, task: req.taskId }, "tree training thread crashed");
        call.emit("error", grpcError(grpc.status.INTERNAL, `training failed: ${err.message}`));
      });
      worker.on("exit", (code) => {
        if (!finish()) return;
        call.emit("error", grpcError(grpc.status.INTERNAL, `the training thread stopped (exit code ${code}) before the task finished`));
      });
    },
  };
}
