// The question-answering page's server side (docs/vqa.md): the models come from the sidecar's
// QuestionAnswering service, one answer with its explanation is one AnswerQuestion call, and every
// finished answer is kept in vqa_results keyed by (picture, model, checkpoint, algorithm,
// question), so asking again or reloading the result URL is served from the database. A result is
// shown only to a viewer who may see its picture.
import crypto from "node:crypto";
import sharp from "sharp";
import * as grpc from "@grpc/grpc-js";
import { UniqueConstraintError } from "sequelize";
import type { VqaModel__Output } from "../../proto/generated/metarank/v1/VqaModel.ts";
import { VqaResult } from "./db.server.ts";
import { findVisiblePicture, type Viewer } from "./datasets.server.ts";
import { ClassificationFailed, DEMO_BUSY, DemoRateLimited } from "./classification.server.ts";
import { demoModel, visiblePicture } from "./demoRuns.server.ts";
import { readStored } from "./pictures.server.ts";
import { SidecarCallError, rpc, unary } from "./sidecar.server.ts";
import { MODEL_LIST_TTL_MS, timedCache } from "./timedCache.server.ts";
import { demoVisitor, returnDemoRun, spendDemoRun } from "./throttle.server.ts";
import { VQA_MSG, type VqaAlgorithm } from "~/lib/rules/vqa.ts";

export interface VqaModelView {
  id: string;
  dataset: string;
  description: string;
  inputHeight: number;
  inputWidth: number;
  vocabulary: string[];
  answers: string[];
  testAccuracy: number;
  imageBlindAccuracy: number;
  questionBlindAccuracy: number;
  testQuestions: number;
  perType: { type: string; questions: number; model: number; imageBlind: number; questionBlind: number }[];
  algorithms: string[];
  examples: string[];
  /** Other words and phrases the tokenizer reads as the model's words; readsAs "" is a dropped filler. */
  synonyms: { written: string; readsAs: string; language: string }[];
  /** The same held-out questions asked in Chinese (0: not measured, an older checkpoint). */
  testAccuracyZh: number;
  imageBlindAccuracyZh: number;
}

/** The model as the sidecar lists it; the page calls its example questions `examples`. */
function toView({ exampleQuestions, ...m }: VqaModel__Output): VqaModelView {
  return { ...m, examples: exampleQuestions };
}

const models = timedCache(MODEL_LIST_TTL_MS, async (): Promise<VqaModelView[]> => {
  const r = await unary(rpc().vqa.VqaModels, {}, { deadlineMs: 10_000 });
  return r.models.map(toView);
});
/** The sidecar's question-answering models (cached for a minute: they change only when a checkpoint is added). */
export function vqaModels(): Promise<VqaModelView[]> {
  return models.get();
}

export interface VqaResultView {
  id: number;
  pictureId: number;
  modelId: string;
  algorithm: string;
  question: string;
  answer: string;
  probability: number;
  top: { answer: string; probability: number }[];
  tokens: string[];
  wordAttributions: number[];
  contributions: { text: number; image: number; total: number };
  delta: number;
  nSteps: number;
  explainedOutput: string;
  inputSrc: string;
  heatmapSrc: string;
  overlaySrc: string;
  seconds: number;
}

type StoredResult = Omit<VqaResultView, "id" | "pictureId" | "modelId" | "algorithm" | "question">;

export type AskOutcome = { kind: "answered"; resultId: number; cached: boolean } | { kind: "unknownWords"; words: string[]; vocabulary: string[] };

const dataUrl = (png: Buffer | Uint8Array) => `data:image/png;base64,${Buffer.from(png).toString("base64")}`;
/** The question as the model reads it: lower case, words split on spaces and underscores (the original site sent underscores: docs/product.md "Question answering"). */
const normalisedQuestion = (q: string) =>
  q
    .toLowerCase()
    .replace(/[\s_]+/g, " ")
    .trim();

/** Answers (or fetches from the store) one question about a picture the viewer may see. */
export async function askQuestion(
  viewer: Viewer,
  pictureId: string,
  modelId: string,
  algorithm: VqaAlgorithm,
  question: string,
  ip = "unknown",
  signal?: AbortSignal,
): Promise<AskOutcome> {
  // The visible picture and the named model, refused as the other demos refuse them (demoRuns.server.ts).
  const found = await visiblePicture(viewer, pictureId, VQA_MSG.notFound);
  const model = await demoModel(vqaModels, modelId);
  const asked = normalisedQuestion(question);
  const paramsKey = crypto
    .createHash("sha256")
    .update(JSON.stringify([found.picture.id, model.id, model.testAccuracy, algorithm, asked]))
    .digest("hex");
  const hit = await VqaResult.findOne({ where: { paramsKey } });
  if (hit) return { kind: "answered", resultId: hit.id, cached: true };

  const original = await readStored(found.picture.filePath);
  if (!original) throw new ClassificationFailed("demo:failure.fileMissing", found.picture.filePath);
  // The picture at the model's input size (centre crop), as the classification demo does.
  const input = await sharp(original, { limitInputPixels: 40_000_000, animated: false })
    .rotate()
    .resize(model.inputWidth, model.inputHeight, { fit: "cover" })
    .removeAlpha()
    .toColourspace("srgb")
    .png()
    .toBuffer();
  const visitor = demoVisitor(viewer, ip);
  const wait = await spendDemoRun(visitor);
  if (wait > 0) throw new DemoRateLimited(wait);
  let reply;
  try {
    reply = await unary(rpc().vqa.AnswerQuestion, { modelId: model.id, algorithm, imagePng: input, question: asked }, { deadlineMs: 120_000, signal });
  } catch (e) {
    await returnDemoRun(visitor);
    if (e instanceof SidecarCallError && e.code === grpc.status.RESOURCE_EXHAUSTED) throw new ClassificationFailed(DEMO_BUSY, e.details, true);
    throw new ClassificationFailed("demo:failure.didNotRun", (e as Error).message);
  }
  if (reply.unknownWords.length) {
    // Nothing ran on the network: the question cannot be read, which costs the visitor nothing.
    await returnDemoRun(visitor);
    return { kind: "unknownWords", words: reply.unknownWords, vocabulary: model.vocabulary };
  }
  if (!reply.heatmapPng.length || !reply.overlayPng.length) throw new ClassificationFailed("demo:failure.noHeatmap", "reply without images");
  const stored: StoredResult = {
    answer: reply.answer,
    probability: reply.probability,
    top: reply.top.map((t) => ({ answer: t.answer, probability: t.probability })),
    tokens: reply.tokens,
    wordAttributions: reply.wordAttributions,
    contributions: { text: reply.textContribution, image: reply.imageContribution, total: reply.totalContribution },
    delta: reply.delta,
    nSteps: reply.nSteps,
    explainedOutput: reply.explainedOutput,
    inputSrc: dataUrl(reply.inputPng),
    heatmapSrc: dataUrl(reply.heatmapPng),
    overlaySrc: dataUrl(reply.overlayPng),
    seconds: Math.round(reply.elapsedMs / 100) / 10,
  };
  try {
    const row = await VqaResult.create({
      paramsKey,
      pictureId: found.picture.id,
      modelId: model.id,
      algorithm,
      question: asked.slice(0, 200),
      resultJson: JSON.stringify(stored),
    });
    return { kind: "answered", resultId: row.id, cached: false };
  } catch (e) {
    // The same question finished twice at once: the first row stands.
    if (!(e instanceof UniqueConstraintError)) throw e;
    const first = await VqaResult.findOne({ where: { paramsKey } });
    if (!first) throw e;
    return { kind: "answered", resultId: first.id, cached: true };
  }
}

/** A stored answer, if the viewer may see its picture. */
export async function vqaResultFor(viewer: Viewer, id: unknown): Promise<VqaResultView | null> {
  if (typeof id !== "string" || !/^\d{1,15}$/.test(id)) return null;
  const row = await VqaResult.findByPk(Number(id));
  if (!row) return null;
  if (!(await findVisiblePicture(String(row.pictureId), viewer))) return null;
  const stored = JSON.parse(row.resultJson) as StoredResult;
  return { id: row.id, pictureId: row.pictureId, modelId: row.modelId, algorithm: row.algorithm, question: row.question, ...stored };
}
