// The sidecar process: one per GPU host. Serves the gRPC services of proto/metarank/v1
// plus the standard health service. It never imports the web app.
import * as grpc from "@grpc/grpc-js";
import { loadProto } from "./grpc/proto.ts";
import { logger } from "./log.ts";
import { SERVICES } from "./services.ts";

const port = Number(process.env.SIDECAR_PORT ?? 50051);
const host = process.env.SIDECAR_HOST ?? "0.0.0.0";

async function main() {
  const server = new grpc.Server({
    "grpc.max_receive_message_length": 64 * 1024 * 1024,
    "grpc.max_send_message_length": 64 * 1024 * 1024,
  });
  const statuses = new Map<string, "SERVING" | "NOT_SERVING">([["", "SERVING"]]);
  for (const svc of SERVICES) {
    await svc.register(server);
    statuses.set(svc.name, "SERVING");
  }
  const health = (loadProto("grpc/health/v1/health.proto") as any).grpc.health.v1.Health;
  server.addService(health.service, {
    Check(call: any, cb: grpc.sendUnaryData<unknown>) {
      const s = statuses.get(call.request.service);
      if (!s) return cb({ code: grpc.status.NOT_FOUND, details: "unknown service" } as grpc.ServiceError);
      cb(null, { status: s });
    },
    Watch(call: any) {
      call.write({ status: statuses.get(call.request.service) ?? "SERVICE_UNKNOWN" });
    },
  });
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${port}`, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  logger.info({ port: bound, services: SERVICES.map((s) => s.name) }, "sidecar listening");
  for (const svc of SERVICES) await svc.start?.({ port: bound });
  const stop = () => {
    logger.info("sidecar stopping");
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
