// One inference worker thread (a piscina worker): its own tfjs runtime (wasm is single-threaded,
// so the pool runs one of these per core) and its own cache of loaded models. Every task is
// answered, with a result or with the error's name and message; an error never ends the thread.
import { workerData } from "node:worker_threads";
import { initBackend, type BackendChoice } from "./runtime/backend.ts";
import { explain, predict } from "./explain.ts";
import { getServedNet } from "./models.ts";
import { detectCracksInPhoto } from "../inspection/photo.ts";
import { tcavJob } from "../concepts/experiment.ts";
import { diskCavStore } from "../concepts/store.ts";
import { vqaJob } from "../vqa/job.ts";
import { explainSegment, segment } from "./segmentation/job.ts";
import { treeJob } from "../tree/predict.ts";
import { multiLabelJob } from "./multilabel/job.ts";
import { explainSebow } from "../sebow/job.ts";
import type { FlaggedTask, TcavProgressMessage, WorkerInit, WorkerReply } from "./poolProtocol.ts";
import { setJobFlags } from "../engine/nativeGuard.ts";

const init = (workerData ?? {}) as WorkerInit;
if (init.checkpointDir) process.env.CHECKPOINT_DIR = init.checkpointDir;

const info = await initBackend(init.backend as BackendChoice | undefined);

export default async function handle(task: FlaggedTask): Promise<WorkerReply> {
  const backend = info.name;
  setJobFlags(task.flags);
  try {
    if (task.kind === "predict") return { backend, ok: true, result: await predict(task.req) };
    if (task.kind === "explain") return { backend, ok: true, result: await explain(task.req) };
    if (task.kind === "detectCracks") return { backend, ok: true, result: detectCracksInPhoto(task.req) };
    if (task.kind === "tcav") {
      const port = task.progress;
      const onProgress = port ? (done: number, total: number) => port.postMessage({ done, total } satisfies TcavProgressMessage) : undefined;
      try {
        return { backend, ok: true, result: await tcavJob(task.req, diskCavStore(), onProgress) };
      } finally {
        port?.close();
      }
    }
    if (task.kind === "vqa") return { backend, ok: true, result: vqaJob(task.req) };
    if (task.kind === "segment") return { backend, ok: true, result: segment(task.req) };
    if (task.kind === "segExplain") return { backend, ok: true, result: await explainSegment(task.req) };
    if (task.kind === "tree") {
      const port = task.progress;
      try {
        return { backend, ok: true, result: await treeJob(task.req, port ? (fraction, message) => port.postMessage({ fraction, message }) : undefined) };
      } finally {
        port?.close();
      }
    }
    if (task.kind === "multiLabel") return { backend, ok: true, result: await multiLabelJob(task.req) };
    if (task.kind === "sebowExplain") return { backend, ok: true, result: explainSebow(task.req) };
    for (const id of task.modelIds) await getServedNet(id);
    return { backend, ok: true, result: null };
  } catch (err) {
    const e = err as Error;
    return { backend, ok: false, error: { name: e?.name ?? "Error", message: e?.message ?? String(err) } };
  }
}
