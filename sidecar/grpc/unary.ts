// The one mapping from a handler's failure to its gRPC status, and the wrapper every unary
// handler of a model service goes through (docs/grpc.md "The sidecar's side"). What the request
// got wrong is INVALID_ARGUMENT with the handler's message; a service's own failures a caller can
// act on (a missing tree, a broken checkpoint) keep the status the service names for them; a pool
// refusal keeps its status (bad input, broken checkpoint, busy, time limit, cancelled: the table
// below); anything else is logged with its stack and answered INTERNAL ("<method> failed: …"). A
// handler that runs a model also writes one "inference" log line, with its time or its error.
// The Metascore service has its own wrapper for pure handlers (sidecar/metascore/service.ts).
import * as grpc from "@grpc/grpc-js";
import type pino from "pino";
import { grpcError } from "../../proto/contract.ts";
import { PoolRequestError, type PoolErrorKind } from "../inference/pool.ts";
import { logger } from "../log.ts";
import type { SidecarService } from "../services.ts";

/** The request is wrong in a way the caller can fix: answered INVALID_ARGUMENT with this message. */
export class BadRequest extends Error {}

/** An error class a service maps to a status of its own (any constructor: only `instanceof` is used). */
type ErrorClass = abstract new (...args: never[]) => Error;

export interface ServiceNames {
  /** The service's short name in the log line, e.g. "MultiLabel" (the line's rpc is "MultiLabel.Classify"). */
  service: string;
  /** What failed, in the log of an internal error, e.g. "multi-label" ("multi-label request failed"). */
  what: string;
  /** The service's own errors a caller can act on and their statuses, answered with the error's message. */
  statuses?: ReadonlyArray<readonly [ErrorClass, grpc.status]>;
  /** A status the handler threw itself (grpcError: ALREADY_EXISTS, UNAUTHENTICATED) is answered as it is. */
  thrownStatuses?: boolean;
  /** The service's logger (default: the sidecar's). */
  log?: pino.Logger;
}

/** A pool refusal's status (sidecar/inference/pool.ts PoolErrorKind). */
const POOL_STATUS: Partial<Record<PoolErrorKind, grpc.status>> = {
  input: grpc.status.INVALID_ARGUMENT,
  checkpoint: grpc.status.FAILED_PRECONDITION,
  busy: grpc.status.RESOURCE_EXHAUSTED,
  timeout: grpc.status.DEADLINE_EXCEEDED,
  cancelled: grpc.status.CANCELLED,
};

/**
 * The gRPC status of a pool refusal (bad input, broken checkpoint, full queue, time limit,
 * cancelled), for every service that runs on thePool(); null for anything else (an internal error).
 */
export function poolRequestStatus(err: unknown): grpc.ServiceError | null {
  const code = err instanceof PoolRequestError ? POOL_STATUS[err.kind] : undefined;
  return code === undefined ? null : grpcError(code, (err as Error).message);
}

const isThrownStatus = (err: unknown): err is grpc.ServiceError =>
  Boolean(err) && typeof (err as grpc.ServiceError).code === "number" && !(err instanceof PoolRequestError);

/** The gRPC status of a failure of `method` (unary or streaming) of the service `names`. */
export function failureStatus(err: unknown, method: string, names: ServiceNames): grpc.ServiceError {
  if (names.thrownStatuses && isThrownStatus(err)) return err;
  if (err instanceof BadRequest) return grpcError(grpc.status.INVALID_ARGUMENT, err.message);
  const own = names.statuses?.find(([cls]) => err instanceof cls);
  if (own) return grpcError(own[1], (err as Error).message);
  const refused = poolRequestStatus(err);
  if (refused) return refused;
  (names.log ?? logger).error({ err, rpc: method }, `${names.what} request failed`);
  return grpcError(grpc.status.INTERNAL, `${method} failed: ${(err as Error)?.message ?? String(err)}`);
}

/**
 * The unary handlers of one service: `unary(method, handle, logged)` answers with what `handle`
 * returns for the call, or with the status of what it threw. `logged` gives the request's fields
 * (model, algorithm) of the "inference" log line; without it no line is written (a listing runs
 * no model).
 */
export function unaryHandlers(names: ServiceNames) {
  const log = names.log ?? logger;
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
        if (logged) log.info({ rpc, ...logged(call.request), error: (err as Error).message }, "inference");
        cb(failureStatus(err, method, names));
        return;
      }
      if (logged) log.info({ rpc, ...logged(call.request), ms: Math.round(performance.now() - t0) }, "inference");
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
