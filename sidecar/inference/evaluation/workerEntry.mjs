// Plain-JS entry of an evaluation worker thread: registers tsx's loader in this thread
// (Node does not carry the parent's --import hooks into a worker started from a .ts
// URL, whatever started the parent: the tsx CLI, vitest or node --import tsx) and then
// loads the TypeScript worker.
import { register } from "tsx/esm/api";

register();
await import("./worker.ts");
