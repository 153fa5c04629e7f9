// The sidecar process: one per GPU host. Serves the gRPC services of proto/metarank/v1
// plus the standard health service. It never imports the web app.
import * as grpc from "@grpc/grpc-js";
import { HealthImplementation } from "grpc-health-check";
import { CallKeyConfigError, callAuthInterceptor, resolveCallKey } from "./grpc/callAuth.ts";
import { logger } from "./log.ts";
import { SERVICES } from "./services.ts";

const port = Number(process.env.SIDECAR_PORT ?? 50051);
// Loopback unless an operator names another address: the app is the only normal caller
// (README "A sidecar per GPU host"; SIDECAR_HOST=0.0.0.0 for a GPU host the app reaches over the network).
const host = process.env.SIDECAR_HOST ?? "127.0.0.1";

async function main() {
  // Throws on an invalid SIDECAR_CALL_KEY: the process exits 1 with the reason (below).
  const { key: callKey, configured } = resolveCallKey();
  const server = new grpc.Server({
    // 256 MiB: Evaluation.RunMaps carries a whole suite's uploaded .npy maps in one request.
    "grpc.max_receive_message_length": 256 * 1024 * 1024,
    "grpc.max_send_message_length": 64 * 1024 * 1024,
    interceptors: [callAuthInterceptor(callKey, (info) => logger.warn(info, "call refused: missing or wrong call key"))],
  });
  // The standard health service; its Watch streams every change of a service's status.
  const health = new HealthImplementation({ "": "NOT_SERVING" });
  health.addToServer(server);
  // Signals are handled from here on, so a stop that comes while the services are still starting
  // is as clean as a later one.
  let stopping: Promise<void> | null = null;
  const stop = (signal: NodeJS.Signals) =>
    (stopping ??= (async () => {
      logger.info({ signal }, "sidecar stopping");
      // The last resort: a pool that never finishes closing must not keep the process up.
      setTimeout(() => process.exit(1), 15_000).unref();
      health.setStatus("", "NOT_SERVING");
      for (const svc of SERVICES) health.setStatus(svc.name, "NOT_SERVING");
      // No new calls; calls in flight get two seconds, then are cut.
      await new Promise<void>((resolve) => {
        const cut = setTimeout(() => (server.forceShutdown(), resolve()), 2000);
        server.tryShutdown(() => (clearTimeout(cut), resolve()));
      });
      // Then the worker pools, awaited: the process exits only once no worker thread is left
      // running a tensor runtime (ending one mid-run can abort the whole process).
      await Promise.allSettled(SERVICES.map(async (svc) => svc.stop?.()));
      logger.info("sidecar stopped");
      process.exit(0);
    })());
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  for (const svc of SERVICES) {
    await svc.register(server);
    health.setStatus(svc.name, "SERVING");
  }
  health.setStatus("", "SERVING");
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${port}`, grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(/EADDRINUSE|address already in use/i.test(err.message) ? new PortInUse() : err) : resolve(p),
    ),
  );
  // A supervisor (scripts/superviseSidecar.ts) learns that this start succeeded, before anything
  // else can happen: a process that ends after this (however soon) is restarted, one that ends
  // before it (a port taken, a bad configuration) is a start-up failure. Sent after the
  // background loops had started, a sidecar killed in between was taken for a failed start and
  // never restarted (tests/security/supervision.test.ts, on a loaded machine).
  process.send?.({ listening: bound });
  logger.info(
    { host, port: bound, services: SERVICES.map((s) => s.name), callKey: configured ? "SIDECAR_CALL_KEY" : "per start, sent in heartbeats" },
    "sidecar listening",
  );
  if (!configured && !process.env.APP_URL)
    logger.warn("neither SIDECAR_CALL_KEY nor registration (APP_URL) is set: no caller can authenticate, so every call will be refused");
  // Background loops start here, the registry's heartbeat first among them: a registered sidecar
  // is online in its app before it takes any work (the app's jobs wait for one meanwhile).
  for (const svc of SERVICES) await svc.start?.({ port: bound, callKey });
}

/** The port is taken: a restart will not help, so the exit status says so (EX_CONFIG). */
class PortInUse extends Error {
  constructor() {
    super(
      `port ${port} on ${host} is already in use by another process: stop that process, or start the sidecar on another port (SIDECAR_PORT, make start SIDECAR_PORT=…)`,
    );
  }
}
const EXIT_CONFIG = 78;

main().catch((err) => {
  if (err instanceof CallKeyConfigError) logger.error(err.message);
  else if (err instanceof PortInUse) {
    logger.error(err.message);
    process.exit(EXIT_CONFIG);
  } else logger.error({ err }, "sidecar failed to start");
  process.exit(1);
});
