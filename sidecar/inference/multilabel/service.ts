// gRPC service metarank.v1.MultiLabel (proto/metarank/v1/multilabel.proto). Listing reads
// checkpoint manifests in the main thread; Classify and Explain run on the sidecar's worker pool
// (thePool) with the caller's cancellation and a time limit from their cost, as the Segmentation
// service does (segmentation/service.ts). What can be checked without the network (sizes, names,
// the class and top_k ranges) is refused here with INVALID_ARGUMENT before a worker is taken.
import * as grpc from "@grpc/grpc-js";
import { grpcError, metarankV1 } from "../../../proto/contract.ts";
import type { MultiLabelClassifyRequest__Output } from "../../../proto/generated/metarank/v1/MultiLabelClassifyRequest.ts";
import type { MultiLabelExplainRequest__Output } from "../../../proto/generated/metarank/v1/MultiLabelExplainRequest.ts";
import type { MultiLabelHandlers } from "../../../proto/generated/metarank/v1/MultiLabel.ts";
import type { RankedLabel } from "../../../proto/generated/metarank/v1/RankedLabel.ts";
import type { RankedClass } from "../../zoo/multiLabel.ts";
import { logger } from "../../log.ts";
import type { SidecarService } from "../../services.ts";
import { boundsFromEnv, timeLimitMs } from "../cost.ts";
import type { RawTensor } from "../imageInput.ts";
import { callSignal, poolRequestStatus, thePool } from "../service.ts";
import { MAX_IMAGE_BYTES, MAX_TENSOR_VALUES } from "../segmentation/service.ts";
import { MAX_TOP_K, METHOD_OF, MULTILABEL_ALGORITHMS, listMultiLabelModels, type MultiLabelAlgorithm, type MultiLabelModelInfo } from "./job.ts";

const PROTO = "metarank/v1/multilabel.proto" as const;
/** The page's five ranked results (the seeds: "The VOC-style demo shows five ranked results"). */
export const DEFAULT_TOP_K = 5;

class BadRequest extends Error {}

function imageOf(req: MultiLabelClassifyRequest__Output | MultiLabelExplainRequest__Output): { png: Uint8Array | null; tensor: RawTensor | null } {
  const png = req.imagePng && req.imagePng.length > 0 ? new Uint8Array(req.imagePng) : null;
  if (png && png.length > MAX_IMAGE_BYTES) throw new BadRequest(`the image is ${png.length} bytes; at most ${MAX_IMAGE_BYTES} are accepted`);
  const t = req.imageTensor;
  const tensor = t && Array.isArray(t.shape) && t.shape.length > 0 ? { shape: t.shape.map(Number), data: t.data ?? [] } : null;
  if (tensor && tensor.data.length > MAX_TENSOR_VALUES)
    throw new BadRequest(`the image tensor has ${tensor.data.length} values; at most ${MAX_TENSOR_VALUES} are accepted`);
  return { png, tensor };
}

function topKOf(raw: unknown): number {
  const k = Number(raw ?? 0) || DEFAULT_TOP_K;
  if (!Number.isInteger(k) || k < 1 || k > MAX_TOP_K)
    throw new BadRequest(`top_k must be from 1 to ${MAX_TOP_K} (0 means ${DEFAULT_TOP_K}); got ${String(raw)}`);
  return k;
}

function modelOf(id: string): MultiLabelModelInfo {
  const { models } = listMultiLabelModels();
  const m = models.find((x) => x.id === id);
  if (!m)
    throw new BadRequest(
      `unknown multi-label model "${id}"; available: ${models.map((x) => x.id).join(", ") || "none (train one with npm run train-multilabel)"}`,
    );
  return m;
}

function toStatus(err: unknown, rpc: string): grpc.ServiceError {
  if (err instanceof BadRequest) return grpcError(grpc.status.INVALID_ARGUMENT, err.message);
  const refused = poolRequestStatus(err);
  if (refused) return refused;
  logger.error({ err, rpc }, "multi-label request failed");
  return grpcError(grpc.status.INTERNAL, `${rpc} failed: ${(err as Error)?.message ?? String(err)}`);
}

const rankedToProto = (r: RankedClass[]): RankedLabel[] => r.map((c) => ({ index: c.index, name: c.name, logit: c.logit, probability: c.probability }));

export function multiLabelHandlers(): MultiLabelHandlers {
  return {
    ListMultiLabelModels(_call, cb) {
      try {
        const { models, problems } = listMultiLabelModels();
        cb(null, { models: models.map(({ meanAP, perClassAP, ...m }) => ({ ...m, meanAp: meanAP, perClassAp: perClassAP })), problems });
      } catch (err) {
        cb(toStatus(err, "ListMultiLabelModels"));
      }
    },
    async Classify(call, cb) {
      const t0 = performance.now();
      const req = call.request;
      try {
        const modelId = String(req.modelId ?? "");
        modelOf(modelId);
        const topK = topKOf(req.topK);
        const r = await thePool().multiLabelClassify(
          { modelId, image: imageOf(req), topK },
          { signal: callSignal(call), timeLimitMs: timeLimitMs({ evaluations: 1, drivers: [] }, boundsFromEnv()) },
        );
        logger.info({ rpc: "MultiLabel.Classify", model: modelId, ms: Math.round(performance.now() - t0) }, "inference");
        cb(null, { ranked: rankedToProto(r.ranked), classNames: r.classNames, elapsedMs: r.elapsedMs });
      } catch (err) {
        logger.info({ rpc: "MultiLabel.Classify", model: req.modelId, error: (err as Error).message }, "inference");
        cb(toStatus(err, "Classify"));
      }
    },
    async Explain(call, cb) {
      const t0 = performance.now();
      const req = call.request;
      try {
        const modelId = String(req.modelId ?? "");
        const model = modelOf(modelId);
        const algorithm = String(req.algorithm ?? "");
        if (!(MULTILABEL_ALGORITHMS as readonly string[]).includes(algorithm))
          throw new BadRequest(`unknown multi-label algorithm "${algorithm}"; choose ${MULTILABEL_ALGORITHMS.join(" or ")}`);
        const target = Number(req.targetClass ?? 0);
        if (!Number.isInteger(target) || target < 0 || target >= model.classNames.length)
          throw new BadRequest(`target_class must be a class index of ${modelId} from 0 to ${model.classNames.length - 1}; got ${target}`);
        const topK = topKOf(req.topK);
        // Feature_Ablation: one evaluation per 4×4 square and the input; LIME: its samples and the input.
        const p = METHOD_OF[algorithm as MultiLabelAlgorithm].params;
        const evaluations = algorithm === "LIME" ? Number(p.n_samples) + 1 : Math.ceil(model.inputHeight / 4) * Math.ceil(model.inputWidth / 4) + 1;
        const r = await thePool().multiLabelExplain(
          { modelId, image: imageOf(req), algorithm, targetClass: target, topK },
          { signal: callSignal(call), timeLimitMs: timeLimitMs({ evaluations, drivers: [] }, boundsFromEnv()) },
        );
        logger.info({ rpc: "MultiLabel.Explain", model: modelId, algorithm, ms: Math.round(performance.now() - t0) }, "inference");
        cb(null, {
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
        });
      } catch (err) {
        logger.info({ rpc: "MultiLabel.Explain", model: req.modelId, algorithm: req.algorithm, error: (err as Error).message }, "inference");
        cb(toStatus(err, "Explain"));
      }
    },
  };
}

export const multiLabelService: SidecarService = {
  name: "metarank.v1.MultiLabel",
  register(server) {
    server.addService(metarankV1(PROTO).MultiLabel.service, multiLabelHandlers());
  },
};
