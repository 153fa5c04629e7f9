// One tree-training task in a worker thread (started by trainHandlers.ts): validates the task's
// arguments, trains (ProtoTree here, SeBoW through sebowTask.ts), writes the caller's tree and
// reports every step to the handler as tree.proto TrainEvents.
import { parentPort, workerData } from "node:worker_threads";
import * as grpc from "@grpc/grpc-js";
import type { TrainEvent } from "../../proto/generated/metarank/v1/TrainEvent.ts";
import { initBackend } from "../inference/runtime/backend.ts";
import { saveTree, TreeExistsError, userTreeId } from "./checkpoint.ts";
import { trainProtoTree, type TrainProgressEvent } from "./trainProtoTree.ts";
import { trainSebow } from "./sebowTask.ts";
import type { WorkerMessage } from "./trainHandlers.ts";
import { protoTreeOptions, TrainArgError, type WorkerTrainRequest } from "./trainArgs.ts";

/** tree.proto TrainEvent of a progress event. */
export function toTrainEvent(e: TrainProgressEvent): TrainEvent {
  switch (e.kind) {
    case "log":
      return { log: e.text, progress: e.progress };
    case "stage":
      return {
        stage: { name: e.name, state: e.state, startedAt: e.state === "running" ? e.at : "", finishedAt: e.state === "running" ? "" : e.at },
        progress: e.progress,
      };
    case "scalar":
      return { scalar: { iteration: e.iteration, loss: e.loss, trainAccuracy: e.trainAccuracy, testAccuracy: e.testAccuracy }, progress: e.progress };
    case "image":
      return { image: { name: e.name, iteration: e.iteration, png: e.png as Buffer, caption: e.caption }, progress: e.progress };
  }
}

async function run(req: WorkerTrainRequest, post: (m: WorkerMessage) => void): Promise<void> {
  await initBackend();
  const emit = (event: TrainEvent) => post({ type: "event", event });
  // Cancellation terminates this thread (trainHandlers.ts); the signal is for in-process callers.
  const signal = new AbortController().signal;
  if (req.category === "SeBoW") {
    await trainSebow(req, (e) => emit(e as TrainEvent), signal);
    return;
  }
  const opts = protoTreeOptions(req);
  const owner = req.caller.username;
  const treeId = userTreeId(owner, req.modelName);
  const started: Record<string, string> = {};
  const result = await trainProtoTree(
    opts,
    (e) => {
      const ev = toTrainEvent(e);
      // A stage's "done" carries the time it started too.
      if (e.kind === "stage") {
        if (e.state === "running") started[e.name] = e.at;
        else ev.stage!.startedAt = started[e.name] ?? "";
      }
      emit(ev);
    },
    signal,
  );
  try {
    saveTree(result.tree, owner, req.modelName);
  } catch (err) {
    if (err instanceof TreeExistsError) throw new TrainArgError(grpc.status.ALREADY_EXISTS, `you already have a tree named "${req.modelName}"`);
    throw err;
  }
  emit({
    done: {
      treeId,
      testAccuracy: result.testAccuracy,
      cnnAccuracy: result.cnnAccuracy,
      leaves: result.leaves,
      leavesAfterPruning: result.leavesAfterPruning,
      elapsedMs: result.elapsedMs,
    },
    progress: 1,
  });
}

function codeOf(err: unknown): grpc.status {
  const e = err as { code?: unknown; name?: string };
  if (typeof e?.code === "number" && (e.name === "TrainArgError" || e.name === "SebowTaskError")) return e.code;
  if (e?.name === "CheckpointError" || e?.name === "DatasetFormatError" || e?.name === "SebowCheckpointError") return grpc.status.FAILED_PRECONDITION;
  return grpc.status.INTERNAL;
}

if (parentPort) {
  const port = parentPort;
  const post = (m: WorkerMessage) => port.postMessage(m);
  run((workerData as { req: WorkerTrainRequest }).req, post).then(
    () => post({ type: "end" }),
    (err) => post({ type: "error", code: codeOf(err), message: (err as Error)?.message ?? String(err) }),
  );
}
