// gRPC service metarank.v1.QuestionAnswering (proto/metarank/v1/vqa.proto, docs/vqa.md). The model
// list is the checkpoint's manifest (main thread, microseconds); answering back-propagates through
// the network n_steps times, so it runs on the sidecar's worker pool with a time limit and the
// caller's cancellation, as inference and TCAV do. Failures map to statuses through the shared
// wrapper (sidecar/grpc/unary.ts): bad input is INVALID_ARGUMENT, a pool refusal keeps its status.
import * as grpc from "@grpc/grpc-js";
import { metarankV1 } from "../../proto/contract.ts";
import type { QuestionAnsweringHandlers } from "../../proto/generated/metarank/v1/QuestionAnswering.ts";
import type { VqaModel } from "../../proto/generated/metarank/v1/VqaModel.ts";
import { unaryHandlers, type ServiceNames } from "../grpc/unary.ts";
import { logger } from "../log.ts";
import type { SidecarService } from "../services.ts";
import { InferenceInputError } from "../inference/errors.ts";
import { callSignal, thePool } from "../inference/thePool.ts";
import { readVqaManifest, type VqaManifest } from "./checkpoint.ts";
import { VQA_ALGORITHM_NAMES } from "./job.ts";
import { VQA_SYNONYMS_EN, VQA_SYNONYMS_ZH } from "./vqaWords.ts";

const PROTO = "metarank/v1/vqa.proto" as const;
/** One answer's time limit in the pool (VQA_TIME_LIMIT_MS, default 60 s). */
const vqaTimeLimitMs = () => Number(process.env.VQA_TIME_LIMIT_MS) || 60_000;
const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
const MAX_QUESTION = 200;

let manifestCache: VqaManifest | null = null;
function manifest(): VqaManifest {
  return (manifestCache ??= readVqaManifest());
}

function toModel(m: VqaManifest): VqaModel {
  const types = m.questionTypes;
  return {
    id: m.id,
    dataset: m.dataset,
    description: m.description,
    inputHeight: m.inputShape[0],
    inputWidth: m.inputShape[1],
    vocabulary: m.vocabulary.filter((w) => !w.startsWith("<")),
    answers: m.answers,
    testAccuracy: m.accuracy.model.overall,
    imageBlindAccuracy: m.accuracy.imageBlind.overall,
    questionBlindAccuracy: m.accuracy.questionBlind.overall,
    perType: types.map((type) => ({
      type,
      questions: m.training.testQuestionsPerType[type] ?? 0,
      model: m.accuracy.model.perType[type] ?? 0,
      imageBlind: m.accuracy.imageBlind.perType[type] ?? 0,
      questionBlind: m.accuracy.questionBlind.perType[type] ?? 0,
    })),
    algorithms: [...VQA_ALGORITHM_NAMES],
    exampleQuestions: m.exampleQuestions,
    testQuestions: m.training.testQuestions,
    // What the tokenizer reads as the model's words (scenesQA.ts), so the page can list them.
    synonyms: [
      ...VQA_SYNONYMS_EN.map(([written, readsAs]) => ({ written, readsAs, language: "en" })),
      ...VQA_SYNONYMS_ZH.map(([written, readsAs]) => ({ written, readsAs, language: "zh" })),
    ],
    testAccuracyZh: m.accuracyZh?.model.overall ?? 0,
    imageBlindAccuracyZh: m.accuracyZh?.imageBlind?.overall ?? 0,
  };
}

const NAMES: ServiceNames = { service: "QuestionAnswering", what: "question-answering", statuses: [[InferenceInputError, grpc.status.INVALID_ARGUMENT]] };
const unary = unaryHandlers(NAMES);

export function vqaHandlers(): QuestionAnsweringHandlers {
  return {
    VqaModels: unary("VqaModels", () => {
      try {
        return { models: [toModel(manifest())] };
      } catch (err) {
        // No checkpoint on this host: no models, not an error (the page says none is installed).
        logger.warn({ err }, "no question-answering checkpoint");
        return { models: [] };
      }
    }),
    AnswerQuestion: unary(
      "AnswerQuestion",
      async (call) => {
        const t0 = performance.now();
        const req = call.request;
        if (req.imagePng.length === 0) throw new InferenceInputError("send the image as PNG or JPEG bytes");
        if (req.imagePng.length > MAX_IMAGE_BYTES) throw new InferenceInputError("the image is larger than 2 MiB");
        if (!req.question.trim()) throw new InferenceInputError("please enter the question you want to ask");
        if (req.question.length > MAX_QUESTION) throw new InferenceInputError(`the question is longer than ${MAX_QUESTION} characters`);
        const r = await thePool().vqa(
          { modelId: req.modelId, algorithm: req.algorithm, imagePng: new Uint8Array(req.imagePng), question: req.question, nSteps: req.nSteps },
          { signal: callSignal(call), timeLimitMs: vqaTimeLimitMs() },
        );
        if (r.unknownWords.length || !("answer" in r)) return { unknownWords: r.unknownWords, elapsedMs: performance.now() - t0 };
        return {
          unknownWords: [],
          answer: r.answer,
          probability: r.probability,
          top: r.top,
          tokens: r.tokens,
          wordAttributions: r.wordAttributions,
          textContribution: r.contributions.text,
          imageContribution: r.contributions.image,
          totalContribution: r.contributions.total,
          delta: r.delta,
          inputPng: Buffer.from(r.inputPng),
          heatmapPng: Buffer.from(r.heatmapPng),
          overlayPng: Buffer.from(r.overlayPng),
          algorithm: r.algorithm,
          nSteps: r.nSteps,
          explainedOutput: r.explainedOutput,
          elapsedMs: performance.now() - t0,
        };
      },
      (req) => ({ model: req.modelId, algorithm: req.algorithm }),
    ),
  };
}

export const vqaService: SidecarService = {
  name: "metarank.v1.QuestionAnswering",
  register(server) {
    server.addService(metarankV1(PROTO).QuestionAnswering.service, vqaHandlers());
  },
};
