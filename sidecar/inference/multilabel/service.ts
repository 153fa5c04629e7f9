// gRPC service metarank.v1.MultiLabel (proto/metarank/v1/multilabel.proto). Listing reads
// checkpoint manifests in the main thread; Classify and Explain run on the sidecar's worker pool
// (thePool) with the caller's cancellation and a time limit from their cost, as the Segmentation
// service does (segmentation/service.ts). What can be checked without the network (sizes, names,
// the class and top_k ranges) is refused here with INVALID_ARGUMENT before a worker is taken.
// Each handler's log line and failure status are the shared wrapper's (sidecar/grpc/unary.ts).
import { metarankV1 } from "../../../proto/contract.ts";
import type { MultiLabelHandlers } from "../../../proto/generated/metarank/v1/MultiLabel.ts";
import type { RankedLabel } from "../../../proto/generated/metarank/v1/RankedLabel.ts";
import type { RankedClass } from "../../zoo/multiLabel.ts";
import { BadRequest, protoService, unaryHandlers } from "../../grpc/unary.ts";
import { catalogueModel, explainModelAndMethod, poolJobOptions, requestImage } from "../requestInput.ts";
import { thePool } from "../thePool.ts";
import { MAX_TOP_K, METHOD_OF, MULTILABEL_ALGORITHMS, listMultiLabelModels, type MultiLabelModelInfo } from "./job.ts";

const PROTO = "metarank/v1/multilabel.proto" as const;
/** The page's five ranked results (docs/product.md "Multi-label"). */
export const DEFAULT_TOP_K = 5;
const unary = unaryHandlers({ service: "MultiLabel", what: "multi-label" });

function topKOf(raw: unknown): number {
  const k = Number(raw ?? 0) || DEFAULT_TOP_K;
  if (!Number.isInteger(k) || k < 1 || k > MAX_TOP_K)
    throw new BadRequest(`top_k must be from 1 to ${MAX_TOP_K} (0 means ${DEFAULT_TOP_K}); got ${String(raw)}`);
  return k;
}

/** The catalogue entry of a model id, or a BadRequest naming the ones there are. */
const modelOf = (id: string): MultiLabelModelInfo => catalogueModel(listMultiLabelModels().models, id, "multi-label", "train-multilabel");

const rankedToProto = (r: RankedClass[]): RankedLabel[] => r.map((c) => ({ index: c.index, name: c.name, logit: c.logit, probability: c.probability }));

export function multiLabelHandlers(): MultiLabelHandlers {
  return {
    ListMultiLabelModels: unary("ListMultiLabelModels", () => {
      const { models, problems } = listMultiLabelModels();
      return { models: models.map(({ meanAP, perClassAP, ...m }) => ({ ...m, meanAp: meanAP, perClassAp: perClassAP })), problems };
    }),
    Classify: unary(
      "Classify",
      async (call) => {
        const req = call.request;
        const modelId = String(req.modelId ?? "");
        const model = modelOf(modelId);
        const topK = topKOf(req.topK);
        const r = await thePool().multiLabelClassify({ modelId, image: requestImage(req), topK }, poolJobOptions(call, { evaluations: 1, drivers: [] }, model));
        return { ranked: rankedToProto(r.ranked), classNames: r.classNames, elapsedMs: r.elapsedMs };
      },
      (req) => ({ model: req.modelId }),
    ),
    Explain: unary(
      "Explain",
      async (call) => {
        const req = call.request;
        const { modelId, model, algorithm } = explainModelAndMethod(req, modelOf, MULTILABEL_ALGORITHMS, "multi-label");
        const target = Number(req.targetClass ?? 0);
        if (!Number.isInteger(target) || target < 0 || target >= model.classNames.length)
          throw new BadRequest(`target_class must be a class index of ${modelId} from 0 to ${model.classNames.length - 1}; got ${target}`);
        const topK = topKOf(req.topK);
        // Feature_Ablation: one evaluation per 4×4 square and the input; LIME: its samples and the input.
        const p = METHOD_OF[algorithm].params;
        const evaluations = algorithm === "LIME" ? Number(p.n_samples) + 1 : Math.ceil(model.inputHeight / 4) * Math.ceil(model.inputWidth / 4) + 1;
        const r = await thePool().multiLabelExplain(
          { modelId, image: requestImage(req), algorithm, targetClass: target, topK },
          poolJobOptions(call, { evaluations, drivers: [] }, model),
        );
        return {
          ranked: rankedToProto(r.ranked),
          classNames: r.classNames,
          algorithm: r.algorithm,
          method: r.method,
          paramsJson: JSON.stringify(r.params),
          targetClass: r.targetClass,
          targetLogit: r.targetLogit,
          targetProbability: r.targetProbability,
          attribution: r.attribution,
          heatmapPng: Buffer.from(r.heatmapPng),
          overlayPng: Buffer.from(r.overlayPng),
          elapsedMs: r.elapsedMs,
        };
      },
      (req) => ({ model: req.modelId, algorithm: req.algorithm }),
    ),
  };
}

export const multiLabelService = protoService("metarank.v1.MultiLabel", () => metarankV1(PROTO).MultiLabel.service, multiLabelHandlers);
