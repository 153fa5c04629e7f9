// Trains the VQA network on the question-answer scenes (docs/vqa.md "Training"):
//   npx tsx sidecar/vqa/train.ts [--epochs N] [--out sidecar/zoo/checkpoints/vqa-scenes]
//        [--images-per-epoch N] [--reuse-images] [--test-images N] [--batch-images B]
//        [--lr LR] [--seed S] [--data-seed S] [--no-baselines] [--baselines-from DIR] [--no-save] [--quiet]
// Adam with a cosine-decayed learning rate; a mini-batch is B images with all their
// questions (each image, and each distinct question, is encoded once per step and shared);
// every epoch reads new training images unless --reuse-images; seeded initialisation and
// shuffling, so a run is reproducible. The same network and recipe are trained twice more
// as blind baselines: image-blind (every image black: it sees the question only) and
// question-blind (every question all pads: it sees the image only). Reports held-out
// accuracy overall and per question type for all three and writes the checkpoint (the
// model's weights as float16, evaluated as stored).
import * as tf from "@tensorflow/tfjs";
import { parseArgs } from "node:util";
import { initBackend } from "../inference/runtime/backend.ts";
import { Rng } from "../data/prng.ts";
import { roundToHalf } from "../zoo/half.ts";
import { VQA_DEFAULT_SEED, VQA_IMAGE_SIZE, VQA_TEST_IMAGES, VQA_TRAIN_IMAGES, generateVqaSet, type VqaSet } from "./scenesQA.ts";
import { MAX_QUESTION_TOKENS, PAD_ID, QUESTION_TYPES, VQA_ANSWERS, VQA_VOCABULARY } from "./vqaWords.ts";
import { VqaNet, type VqaArch } from "./vqaNet.ts";
import { DEFAULT_VQA_CHECKPOINT, readVqaCheckpoint, readVqaManifest, writeVqaCheckpoint, type AccuracyReport, type VqaManifest } from "./checkpoint.ts";

export const DEFAULT_ARCH: VqaArch = {
  imageSize: VQA_IMAGE_SIZE,
  vocabSize: VQA_VOCABULARY.length,
  numAnswers: VQA_ANSWERS.length,
  maxTokens: MAX_QUESTION_TOKENS,
  embedDim: 32,
  convFilters: [32, 32, 32],
  convStrides: [2, 2, 2],
  gruUnits: 96,
  filmUnits: 64,
  filmLayers: 2,
  mlpUnits: 256,
};

export type Blind = "none" | "image" | "question";

export interface VqaTrainOptions {
  epochs: number;
  batchImages: number;
  lr: number;
  seed: number;
  dataSeed: number;
  /** Training images an epoch; with `freshImages` every epoch reads new ones. */
  imagesPerEpoch: number;
  freshImages: boolean;
  testImages: number;
  arch: VqaArch;
  out: string | null;
  baselines: boolean;
  /**
   * Instead of training the two blind baselines, take their held-out figures from this checkpoint
   * (same images, questions, network and recipe): on the shared 2-core machine the three trainings
   * did not fit one session once Chinese was added (docs/vqa.md "The committed run"). The manifest
   * says where they came from.
   */
  baselinesFrom: string | null;
  /** Start the model (not the baselines) from this checkpoint's weights instead of a seeded initialisation. */
  initFrom: string | null;
  /** First training image of the run (a run continuing another reads the images after the ones it read). */
  imageOffset: number;
  quiet: boolean;
  command: string;
}

const IMG = VQA_IMAGE_SIZE * VQA_IMAGE_SIZE * 3;

/** First question row of every image (rows are stored image by image), plus the end. */
function questionStarts(set: VqaSet): Int32Array {
  const starts = new Int32Array(set.imageCount + 1).fill(set.questionCount);
  for (let q = set.questionCount - 1; q >= 0; q--) starts[set.imageOf[q]] = q;
  for (let i = set.imageCount - 1; i >= 0; i--) if (starts[i] > starts[i + 1]) starts[i] = starts[i + 1];
  return starts;
}

interface Batch {
  images: tf.Tensor4D;
  imageOf: tf.Tensor1D;
  /** The batch's distinct questions (token ids) and which one each row asks. */
  questions: tf.Tensor2D;
  questionOf: tf.Tensor1D;
  answers: Int32Array;
  types: Int32Array;
}

/**
 * The tensors of a batch of images and all their questions, with the blinding applied.
 * An image-blind batch is two black images shared by the rows, a question-blind batch two
 * all-pad questions: the same values as blanking every row, encoded once. (Two, not one: the
 * gradient of a gather into a single row fails in the wasm backend's segment sum, which
 * builds a one-hot of depth 1.)
 */
function makeBatch(set: VqaSet, starts: Int32Array, imageIdx: ArrayLike<number>, blind: Blind): Batch {
  const T = MAX_QUESTION_TOKENS;
  const b = blind === "image" ? 2 : imageIdx.length;
  const imgs = new Float32Array(b * IMG);
  const imageOf: number[] = [];
  const questionOf: number[] = [];
  const distinct = new Map<string, number>();
  const qids: number[] = [];
  const answers: number[] = [];
  const types: number[] = [];
  for (let k = 0; k < imageIdx.length; k++) {
    const i = imageIdx[k];
    if (blind !== "image") imgs.set(set.images.subarray(i * IMG, (i + 1) * IMG), k * IMG);
    for (let q = starts[i]; q < starts[i + 1]; q++) {
      const ids = blind === "question" ? new Int32Array(T) : set.questionIds.subarray(q * T, (q + 1) * T);
      const key = blind === "question" ? String(q % 2) : ids.join(",");
      let u = distinct.get(key);
      if (u === undefined) {
        u = distinct.size;
        distinct.set(key, u);
        qids.push(...ids);
      }
      imageOf.push(blind === "image" ? q % 2 : k);
      questionOf.push(u);
      answers.push(set.answers[q]);
      types.push(set.types[q]);
    }
  }
  // Unroll the GRU only as far as the batch's longest question: the steps after it are pads,
  // which leave the state unchanged, so the values are those of the full length.
  let steps = 1;
  for (let r = 0; r < distinct.size; r++) for (let t = steps; t < T; t++) if (qids[r * T + t] !== PAD_ID) steps = t + 1;
  const trimmed: number[] = [];
  for (let r = 0; r < distinct.size; r++) trimmed.push(...qids.slice(r * T, r * T + steps));
  return {
    images: tf.tensor4d(imgs, [b, VQA_IMAGE_SIZE, VQA_IMAGE_SIZE, 3]),
    imageOf: tf.tensor1d(imageOf, "int32"),
    questions: tf.tensor2d(trimmed, [distinct.size, steps], "int32"),
    questionOf: tf.tensor1d(questionOf, "int32"),
    answers: Int32Array.from(answers),
    types: Int32Array.from(types),
  };
}

function disposeBatch(b: Batch): void {
  tf.dispose([b.images, b.imageOf, b.questions, b.questionOf]);
}

export interface Evaluation extends AccuracyReport {
  questions: number;
  questionsPerType: Record<string, number>;
}

/** Held-out accuracy, overall and per question type, of a network (blinded like its training). */
export function evaluate(net: VqaNet, set: VqaSet, blind: Blind = "none", batchImages = 100): Evaluation {
  const starts = questionStarts(set);
  const right = new Array<number>(QUESTION_TYPES.length).fill(0);
  const total = new Array<number>(QUESTION_TYPES.length).fill(0);
  for (let s = 0; s < set.imageCount; s += batchImages) {
    const idx = Array.from({ length: Math.min(batchImages, set.imageCount - s) }, (_, k) => s + k);
    const batch = makeBatch(set, starts, idx, blind);
    const predT = tf.tidy(() => tf.argMax(net.forwardShared(batch.images, batch.imageOf, batch.questions, batch.questionOf), 1));
    const pred = predT.dataSync();
    predT.dispose();
    for (let r = 0; r < pred.length; r++) {
      total[batch.types[r]]++;
      if (pred[r] === batch.answers[r]) right[batch.types[r]]++;
    }
    disposeBatch(batch);
  }
  const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
  const round = (x: number) => Math.round(x * 10000) / 10000;
  return {
    overall: round(sum(right) / Math.max(1, sum(total))),
    perType: Object.fromEntries(QUESTION_TYPES.map((t, i) => [t, round(right[i] / Math.max(1, total[i]))])),
    questions: sum(total),
    questionsPerType: Object.fromEntries(QUESTION_TYPES.map((t, i) => [t, total[i]])),
  };
}

/** Trains one network (the model, or a blind baseline) with the shared recipe. */
export function trainNetwork(sets: VqaSet[], blind: Blind, opts: VqaTrainOptions, log: (s: string) => void): VqaNet {
  const net = VqaNet.init(opts.arch, opts.seed);
  if (blind === "none" && opts.initFrom) {
    const from = new Map(readVqaCheckpoint(opts.initFrom).arrays.map((a) => [a.name, a]));
    for (const [name, v] of net.weights) {
      const a = from.get(name);
      if (!a || a.shape.join("x") !== v.shape.join("x")) throw new Error(`--init-from ${opts.initFrom}: no weight ${name} of shape ${v.shape.join("×")}`);
      v.assign(tf.tensor(a.data, a.shape));
    }
  }
  const rng = new Rng(opts.seed ^ 0x5eed);
  const vars = [...net.weights.values()];
  const optimizer = tf.train.adam(opts.lr);
  const totalSteps = Array.from({ length: opts.epochs }, (_, e) => Math.ceil(sets[e % sets.length].imageCount / opts.batchImages)).reduce((a, b) => a + b, 0);
  let step = 0;
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    const t0 = Date.now();
    const set = sets[epoch % sets.length];
    const starts = questionStarts(set);
    const steps = Math.ceil(set.imageCount / opts.batchImages);
    const order = rng.permutation(set.imageCount);
    let lossSum = 0,
      right = 0,
      seen = 0;
    for (let s = 0; s < steps; s++, step++) {
      (optimizer as unknown as { learningRate: number }).learningRate = opts.lr * (0.02 + 0.98 * 0.5 * (1 + Math.cos((Math.PI * step) / totalSteps)));
      const batch = makeBatch(set, starts, order.subarray(s * opts.batchImages, Math.min((s + 1) * opts.batchImages, set.imageCount)), blind);
      const labels = tf.tensor1d(batch.answers, "int32");
      const y = tf.oneHot(labels, opts.arch.numAnswers);
      let pred: tf.Tensor | null = null;
      const loss = optimizer.minimize(
        () => {
          const logits = net.forwardShared(batch.images, batch.imageOf, batch.questions, batch.questionOf);
          pred = tf.keep(tf.argMax(logits, 1));
          return tf.losses.softmaxCrossEntropy(y, logits) as tf.Scalar;
        },
        true,
        vars,
      )!;
      const p = (pred as tf.Tensor | null)!.dataSync();
      for (let r = 0; r < p.length; r++) if (p[r] === batch.answers[r]) right++;
      seen += p.length;
      lossSum += loss.dataSync()[0] * p.length;
      tf.dispose([loss, pred!, labels, y]);
      disposeBatch(batch);
    }
    log(
      `  ${blind === "none" ? "model" : blind + "-blind"} epoch ${epoch + 1}/${opts.epochs}: loss ${(lossSum / seen).toFixed(4)}, train accuracy ${((100 * right) / seen).toFixed(1)} % (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
    );
  }
  optimizer.dispose();
  return net;
}

/** The network as the checkpoint stores it: every weight rounded to float16. */
function asStored(net: VqaNet): VqaNet {
  return VqaNet.fromArrays(
    net.arch,
    [...net.weights].map(([name, v]) => ({ name, shape: v.shape, data: roundToHalf(v.dataSync() as Float32Array) })),
  );
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

function table(rows: Array<[string, Evaluation]>): string {
  const head = ["", "overall", ...QUESTION_TYPES].map((s) => s.padStart(14)).join("");
  const lines = rows.map(([name, e]) => [name, pct(e.overall), ...QUESTION_TYPES.map((t) => pct(e.perType[t]))].map((s) => s.padStart(14)).join(""));
  return [head, ...lines].join("\n");
}

export interface VqaTrainResult {
  model: Evaluation;
  modelZh: Evaluation;
  imageBlind: Evaluation | null;
  questionBlind: Evaluation | null;
  manifest: VqaManifest | null;
  net: VqaNet;
}

export async function trainVqa(opts: VqaTrainOptions): Promise<VqaTrainResult> {
  const backend = await initBackend();
  const log = (s: string) => {
    if (!opts.quiet) process.stderr.write(s + "\n");
  };
  const t0 = Date.now();
  // Fresh images every epoch (epoch e reads train images e·N … (e+1)·N − 1), or one block reused.
  const blocks = opts.freshImages ? opts.epochs : 1;
  // Each training question is asked in English and in Chinese (two rows; docs/vqa.md "Chinese"):
  // one network reads both languages, each with the examples the English-only network had.
  const train = Array.from({ length: blocks }, (_, e) =>
    generateVqaSet("train", opts.imagesPerEpoch, opts.dataSeed, opts.imageOffset + e * opts.imagesPerEpoch, "both"),
  );
  const trainImages = train.reduce((s, t) => s + t.imageCount, 0);
  const trainQuestions = train.reduce((s, t) => s + t.questionCount, 0);
  const test = generateVqaSet("test", opts.testImages, opts.dataSeed);
  // The same held-out images and questions, asked in Chinese.
  const testZh = generateVqaSet("test", opts.testImages, opts.dataSeed, 0, "zh");
  log(
    `VQA scenes: ${trainImages} train images / ${trainQuestions} questions (${opts.imagesPerEpoch} ${opts.freshImages ? "new " : ""}images an epoch), ${test.imageCount} test images / ${test.questionCount} questions (data seed ${opts.dataSeed}); ${backend.name} backend`,
  );

  const tModel = Date.now();
  const trained = trainNetwork(train, "none", opts, log);
  const modelSeconds = Math.round((Date.now() - tModel) / 1000);
  const net = asStored(trained);
  trained.dispose();
  const model = evaluate(net, test);
  const modelZh = evaluate(net, testZh);
  log(`model (${net.parameterCount} parameters, ${modelSeconds} s): held-out accuracy ${pct(model.overall)} (English), ${pct(modelZh.overall)} (Chinese)`);
  log(
    table([
      ["model", model],
      ["model (zh)", modelZh],
    ]),
  );

  let imageBlind: Evaluation | null = null,
    questionBlind: Evaluation | null = null,
    imageBlindZh: Evaluation | null = null;
  let baselinesNote = "trained in this run";
  if (opts.baselinesFrom) {
    // A read checkpoint's figures (held-out accuracy on the same 1000 test images); no Chinese image-blind figure.
    const from = readVqaManifest(opts.baselinesFrom);
    const asEval = (r: AccuracyReport): Evaluation => ({ ...r, questions: model.questions, questionsPerType: model.questionsPerType });
    imageBlind = asEval(from.accuracy.imageBlind);
    questionBlind = asEval(from.accuracy.questionBlind);
    baselinesNote = `taken from the checkpoint trained ${from.training.trainedAt} by "${from.training.command}" (English questions; the same images, network and recipe)`;
    log(`blind baselines ${baselinesNote}`);
  } else if (opts.baselines) {
    for (const blind of ["image", "question"] as const) {
      const b = trainNetwork(train, blind, opts, log);
      const e = evaluate(b, test, blind);
      // The question-blind network never reads a word, so only the image-blind one has a Chinese figure of its own.
      if (blind === "image") imageBlindZh = evaluate(b, testZh, blind);
      b.dispose();
      log(`${blind}-blind baseline: held-out accuracy ${pct(e.overall)}`);
      if (blind === "image") imageBlind = e;
      else questionBlind = e;
    }
  }
  const rows: Array<[string, Evaluation]> = [["model", model]];
  if (imageBlind) rows.push(["image-blind", imageBlind]);
  if (questionBlind) rows.push(["question-blind", questionBlind]);
  rows.push(["model (zh)", modelZh]);
  if (imageBlindZh) rows.push(["image-blind (zh)", imageBlindZh]);
  log(table(rows));

  let manifest: VqaManifest | null = null;
  if (opts.out) {
    if (!imageBlind || !questionBlind) throw new Error("a checkpoint records the blind baselines: train without --no-baselines");
    const report = (e: Evaluation): AccuracyReport => ({ overall: e.overall, perType: e.perType });
    manifest = writeVqaCheckpoint(
      opts.out,
      {
        id: "vqa-scenes",
        dataset: "vqa-scenes",
        description:
          "CNN image encoder (4×4 feature map with coordinates) and GRU question encoder fused by FiLM (two layers), with an MLP over the modulated map; trained on the platform's generated question-answer scenes, questions in English and Chinese (docs/vqa.md).",
        arch: opts.arch,
        inputShape: [VQA_IMAGE_SIZE, VQA_IMAGE_SIZE, 3],
        vocabulary: [...VQA_VOCABULARY],
        answers: [...VQA_ANSWERS],
        questionTypes: [...QUESTION_TYPES],
        maxQuestionTokens: MAX_QUESTION_TOKENS,
        explainedOutput: "logit of the predicted answer",
        exampleQuestions: [
          "what color is the circle?",
          "what shape is the red object?",
          "how many blue objects are there?",
          "how many squares are there?",
          "is there a green triangle?",
          "is the red circle left of the blue square?",
          "is the yellow square above the green circle?",
          "圆形是什么颜色？",
          "有几个蓝色的物体？",
          "红色圆形在蓝色正方形的左边吗？",
        ],
        training: {
          command: opts.command,
          seed: opts.seed,
          dataSeed: opts.dataSeed,
          epochs: opts.epochs,
          batchImages: opts.batchImages,
          learningRate: opts.lr,
          imagesPerEpoch: opts.imagesPerEpoch,
          freshImages: opts.freshImages,
          trainImages,
          trainQuestions,
          testImages: test.imageCount,
          testQuestions: test.questionCount,
          testQuestionsPerType: model.questionsPerType,
          seconds: Math.round((Date.now() - t0) / 1000),
          modelSeconds,
          backend: backend.name,
          trainedAt: new Date().toISOString(),
        },
        accuracy: { model: report(model), imageBlind: report(imageBlind), questionBlind: report(questionBlind) },
        baselines: baselinesNote,
        accuracyZh: {
          model: report(modelZh),
          ...(imageBlindZh ? { imageBlind: report(imageBlindZh) } : {}),
          questionBlind: report(questionBlind),
          testQuestions: testZh.questionCount,
        },
      },
      [...net.weights].map(([name, v]) => ({ name, shape: v.shape, data: v.dataSync() as Float32Array })),
    );
    log(`wrote ${opts.out}/model.json and weights.bin (${Math.round((Date.now() - t0) / 1000)} s in all)`);
  }
  return { model, modelZh, imageBlind, questionBlind, manifest, net };
}

async function main() {
  const { values } = parseArgs({
    options: {
      epochs: { type: "string", default: "10" },
      out: { type: "string" },
      "images-per-epoch": { type: "string" },
      "reuse-images": { type: "boolean", default: false },
      "test-images": { type: "string" },
      "batch-images": { type: "string", default: "32" },
      lr: { type: "string", default: "0.002" },
      seed: { type: "string", default: "1" },
      "data-seed": { type: "string" },
      "no-baselines": { type: "boolean", default: false },
      "baselines-from": { type: "string" },
      "init-from": { type: "string" },
      "image-offset": { type: "string", default: "0" },
      "no-save": { type: "boolean", default: false },
      quiet: { type: "boolean", default: false },
    },
  });
  const num = (v: string | undefined, d: number) => (v === undefined ? d : Number(v));
  const baselinesFrom = values["baselines-from"] ?? null;
  const baselines = !values["no-baselines"] || Boolean(baselinesFrom);
  const result = await trainVqa({
    epochs: num(values.epochs, 10),
    batchImages: num(values["batch-images"], 32),
    lr: num(values.lr, 0.002),
    seed: num(values.seed, 1),
    dataSeed: num(values["data-seed"], VQA_DEFAULT_SEED),
    imagesPerEpoch: num(values["images-per-epoch"], VQA_TRAIN_IMAGES),
    freshImages: !values["reuse-images"],
    testImages: num(values["test-images"], VQA_TEST_IMAGES),
    arch: DEFAULT_ARCH,
    out: values["no-save"] || !baselines ? null : (values.out ?? DEFAULT_VQA_CHECKPOINT),
    baselines,
    baselinesFrom,
    initFrom: values["init-from"] ?? null,
    imageOffset: num(values["image-offset"], 0),
    quiet: values.quiet,
    command: ["npx tsx sidecar/vqa/train.ts", ...process.argv.slice(2)].join(" "),
  });
  result.net.dispose();
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("sidecar/vqa/train.ts")) {
  main().catch((err) => {
    process.stderr.write(`vqa train: ${(err as Error).stack ?? (err as Error).message}\n`);
    process.exit(1);
  });
}
