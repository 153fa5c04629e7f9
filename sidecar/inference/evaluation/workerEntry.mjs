// Plain-JS entry of an evaluation worker thread (piscina loads it): registers tsx's loader in
// this thread (Node does not carry the parent's --import hooks into a worker started from a .ts
// URL, whatever started the parent: the tsx CLI, vitest or node --import tsx), then loads the
// TypeScript worker. Piscina awaits a promised default export, so the runtime is up before the
// first image.
import { register } from "tsx/esm/api";

register();
export default import("./worker.ts").then((m) => m.default);
