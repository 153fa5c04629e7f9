// Plain-JS entry of an inference worker thread: Node does not carry the parent's
// tsx loader into a worker thread, so register it here, then load the TypeScript worker.
import { register } from "tsx/esm/api";

register();
await import("./worker.ts");
