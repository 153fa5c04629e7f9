// Plain-JS entry of a tree-training thread (trainHandlers.ts starts one per task): registers tsx's
// loader in this thread, as sidecar/inference/evaluation/workerEntry.mjs does and for the same
// reason (a worker started from a .ts URL does not inherit the parent's loader hooks), then runs
// the TypeScript worker.
import { register } from "tsx/esm/api";

register();
await import("./trainWorker.ts");
