// A worker thread of the evaluation pool: its own tensor runtime (the wasm backend is
// single-threaded, so parallelism comes from threads), its own copy of each task's net
// and images (loaded once, kept for later jobs), and one image at a time on request.
import { parentPort, workerData } from "node:worker_threads";
import { getAlgorithm } from "../attribution/index.ts";
import { initBackend, type BackendChoice } from "../runtime/backend.ts";
import { evaluateIndices } from "./engine.ts";
import type { EvalRequest, WorkerData, WorkerReply } from "./pool.ts";
import type { LoadedTask, TaskLoaderModule } from "./tasks.ts";

const data = workerData as WorkerData;
const port = parentPort!;
const tasks = new Map<string, Promise<LoadedTask>>();
let loader: Promise<TaskLoaderModule> | null = null;
const ready = initBackend(data.backend as BackendChoice);

function task(id: string, images: number): Promise<LoadedTask> {
  const key = `${id}#${images}`;
  let t = tasks.get(key);
  if (!t) {
    loader ??= import(data.loaderModule) as Promise<TaskLoaderModule>;
    t = loader.then((m) => m.loadTask(id, images));
    tasks.set(key, t);
  }
  return t;
}

// Requests are handled one after another: the pool sends a worker its next image only
// after the previous reply, so there is never more than one in flight here.
port.on("message", async (req: EvalRequest) => {
  const reply = (r: WorkerReply) => port.postMessage(r);
  try {
    await ready;
    const { net, split } = await task(req.taskId, req.images);
    const [result] = await evaluateIndices(net, getAlgorithm(req.algorithm), req.params, req.settings, split, [req.index]);
    reply({ type: "image", seq: req.seq, result });
  } catch (err) {
    reply({ type: "error", seq: req.seq, message: (err as Error).message ?? String(err) });
  }
});
