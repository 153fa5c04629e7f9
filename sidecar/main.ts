// The sidecar process: one per GPU host. Serves the gRPC services of proto/metarank/v1
// plus the standard health service. It never imports the web app.
import * as grpc from "@grpc/grpc-js";
import { HealthImplementation } from "grpc-health-check";
import { logger } from "./log.ts";
import { SERVICES } from "./services.ts";

const port = Number(process.env.SIDECAR_PORT ?? 50051);
// Loopback unless an operator names another address: the app is the only normal caller
// (README "A sidecar per GPU host"; SIDECAR_HOST=0.0.0.0 for a GPU host the app reaches over the network).
const host = process.env.SIDECAR_HOST ?? "127.0.0.1";

async function main() {
  const server = new grpc.Server({
    "grpc.max_receive_message_length": 64 * 1024 * 1024,
    "grpc.max_send_message_length": 64 * 1024 * 1024,
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
  logger.info({ port: bound, services: SERVICES.map((s) => s.name) }, "sidecar listening");
  for (const svc of SERVICES) await svc.start?.({ port: bound });
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
  logger.error({ err }, "sidecar failed to start");
  process.exit(1);
});
