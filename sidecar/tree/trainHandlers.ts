// The Tree service's TaskOptions and Train (proto/metarank/v1/tree.proto), composed into the
// service by sidecar/tree/service.ts (trainHandlers()).
//  - TaskOptions: the create-task form's choices (heights 8/9/10,
//    iterations 100–300, prototype dimensions 128–1024), each category's installed datasets and
//    advanced arguments with descriptions and defaults.
//  - Train: one task in its own worker thread (trainWorker.ts), so the sidecar's event loop keeps
//    serving while tfjs computes, and cancelling the call terminates the thread at once (a tfjs
//    kernel cannot be interrupted; the tree is written only at the very end, by an atomic rename,
//    so a cancelled task writes nothing). Category "ProtPTree" trains a ProtoTree
//    (trainProtoTree.ts); "SeBoW" is dispatched to trainSebow (sidecar/tree/sebowTask.ts).
//  - ddp_num: a ProtoTree task trains data-parallel on that many threads of this host (its own
//    thread and ddp_num − 1 replicas, sidecar/tree/dataParallel.ts). TaskOptions.max_ddp is
//    maxDdp() (TREE_MAX_DDP); a larger count is refused with FAILED_PRECONDITION. SeBoW trains on
//    one thread (is_support_ddp false; why: sidecar/tree/README.md) and refuses ddp_num > 1.
//  - The pool counts threads, not tasks: a task takes ddp_num of trainSlots() (see admits()).
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
import { SEBOW_ARGS } from "./sebowTask.ts";
import { protoTreeArgs, protoTreeOptions, type ArgSpec, type WorkerTrainRequest } from "./trainArgs.ts";
import { userTreeRoot, validTreeName } from "./checkpoint.ts";
import fs from "node:fs";
import path from "node:path";

const log = logger.child({ service: "tree-train" });

export const DEPTHS = [8, 9, 10];
export const ITERATIONS = [100, 150, 200, 250, 300];
export const PROTO_DIMS = [128, 256, 512, 1024];
const cores = () => os.availableParallelism?.() ?? os.cpus().length;

/**
 * Threads one task may train on here (TaskOptions.max_ddp): TREE_MAX_DDP, by default the cores
 * up to 4. Each thread is one core (the wasm backend is single-threaded: runtime/backend.ts);
 * past 4 a default batch of 64 would be cut into shards of 16 images or fewer, where copying the
 * weights to every replica each step weighs more than the compute it spreads (README's figures).
 */
export function maxDdp(): number {
  const env = Number(process.env.TREE_MAX_DDP);
  if (process.env.TREE_MAX_DDP && Number.isInteger(env) && env >= 1) return env;
  return Math.max(1, Math.min(cores(), 4));
}

/** Training threads this sidecar runs at once (TREE_TRAIN_SLOTS; default half the cores, at least 1). */
export function trainSlots(): number {
  const env = Number(process.env.TREE_TRAIN_SLOTS);
  if (Number.isInteger(env) && env >= 1) return env;
  return Math.max(1, Math.floor(cores() / 2));
}

/**
 * Whether a task of `threads` threads may start while `busy` training threads run: when it fits
 * in the slots, or when nothing trains at all. The second case lets a task of up to max_ddp
 * threads start on an idle sidecar even where max_ddp exceeds the slots (2 cores: 1 slot, max_ddp
 * 2): the app answers RESOURCE_EXHAUSTED by waiting and retrying (app/.server/treeTasks.server.ts
 * trainWhenRoom), so a count the form allows must fit some time.
 */
export function admits(threads: number, busy: number): boolean {
  return busy === 0 || busy + threads <= trainSlots();
}

function sebowDatasets(): TreeDataset[] {
  const out: TreeDataset[] = [
    { id: "scenes", name: "Generated scenes", classes: SCENE_CLASSES.length, trainSize: SCENES_TRAIN_SIZE, testSize: SCENES_TEST_SIZE, platform: true },
  ];
  if (process.env.CIFAR10_DIR) out.push({ id: "cifar10", name: "CIFAR-10", classes: 10, trainSize: 50000, testSize: 10000, platform: false });
  if (process.env.CIFAR100_DIR) out.push({ id: "cifar100", name: "CIFAR-100", classes: 100, trainSize: 50000, testSize: 10000, platform: false });
  return out;
}

/** SeBoW's task arguments (sebowTask.ts), as TaskOptions lists them. */
function sebowArgs(): ArgSpec[] {
  return SEBOW_ARGS.map((a) => ({ ...a, choices: [...a.choices] }));
}

export async function taskOptions(): Promise<TaskOptionsReply> {
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
      { id: "ProtPTree", args: protoTreeArgs() as TreeArg[], isSupportDdp: maxDdp() > 1, datasets: protoDatasets },
      { id: "SeBoW", args: sebowArgs() as TreeArg[], isSupportDdp: false, datasets: sebowDatasets() },
    ],
    depths: DEPTHS,
    iterations: ITERATIONS,
    protoDims: PROTO_DIMS,
    maxDdp: maxDdp(),
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

/** Checks that need no data: caller, name, category, counts (`busy`: training threads running now). The worker checks the rest (arguments, dataset). */
export function precheck(req: TrainRequest__Output, busy: number): void {
  const bad = (m: string) => new TrainRefusal(grpc.status.INVALID_ARGUMENT, m);
  if (!req.caller?.username) throw bad("Train needs the signed-in caller");
  if (!validTreeName(req.modelName ?? "")) throw bad("model_name must be 1–64 letters, digits, '-', '_' or '.'");
  if (req.category !== "ProtPTree" && req.category !== "SeBoW") throw bad(`category must be ProtPTree or SeBoW, not "${req.category}"`);
  // Checked again when the tree is written (a rename never overwrites), but refused here before any work.
  if (!/[/\\]|^\./.test(req.caller.username) && fs.existsSync(path.join(userTreeRoot(), req.caller.username, req.modelName)))
    throw new TrainRefusal(grpc.status.ALREADY_EXISTS, `you already have a tree named "${req.modelName}"`);
  const ddp = req.ddpNum || 1;
  if (ddp < 1) throw bad(`ddp_num must be at least 1, got ${req.ddpNum}`);
  if (!Number.isInteger(ddp)) throw bad(`ddp_num must be a whole number, got ${req.ddpNum}`);
  // Not RESOURCE_EXHAUSTED: the app would wait for room that never comes.
  if (ddp > 1 && req.category === "SeBoW") throw bad(`SeBoW trains on one thread (is_support_ddp is false); ddp_num must be 1, got ${ddp}`);
  const max = maxDdp();
  // FAILED_PRECONDITION, not RESOURCE_EXHAUSTED: a task created while this host served more (an
  // operator lowered TREE_MAX_DDP since) would otherwise wait a day for room that never comes; the
  // app fails it with this reason instead.
  if (ddp > max)
    throw new TrainRefusal(
      grpc.status.FAILED_PRECONDITION,
      `ddp_num ${ddp} exceeds what this sidecar serves (max_ddp ${max}: at most ${max} training thread(s) per task on this host)`,
    );
  if (!admits(ddp, busy))
    throw new TrainRefusal(
      grpc.status.RESOURCE_EXHAUSTED,
      `this sidecar is already training on ${busy} of its ${trainSlots()} training thread(s); a task of ${ddp} thread(s) must wait until one finishes`,
    );
}

/** Messages between the handler and its worker thread (trainWorker.ts). */
export type WorkerMessage = { type: "event"; event: TrainEvent } | { type: "error"; code: number; message: string } | { type: "end" };

const WORKER_ENTRY = new URL("./trainWorkerEntry.mjs", import.meta.url);

let running = 0;
let busyThreads = 0;
/** Tasks training now (tests check a cancelled one is gone). */
export function runningTrainings(): number {
  return running;
}
/** Training threads in use now: each task's ddp_num. */
export function busyTrainingThreads(): number {
  return busyThreads;
}

/** Training threads alive now: a stopping sidecar ends them before it exits (sidecar/main.ts). */
const trainingWorkers = new Set<Worker>();

/** Ends every training thread (their calls fail as the server shuts down). */
export async function stopTraining(): Promise<void> {
  await Promise.allSettled([...trainingWorkers].map((w) => w.terminate()));
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
        precheck(req, busyThreads);
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
      const threads = req.ddpNum || 1;
      running++;
      busyThreads += threads;
      const started = Date.now();
      log.info(
        { task: req.taskId, category: req.category, dataset: req.dataset, depth: req.depth, iterations: req.iterations, threads },
        `tree training started on ${threads} thread(s)`,
      );
      const worker = new Worker(WORKER_ENTRY, {
        workerData: { req: workerReq },
      });
      trainingWorkers.add(worker);
      worker.once("exit", () => trainingWorkers.delete(worker));
      let finished = false;
      const finish = () => {
        if (finished) return false;
        finished = true;
        running--;
        busyThreads -= threads;
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
