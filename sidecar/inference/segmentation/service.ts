// gRPC service metarank.v1.Segmentation (proto/metarank/v1/segmentation.proto). Listing reads
// checkpoint manifests in the main thread; Segment and Explain run on the sidecar's worker pool
// (thePool) with the caller's cancellation and a time limit from their cost, as Inference.Explain.
// What can be checked without the network (sizes, names, the class range) is refused here with
// INVALID_ARGUMENT before a worker is taken; "the class is not in the prediction" needs the
// prediction, so the worker refuses it with the same status.
import * as grpc from "@grpc/grpc-js";
import { grpcError, metarankV1 } from "../../../proto/contract.ts";
import type { SegExplainRequest__Output } from "../../../proto/generated/metarank/v1/SegExplainRequest.ts";
import type { SegmentReply } from "../../../proto/generated/metarank/v1/SegmentReply.ts";
import type { SegmentRequest__Output } from "../../../proto/generated/metarank/v1/SegmentRequest.ts";
import type { SegmentationHandlers } from "../../../proto/generated/metarank/v1/Segmentation.ts";
import { logger } from "../../log.ts";
import type { SidecarService } from "../../services.ts";
import { boundsFromEnv, timeLimitMs } from "../cost.ts";
import type { RawTensor } from "../imageInput.ts";
import { callSignal, poolRequestStatus, thePool } from "../service.ts";
import { SEG_ALGORITHMS, listSegModels, type SegModelInfo, type SegmentResult } from "./job.ts";

const PROTO = "metarank/v1/segmentation.proto" as const;
/** An encoded picture of a 32×32 model input is a few KiB; 2 MiB bounds a hostile upload's decoding. */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
/** A tensor longer than the largest model input is refused before it is copied. */
export const MAX_TENSOR_VALUES = 512 * 512 * 3;

class BadRequest extends Error {}

function imageOf(req: SegmentRequest__Output | SegExplainRequest__Output): { png: Uint8Array | null; tensor: RawTensor | null } {
  const png = req.imagePng && req.imagePng.length > 0 ? new Uint8Array(req.imagePng) : null;
  if (png && png.length > MAX_IMAGE_BYTES) throw new BadRequest(`the image is ${png.length} bytes; at most ${MAX_IMAGE_BYTES} are accepted`);
  const t = req.imageTensor;
  const tensor = t && Array.isArray(t.shape) && t.shape.length > 0 ? { shape: t.shape.map(Number), data: t.data ?? [] } : null;
  if (tensor && tensor.data.length > MAX_TENSOR_VALUES)
    throw new BadRequest(`the image tensor has ${tensor.data.length} values; at most ${MAX_TENSOR_VALUES} are accepted`);
  return { png, tensor };
}

/** The catalogue entry of a model id, or a BadRequest naming the ones there are. */
function modelOf(id: string): SegModelInfo {
  const { models } = listSegModels();
  const m = models.find((x) => x.id === id);
  if (!m)
    throw new BadRequest(
      `unknown segmentation model "${id}"; available: ${models.map((x) => x.id).join(", ") || "none (train one with npm run train-segmenter)"}`,
    );
  return m;
}

function toStatus(err: unknown, rpc: string): grpc.ServiceError {
  if (err instanceof BadRequest) return grpcError(grpc.status.INVALID_ARGUMENT, err.message);
  const refused = poolRequestStatus(err);
  if (refused) return refused;
  logger.error({ err, rpc }, "segmentation request failed");
  return grpcError(grpc.status.INTERNAL, `${rpc} failed: ${(err as Error)?.message ?? String(err)}`);
}

function segmentToProto(r: SegmentResult): SegmentReply {
  return {
    height: r.height,
    width: r.width,
    mask: r.mask,
    classes: r.classes,
    classNames: r.classNames,
    palette: r.palette,
    segmentationPng: Buffer.from(r.segmentationPng),
    elapsedMs: r.elapsedMs,
  };
}

export function segmentationHandlers(): SegmentationHandlers {
  return {
    ListSegmenters(_call, cb) {
      try {
        const { models, problems } = listSegModels();
        cb(null, { models: models.map(({ meanIoU, perClassIoU, ...m }) => ({ ...m, meanIou: meanIoU, perClassIou: perClassIoU })), problems });
      } catch (err) {
        cb(toStatus(err, "ListSegmenters"));
      }
    },
    async Segment(call, cb) {
      const t0 = performance.now();
      const req = call.request;
      try {
        const modelId = String(req.modelId ?? "");
        modelOf(modelId);
        const r = await thePool().segment(
          { modelId, image: imageOf(req) },
          { signal: callSignal(call), timeLimitMs: timeLimitMs({ evaluations: 1, drivers: [] }, boundsFromEnv()) },
        );
        logger.info({ rpc: "Segmentation.Segment", model: modelId, ms: Math.round(performance.now() - t0) }, "inference");
        cb(null, segmentToProto(r));
      } catch (err) {
        logger.info({ rpc: "Segmentation.Segment", model: req.modelId, error: (err as Error).message }, "inference");
        cb(toStatus(err, "Segment"));
      }
    },
    async Explain(call, cb) {
      const t0 = performance.now();
      const req = call.request;
      try {
        const modelId = String(req.modelId ?? "");
        const model = modelOf(modelId);
        const algorithm = String(req.algorithm ?? "");
        if (!(SEG_ALGORITHMS as readonly string[]).includes(algorithm))
          throw new BadRequest(`unknown segmentation algorithm "${algorithm}"; choose ${SEG_ALGORITHMS.join(" or ")}`);
        const target = Number(req.targetClass ?? 0);
        if (!Number.isInteger(target) || target < 1 || target >= model.classNames.length)
          throw new BadRequest(`target_class must be a class of ${modelId} from 1 to ${model.classNames.length - 1} (0 is the background); got ${target}`);
        // Feature_Ablation: one evaluation per segment id up to the largest (at most every class) and the input; GradCAM: one gradient.
        const cost = { evaluations: algorithm === "Feature_Ablation" ? model.classNames.length + 2 : 3, drivers: [] };
        const r = await thePool().segExplain(
          { modelId, image: imageOf(req), algorithm, targetClass: target },
          { signal: callSignal(call), timeLimitMs: timeLimitMs(cost, boundsFromEnv()) },
        );
        logger.info({ rpc: "Segmentation.Explain", model: modelId, algorithm, ms: Math.round(performance.now() - t0) }, "inference");
        cb(null, {
          segmentation: segmentToProto(r),
          algorithm: r.algorithm,
          targetClass: r.targetClass,
          targetScore: r.targetScore,
          attribution: r.attribution,
          segmentAttributions: r.segmentAttributions,
          heatmapPng: Buffer.from(r.heatmapPng),
          overlayPng: Buffer.from(r.overlayPng),
          elapsedMs: r.elapsedMs,
        });
      } catch (err) {
        logger.info({ rpc: "Segmentation.Explain", model: req.modelId, algorithm: req.algorithm, error: (err as Error).message }, "inference");
        cb(toStatus(err, "Explain"));
      }
    },
  };
}

export const segmentationService: SidecarService = {
  name: "metarank.v1.Segmentation",
  register(server) {
    server.addService(metarankV1(PROTO).Segmentation.service, segmentationHandlers());
  },
};
