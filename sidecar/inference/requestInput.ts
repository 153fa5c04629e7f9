// What the pool-backed services (Segmentation, MultiLabel) check in a request before a worker is
// taken, written once for both: the picture's size and the model id, each refused as a BadRequest
// (INVALID_ARGUMENT, sidecar/grpc/unary.ts) that says what to change; the model and method an
// Explain names; and the options their pool job runs with.
import { BadRequest } from "../grpc/unary.ts";
import { checkedAlgorithm } from "./densePrediction/catalogue.ts";
import { boundsFromEnv, timeLimitMs, type Cost } from "./cost.ts";
import { callSignal } from "./thePool.ts";
import type { RawTensor } from "./imageInput.ts";
import type { SegmentRequest__Output } from "../../proto/generated/metarank/v1/SegmentRequest.ts";

/** An encoded picture of a 32×32 model input is a few KiB; 2 MiB bounds a hostile upload's decoding. */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
/** A tensor longer than the largest model input is refused before it is copied. */
export const MAX_TENSOR_VALUES = 512 * 512 * 3;

/** The fields of a request that carry its picture (an encoded PNG or JPEG, or a raw tensor). */
export type ImageFields = Pick<SegmentRequest__Output, "imagePng" | "imageTensor">;

/** The request's picture as the pool takes it; too large a picture is a BadRequest. */
export function requestImage(req: ImageFields): { png: Uint8Array | null; tensor: RawTensor | null } {
  const png = req.imagePng && req.imagePng.length > 0 ? new Uint8Array(req.imagePng) : null;
  if (png && png.length > MAX_IMAGE_BYTES) throw new BadRequest(`the image is ${png.length} bytes; at most ${MAX_IMAGE_BYTES} are accepted`);
  const t = req.imageTensor;
  const tensor = t && Array.isArray(t.shape) && t.shape.length > 0 ? { shape: t.shape.map(Number), data: t.data ?? [] } : null;
  if (tensor && tensor.data.length > MAX_TENSOR_VALUES)
    throw new BadRequest(`the image tensor has ${tensor.data.length} values; at most ${MAX_TENSOR_VALUES} are accepted`);
  return { png, tensor };
}

/**
 * The catalogue entry of a model id, or a BadRequest naming the ones there are: `what` names the
 * kind of model ("segmentation"), `trainCommand` the npm script that makes one.
 */
export function catalogueModel<M extends { id: string }>(models: M[], id: string, what: string, trainCommand: string): M {
  const m = models.find((x) => x.id === id);
  if (!m)
    throw new BadRequest(`unknown ${what} model "${id}"; available: ${models.map((x) => x.id).join(", ") || `none (train one with npm run ${trainCommand})`}`);
  return m;
}

/**
 * The model and method an Explain request names: the model from the feature's catalogue (`modelOf`,
 * catalogueModel), then the method from its list (`what` names the feature), each refused as a
 * BadRequest in that order. The target class's range is the feature's own.
 */
export function explainModelAndMethod<M, A extends string>(
  req: { modelId?: string; algorithm?: string },
  modelOf: (id: string) => M,
  algorithms: readonly A[],
  what: string,
): { modelId: string; model: M; algorithm: A } {
  const modelId = String(req.modelId ?? "");
  const model = modelOf(modelId);
  const algorithm = checkedAlgorithm(algorithms, what, String(req.algorithm ?? ""), (message) => new BadRequest(message));
  return { modelId, model, algorithm };
}

/**
 * A pool job's options for a call: cancelled with the call (callSignal), and limited to the time
 * its cost allows on the model's input size under the sidecar's bounds (cost.ts timeLimitMs).
 */
export function poolJobOptions(call: Parameters<typeof callSignal>[0], cost: Cost, model: { inputHeight: number; inputWidth: number; inputChannels: number }) {
  return { signal: callSignal(call), timeLimitMs: timeLimitMs(cost, boundsFromEnv(), [model.inputHeight, model.inputWidth, model.inputChannels]) };
}
