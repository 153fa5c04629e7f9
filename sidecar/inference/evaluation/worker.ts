// A thread of the evaluation pool (a piscina worker): its own tensor runtime (the wasm backend
// is single-threaded, so parallelism comes from threads), its own copy of each task's net and
// images (loaded once, kept for the thread's later images), and one image per task. Every image
// is answered, with its result or the error's message; an error never ends the thread.
import { workerData } from "node:worker_threads";
import { getAlgorithm } from "../attribution/index.ts";
import { initBackend, type BackendChoice } from "../runtime/backend.ts";
import { evaluateIndices } from "./engine.ts";
import type { EvalRequest, WorkerData, WorkerReply } from "./pool.ts";
import type { LoadedTask, TaskLoaderModule } from "./tasks.ts";

const data = workerData as WorkerData;
const tasks = new Map<string, Promise<LoadedTask>>();
let loader: Promise<TaskLoaderModule> | null = null;
// Awaited before the module resolves, so piscina hands this thread no image before its runtime is up.
await initBackend(data.backend as BackendChoice);

function task(id: string, images: number): Promise<LoadedTask> {
  const key = `${id}#${images}`;
  let t = tasks.get(key);
  if (!t) {
    loader ??= import(data.loaderModule) as Promise<TaskLoaderModule>;
    t = loader.then((m) => m.loadTask(id, images));
    // A failed load is not kept: the next image tries again (and says why again).
    t.catch(() => tasks.delete(key));
    tasks.set(key, t);
  }
  return t;
}

export default async function evaluateImage(req: EvalRequest): Promise<WorkerReply> {
  try {
    const { net, split } = await task(req.taskId, req.images);
    const [result] = await evaluateIndices(net, getAlgorithm(req.algorithm), req.params, req.settings, split, [req.index]);
    return { type: "image", result };
  } catch (err) {
    return { type: "error", message: (err as Error)?.message ?? String(err) };
  }
}
