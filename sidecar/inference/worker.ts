// One inference worker thread: its own tfjs runtime (wasm is single-threaded, so
// the pool runs one of these per core) and its own cache of loaded models. Every
// request is answered, with a result or with the error's name and message; an
// error never ends the thread.
import { parentPort, workerData } from "node:worker_threads";
import { initBackend, type BackendChoice } from "./runtime/backend.ts";
import { explain, predict } from "./explain.ts";
import { getNet } from "./models.ts";
import type { WorkerInit, WorkerReply, WorkerRequest } from "./poolProtocol.ts";

const init = (workerData ?? {}) as WorkerInit;
if (init.checkpointDir) process.env.CHECKPOINT_DIR = init.checkpointDir;
const port = parentPort!;

const info = await initBackend(init.backend as BackendChoice | undefined);
port.postMessage({ ready: true, backend: info.name });

port.on("message", async (msg: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    if (msg.kind === "predict") reply = { id: msg.id, ok: true, result: predict(msg.req) };
    else if (msg.kind === "explain") reply = { id: msg.id, ok: true, result: await explain(msg.req) };
    else {
      for (const id of msg.modelIds) getNet(id);
      reply = { id: msg.id, ok: true, result: null };
    }
  } catch (err) {
    const e = err as Error;
    reply = { id: msg.id, ok: false, error: { name: e?.name ?? "Error", message: e?.message ?? String(err) } };
  }
  port.postMessage(reply);
});
