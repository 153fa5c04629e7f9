// A thread of the evaluation pool (a piscina worker): its own tensor runtime (the wasm backend
// is single-threaded, so parallelism comes from threads), its own copy of each task's net and
// images (loaded once, kept for the thread's later images), and one image per task. Every image
// is answered, with its result or the error's message; an error never ends the thread.
import { workerData } from "node:worker_threads";
import { getAlgorithm } from "../attribution/index.ts";
import { setJobFlags } from "../../engine/nativeGuard.ts";
import type { AttributionAlgorithm } from "../attribution/types.ts";
import { evaluateIndicesWithMaps, type MapSource } from "./engine.ts";
import { loadMethodModule } from "./methodModule.ts";
import { initEvaluationBackend, serveTaskNet } from "./backend.ts";
import type { EvalRequest, WorkerData, WorkerReply } from "./pool.ts";
import type { LoadedTask, TaskLoaderModule } from "./tasks.ts";

const data = workerData as WorkerData;
const tasks = new Map<string, Promise<LoadedTask>>();
let loader: Promise<TaskLoaderModule> | null = null;
/** Method modules by URL, imported once per thread. */
const modules = new Map<string, Promise<AttributionAlgorithm>>();
// Awaited before the module resolves, so piscina hands this thread no image before its runtime is up.
await initEvaluationBackend(data.backend);

function task(id: string, images: number, checkpoint?: string): Promise<LoadedTask> {
  const key = `${id}#${images}#${checkpoint ?? ""}`;
  let t = tasks.get(key);
  if (!t) {
    loader ??= import(data.loaderModule) as Promise<TaskLoaderModule>;
    t = loader
      .then((m) => m.loadTask(id, images, checkpoint))
      .then(async (loaded) => ({ ...loaded, net: await serveTaskNet(loaded.net, data.backend, data.threads) }));
    // A failed load is not kept: the next image tries again (and says why again).
    t.catch(() => tasks.delete(key));
    tasks.set(key, t);
  }
  return t;
}

function methodModule(url: string): Promise<AttributionAlgorithm> {
  let m = modules.get(url);
  if (!m) {
    m = loadMethodModule(url);
    m.catch(() => modules.delete(url));
    modules.set(url, m);
  }
  return m;
}

/** The map comes from the request (given maps), a method module, or the registry. */
async function source(req: EvalRequest): Promise<MapSource> {
  if (req.map) {
    const map = req.map;
    return { kind: "given", map: () => map };
  }
  const algorithm = req.methodModule ? await methodModule(req.methodModule) : getAlgorithm(req.algorithm);
  return { kind: "method", algorithm, params: req.params };
}

export default async function evaluateImage(req: EvalRequest): Promise<WorkerReply> {
  // The run's stop flags: the pool stops a native run between batches, never in the middle of one.
  setJobFlags(req.flags);
  try {
    const { net, split } = await task(req.taskId, req.images, req.checkpoint);
    const [{ result, map }] = await evaluateIndicesWithMaps(net, await source(req), req.settings, split, [req.index]);
    return req.returnMap ? { type: "image", result, map } : { type: "image", result };
  } catch (err) {
    return { type: "error", message: (err as Error)?.message ?? String(err) };
  }
}
