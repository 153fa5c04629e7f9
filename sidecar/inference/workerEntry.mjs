// Plain-JS entry of an inference worker thread (piscina loads it): Node does not carry the
// parent's tsx loader into a worker thread, so register it here, then load the TypeScript
// worker. Piscina awaits a promised default export, so the runtime is up before the first task.
import { register } from "tsx/esm/api";

register();
export default import("./worker.ts").then((m) => m.default);
