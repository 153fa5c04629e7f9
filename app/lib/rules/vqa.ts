// The question-answering page's rules (docs/vqa.md): model, algorithm, image and question are
// required, checked in that order, one message at a time; an empty question gets "please enter the
// question you want to ask". A question may arrive with underscores for spaces (the original page
// sent it so); the sidecar's tokenizer splits on both, so a question reaches the model the same
// either way. Shared by the page and its action (app/routes/demos/questionAnswering.tsx).
import { z } from "zod";
import { messageRef } from "../forms/messages.ts";
import { textField } from "../forms/text.ts";
import { ALGORITHM_MAX, MODEL_ID_MAX } from "./classification.ts";

/** The algorithm choices for the multimodal model. */
export const VQA_ALGORITHMS = ["IntegratedGradients", "LayerIntegratedGradients"] as const;
export type VqaAlgorithm = (typeof VQA_ALGORITHMS)[number];

export const VQA_LIMITS = {
  /** A question is one short sentence, English or Chinese. */
  questionMax: 200,
  /** Dataset previews a page and pictures a preview (3 and 3, docs/product.md "Datasets and labelling"), pictures a page in step 2 (16). */
  previews: 3,
  picturesPerPage: 16,
} as const;

export const VQA_MSG = {
  chooseModel: messageRef("demo:msg.chooseModel"),
  chooseAlgorithm: messageRef("demo:msg.chooseAlgorithm"),
  chooseImage: messageRef("demo:msg.chooseImage"),
  enterQuestion: messageRef("vqa:msg.enterQuestion"),
  questionTooLong: messageRef("vqa:msg.questionTooLong", { max: VQA_LIMITS.questionMax }),
  success: messageRef("demo:msg.success"),
  notFound: messageRef("demo:msg.notFound"),
  noResult: messageRef("demo:msg.noResult"),
  modelsDown: messageRef("vqa:msg.modelsDown"),
  noModel: messageRef("vqa:msg.noModel"),
  unknownWords: (words: string[]) => messageRef("vqa:msg.unknownWords", { words: words.join(", ") }),
} as const;

const pictureField = z.string({ required_error: VQA_MSG.chooseImage, invalid_type_error: VQA_MSG.chooseImage }).regex(/^\d{1,15}$/, VQA_MSG.chooseImage);

export const vqaRunSchema = z.object({
  model: textField({ max: MODEL_ID_MAX, required: VQA_MSG.chooseModel }),
  algorithm: textField({ max: ALGORITHM_MAX, required: VQA_MSG.chooseAlgorithm }).refine(
    (v) => (VQA_ALGORITHMS as readonly string[]).includes(v),
    VQA_MSG.chooseAlgorithm,
  ),
  picture: pictureField,
  question: textField({ max: VQA_LIMITS.questionMax, required: VQA_MSG.enterQuestion, tooLong: VQA_MSG.questionTooLong }).refine(
    (v) => v.replace(/[\s_]+/g, "").length > 0,
    VQA_MSG.enterQuestion,
  ),
});

/** The order of checks (docs/product.md "Question answering"): model, algorithm, image, question; the page shows the first failing one. */
export const VQA_FIELD_ORDER = ["model", "algorithm", "picture", "question"] as const;
export type VqaField = "model" | "algorithm" | "image" | "question";

/** The question as the original site sent it (docs/product.md "Question answering"): spaces become underscores (the sidecar reads both). */
export const seedsQuestion = (q: string) => q.trim().replace(/\s+/g, "_");
