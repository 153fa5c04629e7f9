// The QuestionAnswering service through a real sidecar process (proto/metarank/v1/vqa.proto,
// docs/vqa.md): the model list carries the checkpoint's vocabulary and accuracies; a question is
// answered and explained on the worker pool (contributions add up to the explained change); words
// outside the vocabulary come back named, without an answer; bad input is INVALID_ARGUMENT.
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metarankV1 } from "../../proto/contract.ts";
import type { VqaModelsReply__Output } from "../../proto/generated/metarank/v1/VqaModelsReply.ts";
import type { AnswerQuestionReply__Output } from "../../proto/generated/metarank/v1/AnswerQuestionReply.ts";
import { encodePng } from "../../sidecar/data/png.ts";
import { VQA_IMAGE_SIZE, sceneQA } from "../../sidecar/vqa/scenesQA.ts";
import { readVqaManifest } from "../../sidecar/vqa/checkpoint.ts";
import { startTestSidecar, type TestSidecar } from "../support/sidecar.ts";

const manifest = readVqaManifest();
const scene = sceneQA("test", 3);
const png = encodePng({ height: VQA_IMAGE_SIZE, width: VQA_IMAGE_SIZE, channels: 3, data: scene.image });

let sidecar: TestSidecar<typeof client> | undefined;
let client: grpc.Client & Record<string, (...args: unknown[]) => unknown>;

function call<Res>(method: string, request: unknown): Promise<Res> {
  return new Promise((resolve, reject) => {
    client[method](request, { deadline: new Date(Date.now() + 60_000) }, (err: grpc.ServiceError | null, res: Res) => (err ? reject(err) : resolve(res)));
  });
}

beforeAll(async () => {
  sidecar = await startTestSidecar<typeof client>(metarankV1("metarank/v1/vqa.proto").QuestionAnswering);
  client = sidecar.client;
}, 120_000);

afterAll(() => sidecar?.stop());

describe("QuestionAnswering over gRPC", () => {
  it("lists the committed model with its vocabulary, answers and accuracies against both blind baselines", async () => {
    const { models } = await call<VqaModelsReply__Output>("VqaModels", {});
    expect(models).toHaveLength(1);
    const m = models[0];
    expect(m).toMatchObject({ id: manifest.id, dataset: manifest.dataset, inputHeight: VQA_IMAGE_SIZE, inputWidth: VQA_IMAGE_SIZE });
    expect(m.vocabulary).toContain("circle");
    expect(m.vocabulary.some((w) => w.startsWith("<"))).toBe(false);
    // Both languages, and the variants the tokenizer reads as the model's words (docs/vqa.md "Words").
    expect(m.vocabulary).toContain("颜色");
    expect(m.synonyms).toContainEqual({ written: "colour", readsAs: "color", language: "en" });
    expect(m.synonyms).toContainEqual({ written: "多少个", readsAs: "几个", language: "zh" });
    expect(m.testAccuracyZh).toBeGreaterThan(m.imageBlindAccuracy);
    expect(m.answers).toEqual(manifest.answers);
    expect(m.algorithms).toEqual(["IntegratedGradients", "LayerIntegratedGradients"]);
    expect(m.testAccuracy).toBeGreaterThan(m.imageBlindAccuracy);
    expect(m.testAccuracy).toBeGreaterThan(m.questionBlindAccuracy);
    expect(m.perType.map((p) => p.type)).toEqual(manifest.questionTypes);
  });

  it("answers and explains: the contributions add up to the explained change, one attribution per word", async () => {
    const qa = scene.questions[0];
    const r = await call<AnswerQuestionReply__Output>("AnswerQuestion", {
      modelId: manifest.id,
      algorithm: "IntegratedGradients",
      imagePng: png,
      question: qa.question.replace(/ /g, "_"),
      nSteps: 64,
    });
    expect(r.unknownWords).toEqual([]);
    expect(manifest.answers).toContain(r.answer);
    expect(r.top).toHaveLength(5);
    expect(r.top[0]).toMatchObject({ answer: r.answer });
    expect(r.tokens).toEqual(qa.question.replace("?", "").split(" "));
    expect(r.wordAttributions).toHaveLength(r.tokens.length);
    expect(r.textContribution + r.imageContribution).toBeCloseTo(r.totalContribution, 6);
    expect(Math.abs(r.delta)).toBeLessThan(0.05 * Math.max(1, Math.abs(r.totalContribution)));
    expect(r.nSteps).toBe(64);
    expect(r.heatmapPng.length).toBeGreaterThan(0);
    expect(r.explainedOutput).toBe(manifest.explainedOutput);
  });

  it("names unknown words instead of answering, and refuses bad input with INVALID_ARGUMENT", async () => {
    const r = await call<AnswerQuestionReply__Output>("AnswerQuestion", {
      modelId: manifest.id,
      algorithm: "IntegratedGradients",
      imagePng: png,
      question: "what colour is the banana",
    });
    // "colour" is read as "color" (scenesQA.ts VQA_SYNONYMS_EN); "banana" is unknown.
    expect(r.unknownWords).toEqual(["banana"]);
    expect(r.answer).toBe("");
    const refused = async (request: Record<string, unknown>) => {
      const err = await call("AnswerQuestion", {
        modelId: manifest.id,
        algorithm: "IntegratedGradients",
        imagePng: png,
        question: "is there a red circle",
        ...request,
      }).then(
        () => null,
        (e: grpc.ServiceError) => e,
      );
      expect(err?.code).toBe(grpc.status.INVALID_ARGUMENT);
      return err!.details;
    };
    expect(await refused({ algorithm: "GradCAM" })).toMatch(/unknown algorithm/);
    expect(await refused({ modelId: "nope" })).toMatch(/unknown question-answering model/);
    expect(await refused({ question: "" })).toMatch(/question/);
    expect(await refused({ imagePng: Buffer.from("not a picture") })).toMatch(/neither PNG nor JPEG/);
    const big = encodePng({ height: 40, width: 40, channels: 3, data: new Float32Array(40 * 40 * 3) });
    expect(await refused({ imagePng: big })).toMatch(/reads 32×32/);
  });
});
