// gRPC service metarank.v1.Inference (proto/metarank/v1/inference.proto). Listing
// runs in the main thread from checkpoint manifests; Predict and Explain go to the
// worker pool, started on the first such request so a sidecar that never explains
// pays nothing for it. Bad input answers INVALID_ARGUMENT with the reason; a
// request that fails in a worker never takes the pool down. Each handler's log line and
// failure status are the shared wrapper's (sidecar/grpc/unary.ts).
import { createRequire } from "node:module";
import { metarankV1 } from "../../proto/contract.ts";
import type { SidecarService } from "../services.ts";
import { BadRequest, unaryHandlers } from "../grpc/unary.ts";
import type { AlgorithmParam } from "../../proto/generated/metarank/v1/AlgorithmParam.ts";
import type { ExplainReply } from "../../proto/generated/metarank/v1/ExplainReply.ts";
import type { ExplainRequest__Output } from "../../proto/generated/metarank/v1/ExplainRequest.ts";
import type { InferenceHandlers } from "../../proto/generated/metarank/v1/Inference.ts";
import type { PredictRequest__Output } from "../../proto/generated/metarank/v1/PredictRequest.ts";
import { sharedSampler } from "../telemetry/sampler.ts";
import { bestGpu, setWorkerSlotsProvider } from "../registry/heartbeat.ts";
import { ALGORITHMS } from "./attribution/index.ts";
import type { ParamSpec } from "./attribution/index.ts";
import type { ExplainResult } from "./explain.ts";
import type { RawTensor } from "./imageInput.ts";
import { boundsFromEnv, explainCost, overBudget, timeLimitMs, type Cost } from "./cost.ts";
import { listModels, modelInputShape } from "./models.ts";
import { defaultWorkerCount } from "./pool.ts";
import { callSignal, closePool, startedPool, thePool } from "./thePool.ts";

// The Question Answering service imports the pool, the call's signal and the pool refusals'
// statuses from here (sidecar/vqa/, not moved with the rest: another change is open there);
// every other service imports sidecar/inference/thePool.ts and sidecar/grpc/unary.ts.
export { poolRequestStatus } from "../grpc/unary.ts";
export { callSignal, thePool } from "./thePool.ts";

const PROTO = "metarank/v1/inference.proto" as const;

/** Is a native TensorFlow binding installed (the only way this sidecar can use a GPU)? */
function nativeGpuInstalled(): boolean {
  if (process.env.TENSOR_BACKEND && !["auto", "tensorflow"].includes(process.env.TENSOR_BACKEND)) return false;
  try {
    createRequire(import.meta.url).resolve("@tensorflow/tfjs-node-gpu");
    return true;
  } catch {
    return false;
  }
}

function paramToProto(p: ParamSpec): AlgorithmParam {
  const msg: AlgorithmParam = {
    name: p.name,
    type: p.type,
    defaultValue: p.default === null || p.default === undefined ? "" : String(p.default),
    choices: p.choices ?? [],
    description: p.description ?? "",
  };
  if (p.min !== undefined) msg.min = p.min;
  if (p.max !== undefined) msg.max = p.max;
  return msg;
}

function imageOf(req: ExplainRequest__Output | PredictRequest__Output): { png: Uint8Array | null; tensor: RawTensor | null } {
  const png = req.imagePng && req.imagePng.length > 0 ? new Uint8Array(req.imagePng) : null;
  const t = req.imageTensor;
  const tensor = t && Array.isArray(t.shape) && t.shape.length > 0 ? { shape: t.shape.map(Number), data: t.data ?? [] } : null;
  return { png, tensor };
}

function paramsOf(req: ExplainRequest__Output): Record<string, unknown> {
  const params: Record<string, unknown> = { ...(req.params ?? {}) };
  if (req.paramsJson) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(req.paramsJson);
    } catch {
      throw new BadRequest('params_json is not valid JSON (expected an object such as {"n_steps": 20})');
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
      throw new BadRequest("params_json must be a JSON object of parameter names to values");
    Object.assign(params, parsed);
  }
  return params;
}

function targetOf(req: ExplainRequest__Output): number | null {
  if (req.target === undefined || req.target === null) return null;
  const t = Number(req.target);
  return t < 0 ? null : t;
}

export function explainToProto(r: ExplainResult): ExplainReply {
  const msg: ExplainReply = {
    attribution: r.attribution,
    output: r.output,
    baselineOutput: r.baselineOutput,
    hasBaseline: r.hasBaseline,
    target: r.target,
    predictedClass: r.predictedClass,
    predictedLabel: r.predictedLabel,
    probabilities: r.probabilities,
    heatmapPng: r.heatmapPng ? Buffer.from(r.heatmapPng) : Buffer.alloc(0),
    overlayPng: r.overlayPng ? Buffer.from(r.overlayPng) : Buffer.alloc(0),
    elapsedMs: r.elapsedMs,
  };
  if (r.delta !== undefined && Number.isFinite(r.delta)) msg.delta = r.delta;
  return msg;
}

const unary = unaryHandlers({ service: "Inference", what: "inference" });

export function inferenceHandlers(): InferenceHandlers {
  return {
    ListModels: unary("ListModels", () => {
      const { models, problems } = listModels();
      return { models, problems };
    }),
    ListAlgorithms: unary("ListAlgorithms", () => ({
      algorithms: Object.values(ALGORITHMS).map((a) => ({
        name: a.name,
        description: a.description,
        hasBaseline: a.hasBaseline,
        params: a.params.map(paramToProto),
      })),
    })),
    Predict: unary(
      "Predict",
      (call) =>
        thePool().predict(
          { modelId: String(call.request.modelId ?? ""), image: imageOf(call.request) },
          {
            signal: callSignal(call),
            timeLimitMs: timeLimitMs({ evaluations: 1, drivers: [] }, boundsFromEnv(), modelInputShape(String(call.request.modelId ?? ""))),
          },
        ),
      (req) => ({ model: req.modelId }),
    ),
    Explain: unary(
      "Explain",
      async (call) => {
        const req = call.request;
        const modelId = String(req.modelId ?? "");
        const algorithm = String(req.algorithm ?? "");
        const params = paramsOf(req);
        // The cost bound, checked before the job takes a worker (an unknown model or method is
        // left to the worker, which names what exists).
        const shape = modelInputShape(modelId);
        const cost: Cost | null = shape ? explainCost(algorithm, params, shape) : null;
        const bounds = boundsFromEnv();
        const refusal = cost && overBudget(algorithm, cost, bounds);
        if (refusal) throw new BadRequest(refusal);
        const r = await thePool().explain(
          { modelId, algorithm, params, image: imageOf(req), target: targetOf(req) },
          { signal: callSignal(call), timeLimitMs: timeLimitMs(cost, bounds, shape) },
        );
        return explainToProto(r);
      },
      (req) => ({ model: req.modelId, algorithm: req.algorithm }),
    ),
    ReportGpu: unary("ReportGpu", async () => {
      const stats = startedPool()?.stats() ?? { workers: defaultWorkerCount(), busy: 0, queued: 0, backend: "not started", restarts: 0 };
      const idle = Math.max(0, stats.workers - stats.busy);
      const base = { workers: stats.workers, busyWorkers: stats.busy, queued: stats.queued, backend: stats.backend };
      if (nativeGpuInstalled()) {
        const sample = await sharedSampler().current();
        const best = sample.noGpuReason ? null : bestGpu(sample.gpus);
        if (best) {
          return {
            ...base,
            gpuIndex: best.index,
            device: `gpu ${best.index} (tensorflow, CUDA)`,
            freeCompute: best.freeCompute,
            maxCompute: Math.round(best.freeCompute),
            cpuOnly: false,
          };
        }
      }
      const backendName = stats.backend === "not started" ? "wasm" : stats.backend;
      return {
        ...base,
        gpuIndex: -1,
        device: `cpu (${backendName})`,
        freeCompute: idle,
        maxCompute: idle,
        cpuOnly: true,
        noGpuReason: "no GPU runtime on this host: tensors run on the CPU",
      };
    }),
  };
}

export const inferenceService: SidecarService = {
  name: "metarank.v1.Inference",
  register(server) {
    server.addService(metarankV1(PROTO).Inference.service, inferenceHandlers());
    // The heartbeat advertises exact free inference slots rather than a load-average guess.
    setWorkerSlotsProvider(() => {
      const s = startedPool()?.stats();
      return s ? s.workers - s.busy : defaultWorkerCount();
    });
  },
  async stop() {
    setWorkerSlotsProvider(null);
    // Awaited by the sidecar's shutdown: its threads must be gone before the process exits.
    await closePool();
  },
};
