// Plain-JS entry of a tree-training thread (trainHandlers.ts starts one per task) and of a
// data-parallel replica thread (dataParallel.ts starts ddp_num − 1 per task, workerData.role
// "ddp-replica"): registers tsx's loader in this thread, as
// sidecar/inference/evaluation/workerEntry.mjs does and for the same reason (a worker started
// from a .ts URL does not inherit the parent's loader hooks), then runs the TypeScript module.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
if (workerData?.role === "ddp-replica") await import("./dataParallelReplica.ts");
else await import("./trainWorker.ts");
