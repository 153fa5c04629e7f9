// gRPC service metarank.v1.SeBoW (proto/metarank/v1/sebow.proto): the platform's SeBoW models for
// the scene demo and /cifarsebow. ListModels and Pool read checkpoints and render a few test
// images on the main thread (milliseconds); Explain runs on the inference worker pool with the
// caller's cancellation and a time limit from its cost, as Segmentation.Explain
// (sidecar/inference/segmentation/service.ts). Requests are checked here before a worker is taken.
// Each handler's log line and failure status are the shared wrapper's (sidecar/grpc/unary.ts).
import * as grpc from "@grpc/grpc-js";
import { metarankV1 } from "../../proto/contract.ts";
import type { SeBoWHandlers } from "../../proto/generated/metarank/v1/SeBoW.ts";
import type { SidecarService } from "../services.ts";
import { BadRequest, unaryHandlers } from "../grpc/unary.ts";
import { boundsFromEnv, timeLimitMs } from "../inference/cost.ts";
import { InferenceInputError } from "../inference/errors.ts";
import { callSignal, thePool } from "../inference/thePool.ts";
import { SEBOW_VARIANTS, type SebowVariant } from "../tree/sebow.ts";
import { SebowCheckpointError } from "../tree/sebowCheckpoint.ts";
import { SEBOW_ALGORITHMS, SPI_GRID, listSebowModels, sebowPool, type SebowAlgorithm } from "./job.ts";

const PROTO = "metarank/v1/sebow.proto" as const;
/** A 32×32 picture is a few KiB; 2 MiB bounds a hostile upload's decoding (as Segmentation). */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
/** Pool sizes the pages ask for are 12 (two rows of six); more is refused. */
export const MAX_POOL = 48;

const unary = unaryHandlers({
  service: "SeBoW",
  what: "SeBoW",
  statuses: [
    [InferenceInputError, grpc.status.INVALID_ARGUMENT],
    [SebowCheckpointError, grpc.status.FAILED_PRECONDITION],
  ],
});

function knownModel(id: string) {
  const { models } = listSebowModels();
  const m = models.find((x) => x.id === id);
  if (!m) throw new BadRequest(`unknown SeBoW model "${id.slice(0, 64)}"; available: ${models.map((x) => x.id).join(", ") || "none"}`);
  return m;
}

export function sebowHandlers(): SeBoWHandlers {
  return {
    ListModels: unary("ListModels", () => listSebowModels()),
    Pool: unary("Pool", (call) => {
      const req = call.request;
      const modelId = String(req.modelId ?? "");
      knownModel(modelId);
      const count = Number(req.count ?? 0);
      if (!Number.isInteger(count) || count < 1 || count > MAX_POOL) throw new BadRequest(`count must be 1–${MAX_POOL}, got ${req.count}`);
      const images = sebowPool(modelId, count, Number(req.seed ?? 0));
      return { images: images.map((i) => ({ ...i, png: Buffer.from(i.png) })) };
    }),
    Explain: unary(
      "Explain",
      async (call) => {
        const req = call.request;
        const modelId = String(req.modelId ?? "");
        const info = knownModel(modelId);
        const variant = String(req.variant ?? "") as SebowVariant;
        if (!SEBOW_VARIANTS.includes(variant))
          throw new BadRequest(`unknown SeBoW model variant "${variant.slice(0, 40)}"; choose ${SEBOW_VARIANTS.join(" or ")}`);
        const algorithm = String(req.algorithm ?? "") as SebowAlgorithm;
        if (!(SEBOW_ALGORITHMS as readonly string[]).includes(algorithm))
          throw new BadRequest(`unknown algorithm "${algorithm.slice(0, 40)}"; choose DI or SPI`);
        const sampleId = String(req.sampleId ?? "");
        const png = req.imagePng && req.imagePng.length > 0 ? new Uint8Array(req.imagePng) : null;
        if (png && png.length > MAX_IMAGE_BYTES) throw new BadRequest(`the image is ${png.length} bytes; at most ${MAX_IMAGE_BYTES} are accepted`);
        if (!sampleId && !png) throw new BadRequest("give a sample_id from the pool or an image");
        // In the pool's unit (cost.ts: one small-network forward pass): the first use of a model
        // in a worker loads and checks it (counted as 1500: seconds on a busy shared CPU); a tree forward costs about one pass
        // per node; DI adds a forward and a gradient per decision, SPI one forward per superpixel.
        const nodes = 2 * info.leaves + 1;
        const cost = { evaluations: 1500 + (algorithm === "DI" ? 2 * nodes * (info.layers + 1) : nodes * (1 + SPI_GRID * SPI_GRID)), drivers: [] };
        const r = await thePool().sebowExplain(
          { modelId, variant, algorithm, sampleId, imagePng: png },
          { signal: callSignal(call), timeLimitMs: timeLimitMs(cost, boundsFromEnv()) },
        );
        return {
          ...r,
          decisions: r.decisions.map((d) => ({ ...d, saliencyPng: Buffer.from(d.saliencyPng) })),
          heatmapPng: Buffer.from(r.heatmapPng),
          overlayPng: Buffer.from(r.overlayPng),
          imagePng: Buffer.from(r.imagePng),
        };
      },
      (req) => ({ model: req.modelId, variant: req.variant, algorithm: req.algorithm }),
    ),
  };
}

export const sebowService: SidecarService = {
  name: "metarank.v1.SeBoW",
  register(server) {
    server.addService(metarankV1(PROTO).SeBoW.service, sebowHandlers());
  },
};
