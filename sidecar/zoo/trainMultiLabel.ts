// Training command of the multi-label classifier (multiLabel.ts, the /voc demo's model):
//   npm run train-multilabel -- [--train-size N] [--epochs N] [--budget-minutes M] [--patience P]
//                               [--batch B] [--lr LR] [--width W] [--val-size N] [--test-size N]
//                               [--id ID] [--out DIR] [--dtype float16|float32]
// The zoo's `resnet` (ResNet-18 layout) with one logit per class, trained on the multi-label
// scenes (sidecar/data/vocMultilabel.ts) with binary cross-entropy on sigmoid outputs; Adam with
// the zoo's cosine-decayed rate and batch norm (as train.ts); left-right mirroring (it never
// changes which shapes are present). The epoch loop, validation, best-weights keeping, patience
// and time budget are the segmentation trainer's, shared through trainLoop.ts. The kept network
// is folded and rounded exactly as served, then scored on the held-out test split (mean and
// per-class average precision), and written to checkpoints/multilabel/.
import { parseArgs } from "node:util";
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../inference/runtime/backend.ts";
import { Rng } from "../data/prng.ts";
import { MULTILABEL_CLASSES, MULTILABEL_DATASET_ID, MULTILABEL_MIN_PIXELS, generateMultiLabelScenes, type MultiLabelDataset } from "../data/vocMultilabel.ts";
import { writeCheckpoint, type WeightDtype } from "./checkpoint.ts";
import { roundToHalf } from "./half.ts";
import { resnet, type ArchConfig } from "./architectures.ts";
import { InferOps, TrainOps, foldBatchNorm, type WeightMap } from "./layers.ts";
import { MULTILABEL_TASK, logitsOf, meanAveragePrecision, multiLabelCheckpointDir, type MultiLabelManifest } from "./multiLabel.ts";
import { cosineRate, runValidatedEpochs } from "./trainLoop.ts";

export interface MultiLabelTrainOptions {
  trainSize: number;
  valSize: number;
  testSize: number;
  epochs: number;
  budgetMinutes: number;
  patience: number;
  batch: number;
  lr: number;
  config: ArchConfig;
  seed: number;
  id: string;
  out: string;
  dtype: WeightDtype;
  command: string;
  log?: (s: string) => void;
}

/** A batch of images (each mirrored left-right with probability ½ when rng is given) and its 0/1 targets. */
function batchOf(ds: MultiLabelDataset, idx: ArrayLike<number>, rng: Rng | null): { x: tf.Tensor4D; y: tf.Tensor2D } {
  const { height: h, width: w } = ds;
  const C = ds.classNames.length;
  const n = h * w * 3;
  const buf = new Float32Array(idx.length * n);
  const targets = new Float32Array(idx.length * C);
  for (let b = 0; b < idx.length; b++) {
    const flip = rng !== null && rng.float() < 0.5;
    const src = idx[b] * n;
    if (flip) {
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) for (let c = 0; c < 3; c++) buf[b * n + (y * w + x) * 3 + c] = ds.images[src + (y * w + (w - 1 - x)) * 3 + c];
    } else buf.set(ds.images.subarray(src, src + n), b * n);
    for (let c = 0; c < C; c++) targets[b * C + c] = ds.targets[idx[b] * C + c];
  }
  return { x: tf.tensor4d(buf, [idx.length, h, w, 3]), y: tf.tensor2d(targets, [idx.length, C]) };
}

const round4 = (v: number) => Math.round(v * 10000) / 10000;

export async function trainMultiLabel(opts: MultiLabelTrainOptions): Promise<MultiLabelManifest> {
  const log = opts.log ?? ((s: string) => process.stderr.write(s + "\n"));
  const backend = await initBackend();
  const t0 = Date.now();
  const train = generateMultiLabelScenes("train", opts.trainSize);
  const val = generateMultiLabelScenes("val", opts.valSize);
  const test = generateMultiLabelScenes("test", opts.testSize);
  const C = MULTILABEL_CLASSES.length;
  log(
    `training resnet (multi-label, sigmoid + BCE) on ${MULTILABEL_DATASET_ID} (${train.size} train / ${val.size} val / ${test.size} test, 32×32×3, ${C} classes) on ${backend.name}`,
  );

  const rng = new Rng(opts.seed);
  const weights: WeightMap = new Map();
  const stats: WeightMap = new Map();
  const tapNames = tf.tidy(() => {
    const ops = new TrainOps(weights, stats, rng, false);
    resnet.forward(ops, tf.zeros([1, 32, 32, 3]) as tf.Tensor4D, C, opts.config);
    return ops.tapNames;
  });
  log(`${[...weights.values()].reduce((s, v) => s + v.size, 0)} parameters, layers: ${tapNames.join(", ")}`);

  const steps = Math.ceil(opts.trainSize / opts.batch);
  const totalSteps = steps * opts.epochs;
  const optimizer = tf.train.adam(opts.lr);
  const vars = [...weights.values()];
  type Folded = ReturnType<typeof foldBatchNorm>;
  const folded = (): Folded => foldBatchNorm(weights, stats).map((a) => (opts.dtype === "float16" ? { ...a, data: roundToHalf(a.data) } : a));
  const scoreFolded = (arrays: Folded, ds: MultiLabelDataset) => {
    const served: WeightMap = new Map(arrays.map((a) => [a.name, tf.variable(tf.tensor(a.data, a.shape), false)]));
    try {
      const logits = logitsOf((x) => resnet.forward(new InferOps(served), x, C, opts.config), ds.images, ds.size, [32, 32, 3]);
      return meanAveragePrecision(logits, ds.targets, C);
    } finally {
      for (const v of served.values()) v.dispose();
    }
  };

  let step = 0;
  const { best, epochsRun } = runValidatedEpochs(
    { epochs: opts.epochs, budgetMinutes: opts.budgetMinutes, patience: opts.patience, startedAt: t0, scoreName: "val mAP", log },
    () => {
      const order = rng.permutation(train.size);
      let lossSum = 0;
      for (let s = 0; s < steps; s++, step++) {
        (optimizer as unknown as { learningRate: number }).learningRate = cosineRate(opts.lr, step, totalSteps);
        const { x, y } = batchOf(train, order.subarray(s * opts.batch, Math.min((s + 1) * opts.batch, train.size)), rng);
        const ops = new TrainOps(weights, stats, rng, true);
        const loss = optimizer.minimize(() => tf.losses.sigmoidCrossEntropy(y, resnet.forward(ops, x, C, opts.config)) as tf.Scalar, true, vars);
        lossSum += loss!.dataSync()[0];
        tf.dispose([loss!, x, y]);
        for (const p of ops.pendingStats) {
          p.variable.assign(p.value);
          p.value.dispose();
        }
      }
      const arrays = folded();
      return { loss: lossSum / steps, score: scoreFolded(arrays, val).mean, keep: arrays };
    },
  );

  const result = scoreFolded(best.keep, test);
  const perClass = result.perClass.map((v) => (Number.isNaN(v) ? 0 : round4(v)));
  log(`test mAP ${(result.mean * 100).toFixed(2)} % on ${test.size} held-out images`);
  log(`per-class AP: ${MULTILABEL_CLASSES.map((c, i) => `${c} ${(perClass[i] * 100).toFixed(1)}`).join(", ")}`);
  const manifest = writeCheckpoint(
    opts.out,
    {
      id: opts.id,
      arch: "resnet",
      archConfig: opts.config,
      dataset: MULTILABEL_DATASET_ID,
      inputShape: [32, 32, 3],
      classNames: [...MULTILABEL_CLASSES],
      // For a multi-label classifier: the held-out mean average precision.
      testAccuracy: round4(result.mean),
      trainSize: opts.trainSize,
      testSize: test.size,
      epochs: best.epoch,
      trainedAt: new Date().toISOString(),
      trainingSeconds: Math.round((Date.now() - t0) / 1000),
      backend: backend.name,
      layers: tapNames,
      defaultCamLayer: resnet.defaultCamLayer,
      task: MULTILABEL_TASK,
      meanAP: round4(result.mean),
      perClassAP: perClass,
      valMeanAP: round4(best.score),
      minPixels: MULTILABEL_MIN_PIXELS,
      command: opts.command,
    } as Parameters<typeof writeCheckpoint>[1],
    best.keep,
    opts.dtype,
  ) as MultiLabelManifest;
  for (const v of [...weights.values(), ...stats.values()]) v.dispose();
  optimizer.dispose();
  log(`kept epoch ${best.epoch} of ${epochsRun}; wrote ${opts.out}/${manifest.id}.json`);
  return manifest;
}

async function main() {
  const { values } = parseArgs({
    options: {
      "train-size": { type: "string", default: "8000" },
      "val-size": { type: "string", default: "500" },
      "test-size": { type: "string", default: "1000" },
      epochs: { type: "string", default: "10" },
      "budget-minutes": { type: "string", default: "20" },
      patience: { type: "string", default: "2" },
      batch: { type: "string", default: "64" },
      lr: { type: "string", default: "0.004" },
      width: { type: "string", default: "8" },
      seed: { type: "string", default: "1" },
      id: { type: "string", default: "resnet-seg-scenes-multilabel" },
      out: { type: "string" },
      dtype: { type: "string", default: "float16" },
    },
  });
  const n = (k: keyof typeof values) => Number(values[k]);
  await trainMultiLabel({
    trainSize: n("train-size"),
    valSize: n("val-size"),
    testSize: n("test-size"),
    epochs: n("epochs"),
    budgetMinutes: n("budget-minutes"),
    patience: n("patience"),
    batch: n("batch"),
    lr: n("lr"),
    config: { width: n("width"), stemStride: 1 },
    seed: n("seed"),
    id: String(values.id),
    out: values.out ?? multiLabelCheckpointDir(),
    dtype: values.dtype === "float32" ? "float32" : "float16",
    command: `npm run train-multilabel -- ${process.argv.slice(2).join(" ")}`.trim(),
  });
}

if (process.argv[1]?.endsWith("sidecar/zoo/trainMultiLabel.ts")) {
  main().catch((err) => {
    process.stderr.write(`train-multilabel: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  });
}
