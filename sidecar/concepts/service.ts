// gRPC service metarank.v1.Concepts (proto/metarank/v1/concepts.proto, docs/concepts.md).
// The catalogue and the pool are a few generated 32-pixel images (main thread, milliseconds);
// TCAV trains CAVs and back-propagates, so it runs on the sidecar's worker pool with a time limit
// and the caller's cancellation, and its CAVs are cached on disk (store.ts) for the next request.
// Each handler's failure status is the shared mapping's (sidecar/grpc/unary.ts), streams included.
import * as grpc from "@grpc/grpc-js";
import { metarankV1 } from "../../proto/contract.ts";
import type { ConceptsHandlers } from "../../proto/generated/metarank/v1/Concepts.ts";
import type { ConceptModel } from "../../proto/generated/metarank/v1/ConceptModel.ts";
import type { RunTcavReply } from "../../proto/generated/metarank/v1/RunTcavReply.ts";
import type { RunTcavRequest__Output } from "../../proto/generated/metarank/v1/RunTcavRequest.ts";
import { DTD_CATEGORIES, canGenerate, renderTextureImage } from "../data/textures.ts";
import { encodePng } from "../data/png.ts";
import type { SidecarService } from "../services.ts";
import { failureStatus, unaryHandlers, type ServiceNames } from "../grpc/unary.ts";
import { InferenceInputError } from "../inference/errors.ts";
import { listModels, type ModelInfo } from "../inference/models.ts";
import { callSignal, thePool } from "../inference/thePool.ts";
import {
  CONCEPT_SOURCE,
  EXAMPLES_PER_SET,
  MAX_CONCEPTS,
  MAX_CUSTOM_IMAGES,
  RANDOM_SETS,
  RANDOM_SOURCE,
  heldOut,
  pngOf,
  poolIndices,
  tcavLayers,
} from "./experiment.ts";

const PROTO = "metarank/v1/concepts.proto" as const;
/** One TCAV request's time limit in the pool (TCAV_TIME_LIMIT_MS, default 5 minutes). */
const tcavTimeLimitMs = () => Number(process.env.TCAV_TIME_LIMIT_MS) || 300_000;
const MAX_CUSTOM_BYTES = 2 * 1024 * 1024;

function conceptModel(m: ModelInfo): ConceptModel {
  return { id: m.id, dataset: m.dataset, layers: tcavLayers(m.layers), classNames: m.classNames, testAccuracy: m.testAccuracy };
}

/** A TCAV model: a checkpoint of the Inception-style architecture (the "GoogleNet" model slot, docs/product.md "Concepts"). */
function findModel(id: string): ModelInfo {
  const m = listModels().models.find((x) => x.id === id);
  if (!m) throw new InferenceInputError(`unknown model "${id}"`);
  if (m.arch !== "inception") throw new InferenceInputError(`model "${id}" is not an Inception-style network (the concept page's GoogleNet slot)`);
  return m;
}

const NAMES: ServiceNames = { service: "Concepts", what: "concepts", statuses: [[InferenceInputError, grpc.status.INVALID_ARGUMENT]] };
const unary = unaryHandlers(NAMES);

/** One TCAV request on the worker pool, for the unary and the streaming call alike. */
async function runTcavRequest(req: RunTcavRequest__Output, signal: AbortSignal, onProgress?: (done: number, total: number) => void): Promise<RunTcavReply> {
  const t0 = performance.now();
  const model = findModel(req.modelId);
  if (req.concepts.length + req.custom.length > MAX_CONCEPTS) throw new InferenceInputError(`choose at most ${MAX_CONCEPTS} concepts`);
  for (const c of req.custom) {
    if (c.images.length > MAX_CUSTOM_IMAGES) throw new InferenceInputError(`the concept "${c.name}" has more than ${MAX_CUSTOM_IMAGES} pictures`);
    if (c.images.some((b) => b.length > MAX_CUSTOM_BYTES)) throw new InferenceInputError(`a picture of the concept "${c.name}" is larger than 2 MiB`);
    if (!c.key || c.key.length > 128) throw new InferenceInputError("a custom concept needs a key of 1–128 characters");
  }
  const r = await thePool().tcav(
    {
      modelId: model.id,
      imageIndex: req.imageIndex,
      concepts: req.concepts,
      layers: req.layers,
      custom: req.custom.map((c) => ({ key: c.key, name: c.name.slice(0, 100), images: c.images.map((b) => new Uint8Array(b)) })),
    },
    { signal, timeLimitMs: tcavTimeLimitMs(), onProgress },
  );
  return {
    model: conceptModel(model),
    imageIndex: req.imageIndex,
    imagePng: Buffer.from(r.imagePng),
    groundTruth: r.groundTruth,
    predicted: r.predicted,
    probability: r.probability,
    targetClass: r.predicted,
    classInputs: r.classInputs,
    concepts: r.concepts.map((c, i) => ({
      name: r.names[i],
      layers: c.layers.map((l) => ({
        layer: l.layer,
        scores: l.scores,
        mean: l.mean,
        std: l.std,
        magnitude: l.magnitudes.reduce((s, v) => s + v, 0) / Math.max(1, l.magnitudes.length),
        cavAccuracy: l.cavAccuracy,
        pValue: l.pValue,
        significant: l.significant,
        probe: l.probe[0] ?? 0,
      })),
    })),
    random: r.random,
    randomSets: RANDOM_SETS,
    cavsTrained: r.cavsTrained,
    cavsReused: r.cavsReused,
    elapsedMs: performance.now() - t0,
  };
}

export function conceptsHandlers(): ConceptsHandlers {
  return {
    ConceptCatalogue: unary("ConceptCatalogue", (call) => {
      const samples = Math.min(4, call.request.samples);
      return {
        concepts: DTD_CATEGORIES.map((name) => {
          const available = canGenerate(name);
          return {
            name,
            available,
            examples: available ? EXAMPLES_PER_SET : 0,
            samplePng: available
              ? Array.from({ length: samples }, (_, i) => encodePng({ data: renderTextureImage(name, i), width: 32, height: 32, channels: 3 }))
              : [],
          };
        }),
        randomSets: RANDOM_SETS,
        examplesPerSet: EXAMPLES_PER_SET,
        randomSource: RANDOM_SOURCE,
        conceptSource: CONCEPT_SOURCE,
      };
    }),
    ConceptPool: unary("ConceptPool", (call) => {
      const model = findModel(call.request.modelId);
      const ds = heldOut(model.dataset);
      const indices = poolIndices(ds, call.request.seed, Math.min(16, Math.max(1, call.request.count || 8)));
      return {
        model: conceptModel(model),
        images: indices.map((index) => ({ index, png: pngOf(ds, index), label: ds.classNames[ds.labels[index]] ?? "" })),
      };
    }),
    RunTcav: unary("RunTcav", (call) => runTcavRequest(call.request, callSignal(call))),
    async RunTcavStream(call) {
      try {
        const reply = await runTcavRequest(call.request, callSignal(call), (done, total) => {
          if (!call.cancelled && call.writable) call.write({ progress: { done, total } });
        });
        if (call.cancelled) return;
        call.write({ result: reply });
        call.end();
      } catch (err) {
        if (!call.cancelled) call.emit("error", failureStatus(err, "RunTcavStream", NAMES));
      }
    },
  };
}

export const conceptsService: SidecarService = {
  name: "metarank.v1.Concepts",
  register(server) {
    server.addService(metarankV1(PROTO).Concepts.service, conceptsHandlers());
  },
};
