// Answers and explanations of the VQA network (docs/vqa.md "Explanations"), with the semantics of
// Captum's multimodal VQA tutorial:
//  - IntegratedGradients over the two inputs jointly: the image (baseline: a black image) and
//    the question's embedding vectors (baseline: all-zero vectors), moved together along the
//    straight path from the baselines to the inputs;
//  - LayerIntegratedGradients on the embedding layer: the embedding layer's output moved from the
//    embedding of an all-<pad> question (Captum's TokenReferenceBase) to the question's embedding,
//    the image moved from black to the image at the same time.
// For input u with baseline u' (u = the image or the embedded question):
//   attr(u) = (u − u') ⊙ Σ_k w_k · ∂F/∂u (image' + α_k (image − image'), emb' + α_k (emb − emb'))
// with (α_k, w_k) from the approximation rule (Gauss–Legendre by default, as Captum; the rules
// of sidecar/inference/attribution/approximation.ts). F is the logit of the explained answer (by
// default the predicted one), as the platform's IntegratedGradients explains the target logit.
// Word attributions sum attr(embedding) over the embedding dimension; the contributions are
// text = Σ word attributions, image = Σ image attribution, total = text + image, and the
// convergence delta is total − (F(inputs) − F(baselines)) (completeness: ≈ 0).
import * as tf from "@tensorflow/tfjs";
import { InferenceInputError } from "../inference/errors.ts";
import { approximationParameters, type ApproximationMethod } from "../inference/attribution/approximation.ts";
import { DEFAULT_VQA_CHECKPOINT, readVqaCheckpoint, type VqaManifest } from "./checkpoint.ts";
import { PAD_ID, VQA_ANSWERS, VQA_VOCABULARY, padIds, tokenize } from "./vqaWords.ts";
import { VqaNet } from "./vqaNet.ts";

export type VqaAlgorithm = "IntegratedGradients" | "LayerIntegratedGradients";
export const VQA_ALGORITHMS: readonly VqaAlgorithm[] = ["IntegratedGradients", "LayerIntegratedGradients"];
export const EXPLAINED_OUTPUT = "logit of the predicted answer";

export interface VqaModel {
  dir: string;
  manifest: VqaManifest;
  net: VqaNet;
}

const models = new Map<string, VqaModel>();

/**
 * The checkpoint's network, loaded once per folder and thread (the tfjs backend must be
 * initialised first). The checkpoint's vocabulary and answers must be this code's.
 */
export function loadVqaModel(dir = DEFAULT_VQA_CHECKPOINT): VqaModel {
  const hit = models.get(dir);
  if (hit) return hit;
  const { manifest, arrays } = readVqaCheckpoint(dir);
  if (manifest.vocabulary.join(" ") !== VQA_VOCABULARY.join(" ") || manifest.answers.join(" ") !== VQA_ANSWERS.join(" "))
    throw new Error(`the VQA checkpoint in ${dir} was trained with another vocabulary or answer set than sidecar/vqa/scenesQA.ts defines; retrain it`);
  const model = { dir, manifest, net: VqaNet.fromArrays(manifest.arch, arrays) };
  models.set(dir, model);
  return model;
}

/** Drops the cached networks (tests; a retrained checkpoint). */
export function forgetVqaModels(): void {
  for (const m of models.values()) m.net.dispose();
  models.clear();
}

interface Prepared {
  tokens: string[];
  unknown: string[];
  ids: number[];
}

function prepare(model: VqaModel, image: Float32Array, question: string): Prepared {
  const [h, w, c] = model.manifest.inputShape;
  if (image.length !== h * w * c) throw new InferenceInputError(`the image has ${image.length} values; this model reads ${h}×${w}×${c} = ${h * w * c}`);
  const { ids, tokens, unknown } = tokenize(question);
  const max = model.manifest.maxQuestionTokens;
  if (tokens.length > max) throw new InferenceInputError(`the question has ${tokens.length} words; the model reads at most ${max}`);
  return { tokens, unknown, ids: padIds(ids, max) };
}

function softmax(logits: ArrayLike<number>): number[] {
  let m = -Infinity;
  for (let i = 0; i < logits.length; i++) m = Math.max(m, logits[i]);
  const e = Array.from(logits, (v) => Math.exp(v - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
}

function logitsOf(model: VqaModel, image: Float32Array, ids: number[]): Float32Array {
  const [h, w, c] = model.manifest.inputShape;
  const out = tf.tidy(() => {
    const idsT = tf.tensor2d(ids, [1, ids.length], "int32");
    return model.net.forward(tf.tensor4d(image, [1, h, w, c]), model.net.embed(idsT), maskOfIds(ids));
  });
  const v = out.dataSync() as Float32Array;
  out.dispose();
  return v;
}

function maskOfIds(ids: number[], rows = 1): tf.Tensor2D {
  const m = new Float32Array(rows * ids.length);
  for (let r = 0; r < rows; r++) ids.forEach((id, t) => (m[r * ids.length + t] = id === PAD_ID ? 0 : 1));
  return tf.tensor2d(m, [rows, ids.length]);
}

export interface AnswerResult {
  answer: string;
  probability: number;
  /** The five most probable answers, most probable first. */
  top: Array<{ answer: string; probability: number }>;
  tokens: string[];
  /** Words outside the vocabulary (read as <unk>). */
  unknown: string[];
}

/** The network's answer to a question about an image (H·W·3 floats in [0, 1]). */
export function answerQuestion(model: VqaModel, image: Float32Array, question: string): AnswerResult {
  const p = prepare(model, image, question);
  const probs = softmax(logitsOf(model, image, p.ids));
  const order = probs.map((v, i) => [v, i] as const).sort((a, b) => b[0] - a[0]);
  const answers = model.manifest.answers;
  return {
    answer: answers[order[0][1]],
    probability: order[0][0],
    top: order.slice(0, 5).map(([v, i]) => ({ answer: answers[i], probability: v })),
    tokens: p.tokens,
    unknown: p.unknown,
  };
}

// ---- Integrated Gradients over (image, embedded question) -------------------------------

/** The explained output of each row of a batch: F(image_i, embedded_i), shape [N]. */
export type MultimodalOutput = (image: tf.Tensor4D, embedded: tf.Tensor3D) => tf.Tensor1D;

export interface MultimodalIgOptions {
  nSteps?: number;
  method?: ApproximationMethod;
  /** Path points per forward/backward pass (Captum's internal_batch_size); 64 by default. */
  internalBatchSize?: number;
}

export interface MultimodalIgResult {
  /** H·W·C attribution of the image. */
  image: Float32Array;
  /** T·D attribution of the embedded question. */
  embedded: Float32Array;
  /** F at the inputs and at the baselines. */
  inputOutput: number;
  baselineOutput: number;
  /** Σ attributions − (F(inputs) − F(baselines)). */
  delta: number;
}

/**
 * Integrated Gradients of a scalar output over two inputs moved jointly along the straight
 * line from their baselines: image [1, H, W, C] from `imageBaseline`, embedded question
 * [1, T, D] from `embeddedBaseline`. Captum's IntegratedGradients with a tuple of inputs, or
 * LayerIntegratedGradients when the second input is a layer's output.
 */
export function multimodalIntegratedGradients(
  f: MultimodalOutput,
  image: tf.Tensor4D,
  imageBaseline: tf.Tensor4D,
  embedded: tf.Tensor3D,
  embeddedBaseline: tf.Tensor3D,
  opts: MultimodalIgOptions = {},
): MultimodalIgResult {
  const nSteps = opts.nSteps ?? 50;
  const { alphas, stepSizes } = approximationParameters(opts.method ?? "gausslegendre", nSteps);
  const perPass = Math.max(1, opts.internalBatchSize ?? 64);
  const [, H, W, C] = image.shape;
  const [, T, D] = embedded.shape;
  const dImage = tf.sub(image, imageBaseline);
  const dEmb = tf.sub(embedded, embeddedBaseline);
  let gImage = tf.zeros([1, H, W, C]);
  let gEmb = tf.zeros([1, T, D]);
  try {
    for (let start = 0; start < nSteps; start += perPass) {
      const n = Math.min(perPass, nSteps - start);
      const a = alphas.slice(start, start + n);
      const wts = stepSizes.slice(start, start + n);
      const [gi, ge] = tf.tidy(() => {
        const al4 = tf.tensor4d(a, [n, 1, 1, 1]);
        const al3 = tf.tensor3d(a, [n, 1, 1]);
        const imgs = tf.add(imageBaseline, tf.mul(al4, dImage)) as tf.Tensor4D;
        const embs = tf.add(embeddedBaseline, tf.mul(al3, dEmb)) as tf.Tensor3D;
        const [gImg, gE] = tf.grads((x: tf.Tensor, e: tf.Tensor) => tf.sum(f(x as tf.Tensor4D, e as tf.Tensor3D)))([imgs, embs]);
        // Σ_k w_k · gradient_k for this pass's points.
        const wi = tf.tensor4d(wts, [n, 1, 1, 1]);
        const we = tf.tensor3d(wts, [n, 1, 1]);
        return [tf.sum(tf.mul(gImg, wi), 0, true), tf.sum(tf.mul(gE, we), 0, true)];
      });
      const ni = tf.add(gImage, gi),
        ne = tf.add(gEmb, ge);
      tf.dispose([gImage, gEmb, gi, ge]);
      gImage = ni;
      gEmb = ne;
    }
    const attrImage = tf.tidy(() => tf.mul(gImage, dImage));
    const attrEmb = tf.tidy(() => tf.mul(gEmb, dEmb));
    const imageAttr = attrImage.dataSync() as Float32Array;
    const embAttr = attrEmb.dataSync() as Float32Array;
    tf.dispose([attrImage, attrEmb]);
    const ends = tf.tidy(() => f(tf.concat([image, imageBaseline], 0) as tf.Tensor4D, tf.concat([embedded, embeddedBaseline], 0) as tf.Tensor3D));
    const [fx, fb] = ends.dataSync();
    ends.dispose();
    let total = 0;
    for (const v of imageAttr) total += v;
    for (const v of embAttr) total += v;
    return { image: imageAttr, embedded: embAttr, inputOutput: fx, baselineOutput: fb, delta: total - (fx - fb) };
  } finally {
    tf.dispose([dImage, dEmb, gImage, gEmb]);
  }
}

export interface ExplainOptions {
  nSteps?: number;
  method?: ApproximationMethod;
  /** The answer index whose logit is explained; the predicted answer by default. */
  target?: number;
  internalBatchSize?: number;
}

export interface ExplainResult {
  answer: string;
  probability: number;
  /** Index of the explained answer in the model's answers. */
  target: number;
  tokens: string[];
  /** H·W·3 attribution of the image. */
  imageAttribution: Float32Array;
  /** One per token: its embedding vector's attribution summed over the embedding dimension. */
  wordAttributions: number[];
  contributions: { text: number; image: number; total: number };
  /** total − (F(input) − F(baseline)). */
  delta: number;
  /** F (the explained logit) at the inputs and at the baselines. */
  inputOutput: number;
  baselineOutput: number;
  algorithm: VqaAlgorithm;
  nSteps: number;
  explainedOutput: string;
}

/**
 * Explains the network's answer to a question about an image with IntegratedGradients (inputs:
 * image and question embeddings; baselines: black image, zero vectors) or LayerIntegratedGradients
 * (embedding layer; baselines: black image, the all-<pad> question's embeddings).
 */
export function explainAnswer(model: VqaModel, image: Float32Array, question: string, algorithm: VqaAlgorithm, opts: ExplainOptions = {}): ExplainResult {
  if (!VQA_ALGORITHMS.includes(algorithm)) throw new InferenceInputError(`unknown algorithm "${algorithm}" (choose ${VQA_ALGORITHMS.join(" or ")})`);
  const p = prepare(model, image, question);
  const answers = model.manifest.answers;
  const probs = softmax(logitsOf(model, image, p.ids));
  const target = opts.target ?? probs.indexOf(Math.max(...probs));
  if (!Number.isInteger(target) || target < 0 || target >= answers.length)
    throw new InferenceInputError(`target ${target} is not an answer index (0..${answers.length - 1})`);
  const nSteps = opts.nSteps ?? 50;
  const [h, w, c] = model.manifest.inputShape;
  const T = p.ids.length;
  const net = model.net;

  const x = tf.tensor4d(image, [1, h, w, c]);
  const x0 = tf.zerosLike(x);
  const ids = tf.tensor2d(p.ids, [1, T], "int32");
  const e = net.embed(ids);
  const padIdsT = tf.fill([1, T], PAD_ID, "int32") as tf.Tensor2D;
  const e0 = algorithm === "IntegratedGradients" ? tf.zerosLike(e) : net.embed(padIdsT);
  const mask1 = maskOfIds(p.ids);
  try {
    const f: MultimodalOutput = (img, emb) =>
      tf.tidy(() => {
        const n = img.shape[0];
        const mask = tf.tile(mask1, [n, 1]) as tf.Tensor2D;
        const logits = net.forward(img, emb, mask);
        return tf.reshape(tf.slice(logits, [0, target], [n, 1]), [n]) as tf.Tensor1D;
      });
    const r = multimodalIntegratedGradients(f, x, x0, e, e0, { nSteps, method: opts.method, internalBatchSize: opts.internalBatchSize });
    const D = e.shape[2];
    const wordAttributions = p.tokens.map((_, t) => {
      let s = 0;
      for (let d = 0; d < D; d++) s += r.embedded[t * D + d];
      return s;
    });
    // Pad positions get exactly zero (their gradient is masked), so the text contribution is the words'.
    let text = 0;
    for (const v of r.embedded) text += v;
    let img = 0;
    for (const v of r.image) img += v;
    return {
      answer: answers[target],
      probability: probs[target],
      target,
      tokens: p.tokens,
      imageAttribution: r.image,
      wordAttributions,
      contributions: { text, image: img, total: text + img },
      delta: r.delta,
      inputOutput: r.inputOutput,
      baselineOutput: r.baselineOutput,
      algorithm,
      nSteps,
      explainedOutput: opts.target === undefined ? EXPLAINED_OUTPUT : `logit of the answer "${answers[target]}"`,
    };
  } finally {
    tf.dispose([x, x0, ids, e, e0, mask1, padIdsT]);
  }
}
