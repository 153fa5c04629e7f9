// One /UserQuery request as a worker-pool job (sidecar/inference/worker.ts): decode the picture at
// the model's input size, answer the question, explain the answer over the image and the words
// (explain.ts), and draw the image attribution as the other demos do (sidecar/inference/heatmap.ts).
// A question with words outside the vocabulary is answered with those words and nothing else:
// the network never sees a word it was not trained on.
import { decodeImage, encodePng, sniffImageKind } from "../data/png.ts";
import { renderAttribution } from "../inference/heatmap.ts";
import { InferenceInputError } from "../inference/errors.ts";
import { answerQuestion, explainAnswer, loadVqaModel } from "./explain.ts";
import { tokenize } from "./vqaWords.ts";

export const VQA_ALGORITHM_NAMES = ["IntegratedGradients", "LayerIntegratedGradients"] as const;
export type VqaAlgorithmName = (typeof VQA_ALGORITHM_NAMES)[number];
export const VQA_DEFAULT_STEPS = 50;
export const VQA_MAX_STEPS = 300;

export interface VqaJob {
  modelId: string;
  algorithm: string;
  imagePng: Uint8Array;
  question: string;
  nSteps: number;
}

export type VqaJobResult =
  | { unknownWords: string[] }
  | {
      unknownWords: [];
      answer: string;
      probability: number;
      top: Array<{ answer: string; probability: number }>;
      tokens: string[];
      wordAttributions: number[];
      contributions: { text: number; image: number; total: number };
      delta: number;
      inputPng: Uint8Array;
      heatmapPng: Uint8Array;
      overlayPng: Uint8Array;
      algorithm: VqaAlgorithmName;
      nSteps: number;
      explainedOutput: string;
    };

export function vqaJob(req: VqaJob): VqaJobResult {
  const model = loadVqaModel();
  if (req.modelId !== model.manifest.id) throw new InferenceInputError(`unknown question-answering model "${req.modelId}"`);
  if (!(VQA_ALGORITHM_NAMES as readonly string[]).includes(req.algorithm))
    throw new InferenceInputError(`unknown algorithm "${req.algorithm}" (choose ${VQA_ALGORITHM_NAMES.join(" or ")})`);
  const steps = req.nSteps || VQA_DEFAULT_STEPS;
  if (!Number.isInteger(steps) || steps < 1 || steps > VQA_MAX_STEPS) throw new InferenceInputError(`n_steps must be 1–${VQA_MAX_STEPS}`);
  const tokens = tokenize(req.question);
  if (tokens.unknown.length) return { unknownWords: [...new Set(tokens.unknown)] };
  if (!tokens.tokens.length) throw new InferenceInputError("the question is empty");
  const [h, w] = model.manifest.inputShape;
  if (!sniffImageKind(req.imagePng)) throw new InferenceInputError("the image is neither PNG nor JPEG");
  const img = decodeImage(req.imagePng, 3, "the image");
  if (img.height !== h || img.width !== w)
    throw new InferenceInputError(`the image is ${img.width}×${img.height}; this model reads ${w}×${h} (resize it first)`);
  const top = answerQuestion(model, img.data, req.question).top;
  const r = explainAnswer(model, img.data, req.question, req.algorithm as VqaAlgorithmName, { nSteps: steps });
  const { heatmapPng, overlayPng } = renderAttribution({ shape: [1, h, w, 3], data: r.imageAttribution }, img);
  return {
    unknownWords: [],
    answer: r.answer,
    probability: r.probability,
    top,
    tokens: r.tokens,
    wordAttributions: r.wordAttributions,
    contributions: r.contributions,
    delta: r.delta,
    inputPng: encodePng(img),
    heatmapPng,
    overlayPng,
    algorithm: req.algorithm as VqaAlgorithmName,
    nSteps: steps,
    explainedOutput: model.manifest.explainedOutput,
  };
}
