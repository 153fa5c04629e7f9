// Errors of the Inference service that a caller can act on. The gRPC layer maps
// InferenceInputError (and the attribution engine's AttributionParamError) to
// INVALID_ARGUMENT; everything else is logged and reported as an internal error.
export class InferenceInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InferenceInputError";
  }
}

/** Error names that mean "the request was wrong", as they cross a worker_threads boundary. */
export const INPUT_ERROR_NAMES = new Set(["InferenceInputError", "AttributionParamError", "DatasetFormatError"]);
/** A checkpoint exists but cannot be used (corrupt, truncated): the operator must fix it. */
export const CHECKPOINT_ERROR_NAMES = new Set(["CheckpointError", "VqaCheckpointError"]);
