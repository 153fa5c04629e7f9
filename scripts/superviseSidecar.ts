// Keeps `make start`'s sidecar alive (docs/architecture.md "Supervision"): runs sidecar/main.ts as
// a child with the same environment and output, and restarts it when it ends without being asked
// to (a crash, an out-of-memory kill, kill -9), after a back-off that doubles from 1 s to 30 s and
// starts again at 1 s once a child has stayed up for a minute; every exit and restart is logged.
// A child that ends before it is listening on its first start (port taken, bad configuration) is
// not restarted: the supervisor exits 1, which stops `make start`. SIGTERM or SIGINT stop the
// child cleanly (it closes its gRPC server and worker pools) and then the supervisor.
//   node --import tsx scripts/superviseSidecar.ts   (every variable of sidecar/main.ts applies)
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pino from "pino";

const log = pino({ name: "sidecar-supervisor", level: process.env.LOG_LEVEL ?? "info" });
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const FIRST_PAUSE_MS = Number(process.env.SIDECAR_RESTART_PAUSE_MS) || 1000;
const MAX_PAUSE_MS = 30_000;
/** A child up this long was healthy: the next crash starts the back-off from the beginning. */
const STABLE_MS = 60_000;

let child: ChildProcess | null = null;
let stopping = false;
let everListening = false;
let pauseMs = FIRST_PAUSE_MS;
let restartTimer: NodeJS.Timeout | null = null;
let restarts = 0;

function start(): void {
  const startedAt = Date.now();
  let listening = false;
  const c = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "sidecar/main.ts")], {
    cwd: ROOT,
    env: process.env,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  child = c;
  c.on("message", (m: { listening?: number }) => {
    if (typeof m?.listening !== "number") return;
    listening = everListening = true;
    if (restarts) log.info({ pid: c.pid, port: m.listening, restarts }, "sidecar restarted and listening");
  });
  // "close", not "exit": it comes after the child's last IPC message, so a child killed right
  // after saying it listens is never taken for one that could not start.
  c.on("close", (code, signal) => {
    child = null;
    if (stopping) return finish(code === 0 ? 0 : 1);
    if (!everListening && !listening) {
      log.error({ code, signal }, "the sidecar could not start (its log says why); not restarting it");
      return finish(1);
    }
    if (Date.now() - startedAt >= STABLE_MS) pauseMs = FIRST_PAUSE_MS;
    log.warn({ code, signal, restartInMs: pauseMs }, `the sidecar exited (${signal ?? `status ${code}`}); restarting it in ${(pauseMs / 1000).toFixed(1)} s`);
    restartTimer = setTimeout(() => {
      restartTimer = null;
      restarts++;
      start();
    }, pauseMs);
    pauseMs = Math.min(2 * pauseMs, MAX_PAUSE_MS);
  });
}

function finish(status: number): void {
  log.info({ status }, "sidecar supervisor stopped");
  process.exit(status);
}

function stop(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  if (restartTimer) clearTimeout(restartTimer);
  if (!child) return finish(0);
  log.info({ signal }, "stopping the sidecar");
  child.kill("SIGTERM");
  // The sidecar gives itself 15 s at most; past that it is stuck.
  setTimeout(() => child?.kill("SIGKILL"), 20_000).unref();
}

process.on("SIGTERM", stop);
process.on("SIGINT", stop);
start();
