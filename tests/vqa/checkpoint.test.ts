// The committed VQA checkpoint (sidecar/zoo/checkpoints/vqa-scenes) and its explanations
// (sidecar/vqa/explain.ts): held-out accuracy re-measured on a slice beats both blind
// baselines' committed accuracies, answers come with their top five, and both attribution
// algorithms are complete over the two inputs: the attributions of the image and of the words
// add up to F(input) − F(baseline) within 2 % of it (n_steps 600, Gauss–Legendre; the ReLU
// network's kinks along the path leave up to 5.4 % at 300 steps on the bilingual network, 0.4 % at
// 600, docs/vqa.md "Accuracy of the integral"; 600 steps took no longer than 300 here, 5.8 s).
import { beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { DEFAULT_VQA_CHECKPOINT, readVqaManifest } from "../../sidecar/vqa/checkpoint.ts";
import { answerQuestion, explainAnswer, loadVqaModel, type VqaModel } from "../../sidecar/vqa/explain.ts";
import { evaluate } from "../../sidecar/vqa/train.ts";
import { generateVqaSet, sceneQA } from "../../sidecar/vqa/scenesQA.ts";
import { QUESTION_TYPES, VQA_ANSWERS } from "../../sidecar/vqa/vqaWords.ts";

let model: VqaModel;
beforeAll(async () => {
  await initBackend("wasm");
  model = loadVqaModel();
});

describe("the committed VQA checkpoint", () => {
  it("is small, complete and describes its training", () => {
    const m = readVqaManifest();
    expect(fs.statSync(`${DEFAULT_VQA_CHECKPOINT}/${m.weightsFile}`).size).toBeLessThan(2 * 1024 * 1024);
    expect(m.answers).toEqual([...VQA_ANSWERS]);
    expect(m.questionTypes).toEqual([...QUESTION_TYPES]);
    expect(m.training.command).toMatch(/sidecar\/vqa\/train\.ts/);
    expect(m.training.trainImages).toBeGreaterThan(0);
    for (const k of ["model", "imageBlind", "questionBlind"] as const)
      for (const t of QUESTION_TYPES) expect(m.accuracy[k].perType[t]).toBeGreaterThanOrEqual(0);
    // What the checkpoint claims: the model beats both blind baselines by a wide margin.
    expect(m.accuracy.model.overall).toBeGreaterThan(m.accuracy.imageBlind.overall + 0.15);
    expect(m.accuracy.model.overall).toBeGreaterThan(m.accuracy.questionBlind.overall + 0.15);
  });

  it("answers held-out questions better than both blind baselines (re-measured on a slice)", () => {
    const m = model.manifest;
    const slice = generateVqaSet("test", 40, m.training.dataSeed);
    expect(slice.questionCount).toBeGreaterThan(300);
    const e = evaluate(model.net, slice);
    expect(e.overall).toBeGreaterThan(m.accuracy.imageBlind.overall + 0.1);
    expect(e.overall).toBeGreaterThan(m.accuracy.questionBlind.overall + 0.1);
    // …and agrees with the committed figure (the slice's sampling error is about ±3 points).
    expect(Math.abs(e.overall - m.accuracy.model.overall)).toBeLessThan(0.1);
  });

  it("answers the same held-out questions asked in Chinese (re-measured on a slice, docs/vqa.md)", () => {
    const m = model.manifest;
    const zh = m.accuracyZh!;
    expect(zh.testQuestions).toBe(m.training.testQuestions);
    const e = evaluate(model.net, generateVqaSet("test", 40, m.training.dataSeed, 0, "zh"));
    expect(e.overall).toBeGreaterThan(m.accuracy.imageBlind.overall + 0.1);
    expect(e.overall).toBeGreaterThan(m.accuracy.questionBlind.overall + 0.1);
    expect(Math.abs(e.overall - zh.model.overall)).toBeLessThan(0.1);
    // "What colour is the ball?" reads as "what color is the circle": the same tokens, so the same answer.
    const s = sceneQA("test", 5);
    const q = s.questions.find((q) => q.type === "count")!;
    expect(answerQuestion(model, s.image, q.questionZh).unknown).toEqual([]);
    expect(answerQuestion(model, s.image, "What colour is the ball?").tokens).toEqual(answerQuestion(model, s.image, "what color is the circle").tokens);
    expect(answerQuestion(model, s.image, "What colour is the ball?").answer).toBe(answerQuestion(model, s.image, "what color is the circle").answer);
  });

  it("answers with the most probable answer and its top five", () => {
    const s = sceneQA("test", 3);
    const q = s.questions.find((q) => q.type === "exist")!;
    const r = answerQuestion(model, s.image, q.question);
    expect(r.top).toHaveLength(5);
    expect(r.top[0]).toEqual({ answer: r.answer, probability: r.probability });
    for (let i = 1; i < 5; i++) expect(r.top[i].probability).toBeLessThanOrEqual(r.top[i - 1].probability);
    expect(r.unknown).toEqual([]);
    const odd = answerQuestion(model, s.image, "Is_there a purple blob?");
    expect(odd.unknown).toEqual(["purple", "blob"]);
    expect(odd.tokens).toEqual(["is", "there", "a", "purple", "blob"]);
    expect(() => answerQuestion(model, new Float32Array(10), q.question)).toThrow(/reads 32×32×3/);
  });
});

describe("explanations over the image and the question", () => {
  const cases = [
    { scene: 0, type: "colour" },
    { scene: 1, type: "position" },
    { scene: 2, type: "count" },
  ] as const;

  for (const algorithm of ["IntegratedGradients", "LayerIntegratedGradients"] as const) {
    it(`${algorithm}: complete over the two inputs (|delta| ≤ 2 % of F(x) − F(baseline), n_steps 600)`, () => {
      for (const c of cases) {
        const s = sceneQA("test", c.scene);
        const q = s.questions.find((q) => q.type === c.type)!;
        const r = explainAnswer(model, s.image, q.question, algorithm, { nSteps: 600 });
        const change = r.inputOutput - r.baselineOutput;
        expect(Math.abs(r.delta), `${q.question}: delta ${r.delta}, F(x) − F(x') ${change}`).toBeLessThanOrEqual(0.02 * Math.abs(change) + 1e-3);
        expect(r.contributions.total).toBeCloseTo(r.contributions.text + r.contributions.image, 5);
        expect(r.contributions.total - change).toBeCloseTo(r.delta, 3);
        expect(r.wordAttributions).toHaveLength(r.tokens.length);
        expect(r.wordAttributions.reduce((a, b) => a + b, 0)).toBeCloseTo(r.contributions.text, 3);
        expect(r.imageAttribution).toHaveLength(32 * 32 * 3);
        expect(r.answer).toBe(VQA_ANSWERS[r.target]);
        expect(r.answer).toBe(answerQuestion(model, s.image, q.question).answer);
      }
    });
  }

  it("the two algorithms differ only in the question's baseline (zero vectors vs <pad> embeddings)", () => {
    const s = sceneQA("test", 5);
    const q = s.questions[0];
    const ig = explainAnswer(model, s.image, q.question, "IntegratedGradients", { nSteps: 20 });
    const lig = explainAnswer(model, s.image, q.question, "LayerIntegratedGradients", { nSteps: 20 });
    expect(ig.inputOutput).toBeCloseTo(lig.inputOutput, 5);
    expect(ig.baselineOutput).not.toBeCloseTo(lig.baselineOutput, 3);
    expect(ig.target).toBe(lig.target);
  });

  it("explains another answer's logit on request, and leaks no tensors", () => {
    const s = sceneQA("test", 6);
    const q = s.questions[0];
    explainAnswer(model, s.image, q.question, "IntegratedGradients", { nSteps: 10 });
    const before = tf.memory().numTensors;
    const r = explainAnswer(model, s.image, q.question, "LayerIntegratedGradients", { nSteps: 10, target: VQA_ANSWERS.indexOf("no") });
    answerQuestion(model, s.image, q.question);
    expect(tf.memory().numTensors).toBe(before);
    expect(r.answer).toBe("no");
    expect(r.explainedOutput).toBe('logit of the answer "no"');
  });
});
