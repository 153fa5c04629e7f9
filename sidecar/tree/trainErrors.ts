// The error a training task's own arguments cause, with the gRPC status it answers with; its own
// module so that the trainers (trainProtoTree.ts) and the argument checks (trainArgs.ts) both
// throw it without importing each other.
import type * as grpc from "@grpc/grpc-js";

/** A task's arguments are wrong (INVALID_ARGUMENT) or cannot be served here (FAILED_PRECONDITION). */
export class TrainArgError extends Error {
  constructor(
    readonly code: grpc.status,
    message: string,
  ) {
    super(message);
    this.name = "TrainArgError";
  }
}
