// The tail every unary handler of a pool-backed service shares (the Segmentation and MultiLabel
// services; issue 16 closing note: each had its own copy): what the request got wrong is
// INVALID_ARGUMENT with the handler's message, a pool refusal keeps its status (busy, time limit,
// broken checkpoint: sidecar/inference/service.ts poolRequestStatus), anything else is logged with
// its stack and answered INTERNAL ("<method> failed: …"). A handler that runs a model also writes
// one "inference" log line, with its time or its error (docs/grpc.md). The Metascore service has
// its own wrapper for pure handlers (sidecar/metascore/service.ts).
import * as grpc from "@grpc/grpc-js";
import { grpcError } from "../../proto/contract.ts";
import { poolRequestStatus } from "../inference/service.ts";
import { logger } from "../log.ts";
import type { SidecarService } from "../services.ts";

/** The request is wrong in a way the caller can fix: answered INVALID_ARGUMENT with this message. */
export class BadRequest extends Error {}

export interface ServiceNames {
  /** The service's short name in the log line, e.g. "MultiLabel" (the line's rpc is "MultiLabel.Classify"). */
  service: string;
  /** What failed, in the log of an internal error, e.g. "multi-label". */
  what: string;
}

/** The gRPC status of a handler's failure. */
export function failureStatus(err: unknown, method: string, what: string): grpc.ServiceError {
  if (err instanceof BadRequest) return grpcError(grpc.status.INVALID_ARGUMENT, err.message);
  const refused = poolRequestStatus(err);
  if (refused) return refused;
  logger.error({ err, rpc: method }, `${what} request failed`);
  return grpcError(grpc.status.INTERNAL, `${method} failed: ${(err as Error)?.message ?? String(err)}`);
}

/**
 * The unary handlers of one service: `unary(method, handle, logged)` answers with what `handle`
 * returns for the call, or with the status of what it threw. `logged` gives the request's fields
 * (model, algorithm) of the "inference" log line; without it no line is written (a listing runs
 * no model).
 */
export function unaryHandlers(names: ServiceNames) {
  return <Req, Res>(
    method: string,
    handle: (call: grpc.ServerUnaryCall<Req, Res>) => Res | Promise<Res>,
    logged?: (req: Req) => Record<string, unknown>,
  ): grpc.handleUnaryCall<Req, Res> => {
    const rpc = `${names.service}.${method}`;
    return async (call, cb) => {
      const t0 = performance.now();
      let reply: Res;
      try {
        reply = await handle(call);
      } catch (err) {
        if (logged) logger.info({ rpc, ...logged(call.request), error: (err as Error).message }, "inference");
        cb(failureStatus(err, method, names.what));
        return;
      }
      if (logged) logger.info({ rpc, ...logged(call.request), ms: Math.round(performance.now() - t0) }, "inference");
      cb(null, reply);
    };
  };
}

/** A SidecarService that serves `handlers` as the proto service `definition` (its full name `name`). */
export function protoService(name: string, definition: () => grpc.ServiceDefinition, handlers: () => grpc.UntypedServiceImplementation): SidecarService {
  return {
    name,
    register(server) {
      server.addService(definition(), handlers());
    },
  };
}
