// gRPC service metarank.v1.Segmentation (proto/metarank/v1/segmentation.proto). Listing reads
// checkpoint manifests in the main thread; Segment and Explain run on the sidecar's worker pool
// (thePool) with the caller's cancellation and a time limit from their cost, as Inference.Explain.
// What can be checked without the network (sizes, names, the class range) is refused here with
// INVALID_ARGUMENT before a worker is taken; "the class is not in the prediction" needs the
// prediction, so the worker refuses it with the same status. Each handler's log line and failure
// status are the shared wrapper's (sidecar/grpc/unary.ts).
import { metarankV1 } from "../../../proto/contract.ts";
import type { SegmentReply } from "../../../proto/generated/metarank/v1/SegmentReply.ts";
import type { SegmentationHandlers } from "../../../proto/generated/metarank/v1/Segmentation.ts";
import { BadRequest, protoService, unaryHandlers } from "../../grpc/unary.ts";
import { catalogueModel, explainModelAndMethod, poolJobOptions, requestImage } from "../requestInput.ts";
import { thePool } from "../thePool.ts";
import { SEG_ALGORITHMS, listSegModels, type SegModelInfo, type SegmentResult } from "./job.ts";

const PROTO = "metarank/v1/segmentation.proto" as const;
const unary = unaryHandlers({ service: "Segmentation", what: "segmentation" });

/** The catalogue entry of a model id, or a BadRequest naming the ones there are. */
const modelOf = (id: string): SegModelInfo => catalogueModel(listSegModels().models, id, "segmentation", "train-segmenter");

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
    ListSegmenters: unary("ListSegmenters", () => {
      const { models, problems } = listSegModels();
      return { models: models.map(({ meanIoU, perClassIoU, ...m }) => ({ ...m, meanIou: meanIoU, perClassIou: perClassIoU })), problems };
    }),
    Segment: unary(
      "Segment",
      async (call) => {
        const req = call.request;
        const modelId = String(req.modelId ?? "");
        const model = modelOf(modelId);
        const r = await thePool().segment({ modelId, image: requestImage(req) }, poolJobOptions(call, { evaluations: 1, drivers: [] }, model));
        return segmentToProto(r);
      },
      (req) => ({ model: req.modelId }),
    ),
    Explain: unary(
      "Explain",
      async (call) => {
        const req = call.request;
        const { modelId, model, algorithm } = explainModelAndMethod(req, modelOf, SEG_ALGORITHMS, "segmentation");
        const target = Number(req.targetClass ?? 0);
        if (!Number.isInteger(target) || target < 1 || target >= model.classNames.length)
          throw new BadRequest(`target_class must be a class of ${modelId} from 1 to ${model.classNames.length - 1} (0 is the background); got ${target}`);
        // Feature_Ablation: one evaluation per segment id up to the largest (at most every class) and the input; GradCAM: one gradient.
        const cost = { evaluations: algorithm === "Feature_Ablation" ? model.classNames.length + 2 : 3, drivers: [] };
        const r = await thePool().segExplain({ modelId, image: requestImage(req), algorithm, targetClass: target }, poolJobOptions(call, cost, model));
        return {
          segmentation: segmentToProto(r),
          algorithm: r.algorithm,
          targetClass: r.targetClass,
          targetScore: r.targetScore,
          attribution: r.attribution,
          segmentAttributions: r.segmentAttributions,
          heatmapPng: Buffer.from(r.heatmapPng),
          overlayPng: Buffer.from(r.overlayPng),
          elapsedMs: r.elapsedMs,
        };
      },
      (req) => ({ model: req.modelId, algorithm: req.algorithm }),
    ),
  };
}

export const segmentationService = protoService("metarank.v1.Segmentation", () => metarankV1(PROTO).Segmentation.service, segmentationHandlers);
