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
  for (const svc of SERVICES) {
    await svc.register(server);
    health.setStatus(svc.name, "SERVING");
  }
  health.setStatus("", "SERVING");
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${port}`, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  logger.info(
    { host, port: bound, services: SERVICES.map((s) => s.name), callKey: configured ? "SIDECAR_CALL_KEY" : "per start, sent in heartbeats" },
    "sidecar listening",
  );
  if (!configured && !process.env.APP_URL)
    logger.warn("neither SIDECAR_CALL_KEY nor registration (APP_URL) is set: no caller can authenticate, so every call will be refused");
  for (const svc of SERVICES) await svc.start?.({ port: bound, callKey });
  const stop = () => {
    logger.info("sidecar stopping");
    health.setStatus("", "NOT_SERVING");
    for (const svc of SERVICES) health.setStatus(svc.name, "NOT_SERVING");
    for (const svc of SERVICES) svc.stop?.();
    server.tryShutdown(() => process.exit(0));
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((err) => {
  if (err instanceof CallKeyConfigError) logger.error(err.message);
  else logger.error({ err }, "sidecar failed to start");
  process.exit(1);
});
