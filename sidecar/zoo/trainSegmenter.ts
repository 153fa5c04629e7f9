// Training command of the segmentation network (segmenter.ts):
//   npm run train-segmenter -- [--train-size N] [--epochs N] [--budget-minutes M] [--patience P]
//                              [--batch B] [--lr LR] [--width W] [--val-size N] [--test-size N] [--id ID] [--out DIR]
// Trains on the segmentation scenes (sidecar/data/segScenes.ts) with per-pixel softmax
// cross-entropy, Adam with a cosine-decayed rate and batch norm (as train.ts), scores
// the validation split after every epoch and keeps the best weights; stops when the
// validation mean IoU has not improved for `patience` epochs or the time budget is
// spent. The kept network is folded and rounded exactly as served, then scored on the
// held-out test split (mean and per-class IoU), and written next to the zoo's checkpoints.
import { parseArgs } from "node:util";
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../inference/runtime/backend.ts";
import { Rng } from "../data/prng.ts";
import { SEG_CLASSES, generateSegScenes, type SegDataset } from "../data/segScenes.ts";
import type { WeightDtype } from "./checkpoint.ts";
import { roundToHalf } from "./half.ts";
import { InferOps, TrainOps, foldBatchNorm, type WeightMap } from "./layers.ts";
import { IoUMeter, SEGMENTER_ARCH, SEGMENTER_CAM_LAYER, segCheckpointDir, segmenterForward, type SegmenterManifest } from "./segmenter.ts";
import type { ArchConfig } from "./architectures.ts";
import { cosineRate, runValidatedEpochs, writeKeptCheckpoint } from "./trainLoop.ts";

export interface SegTrainOptions {
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

/** A batch of images (optionally mirrored left-right with their masks) and its one-hot per-pixel labels. */
function batchOf(ds: SegDataset, idx: ArrayLike<number>, rng: Rng | null): { x: tf.Tensor4D; y: tf.Tensor2D } {
  const { height: h, width: w } = ds;
  const n = h * w * 3;
  const buf = new Float32Array(idx.length * n);
  const labels = new Int32Array(idx.length * h * w);
  for (let b = 0; b < idx.length; b++) {
    const flip = rng !== null && rng.float() < 0.5;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const sx = flip ? w - 1 - x : x;
        const src = idx[b] * h * w + y * w + sx;
        labels[b * h * w + y * w + x] = ds.masks[src];
        for (let c = 0; c < 3; c++) buf[b * n + (y * w + x) * 3 + c] = ds.images[src * 3 + c];
      }
  }
  const x = tf.tensor4d(buf, [idx.length, h, w, 3]);
  const y = tf.tidy(() => tf.oneHot(tf.tensor1d(labels, "int32"), ds.classNames.length).toFloat() as tf.Tensor2D);
  return { x, y };
}

/** Confusion-matrix IoU of a forward function over a split, in batches. */
export function scoreIoU(forward: (x: tf.Tensor4D) => tf.Tensor4D, ds: SegDataset, batch = 100): IoUMeter {
  const meter = new IoUMeter(ds.classNames.length);
  const hw = ds.height * ds.width;
  for (let start = 0; start < ds.size; start += batch) {
    const n = Math.min(batch, ds.size - start);
    const pred = tf.tidy(() => {
      const x = tf.tensor4d(ds.images.subarray(start * hw * 3, (start + n) * hw * 3), [n, ds.height, ds.width, 3]);
      return tf.argMax(forward(x), 3).dataSync();
    });
    meter.add(ds.masks.subarray(start * hw, (start + n) * hw), pred);
  }
  return meter;
}

const round4 = (v: number) => Math.round(v * 10000) / 10000;

export async function trainSegmenter(opts: SegTrainOptions): Promise<SegmenterManifest> {
  const log = opts.log ?? ((s: string) => process.stderr.write(s + "\n"));
  const backend = await initBackend();
  const t0 = Date.now();
  const train = generateSegScenes("train", opts.trainSize);
  const val = generateSegScenes("val", opts.valSize);
  const test = generateSegScenes("test", opts.testSize);
  const K = SEG_CLASSES.length;
  log(`training ${SEGMENTER_ARCH} on seg-scenes (${train.size} train / ${val.size} val / ${test.size} test, 32×32×3, ${K} classes) on ${backend.name}`);

  const rng = new Rng(opts.seed);
  const weights: WeightMap = new Map();
  const stats: WeightMap = new Map();
  const tapNames = tf.tidy(() => {
    const ops = new TrainOps(weights, stats, rng, false);
    segmenterForward(ops, tf.zeros([1, 32, 32, 3]) as tf.Tensor4D, K, opts.config);
    return ops.tapNames;
  });
  log(`${[...weights.values()].reduce((s, v) => s + v.size, 0)} parameters, layers: ${tapNames.join(", ")}`);

  const steps = Math.ceil(opts.trainSize / opts.batch);
  const totalSteps = steps * opts.epochs;
  const optimizer = tf.train.adam(opts.lr);
  const vars = [...weights.values()];
  const folded = (dtype: WeightDtype) => foldBatchNorm(weights, stats).map((a) => (dtype === "float16" ? { ...a, data: roundToHalf(a.data) } : a));
  const scoreFolded = (arrays: ReturnType<typeof folded>, ds: SegDataset) => {
    const served: WeightMap = new Map(arrays.map((a) => [a.name, tf.variable(tf.tensor(a.data, a.shape), false)]));
    try {
      return scoreIoU((x) => segmenterForward(new InferOps(served), x, K, opts.config), ds);
    } finally {
      for (const v of served.values()) v.dispose();
    }
  };

  let step = 0;
  // The epoch loop (validation, best weights, patience, budget) and the checkpoint written at its
  // end are shared with the multi-label trainer: trainLoop.ts.
  const run = runValidatedEpochs(
    { epochs: opts.epochs, budgetMinutes: opts.budgetMinutes, patience: opts.patience, startedAt: t0, scoreName: "val mIoU", log },
    () => {
      const order = rng.permutation(train.size);
      let lossSum = 0;
      for (let s = 0; s < steps; s++, step++) {
        (optimizer as unknown as { learningRate: number }).learningRate = cosineRate(opts.lr, step, totalSteps);
        const { x, y } = batchOf(train, order.subarray(s * opts.batch, Math.min((s + 1) * opts.batch, train.size)), rng);
        const ops = new TrainOps(weights, stats, rng, true);
        const loss = optimizer.minimize(
          () => tf.losses.softmaxCrossEntropy(y, tf.reshape(segmenterForward(ops, x, K, opts.config), [-1, K]) as tf.Tensor2D) as tf.Scalar,
          true,
          vars,
        );
        lossSum += loss!.dataSync()[0];
        tf.dispose([loss!, x, y]);
        for (const p of ops.pendingStats) {
          p.variable.assign(p.value);
          p.value.dispose();
        }
      }
      const arrays = folded(opts.dtype);
      return { loss: lossSum / steps, score: scoreFolded(arrays, val).mean(), keep: arrays };
    },
  );

  const meter = scoreFolded(run.best.keep, test);
  const perClass = meter.perClass().map((v) => (Number.isNaN(v) ? 0 : round4(v)));
  log(`test mean IoU ${(meter.mean() * 100).toFixed(2)} % (pixel accuracy ${(meter.pixelAccuracy() * 100).toFixed(2)} %) on ${test.size} held-out images`);
  log(`per-class IoU: ${SEG_CLASSES.map((c, i) => `${c} ${(perClass[i] * 100).toFixed(1)}`).join(", ")}`);
  return writeKeptCheckpoint<SegmenterManifest>({
    out: opts.out,
    dtype: opts.dtype,
    run,
    startedAt: t0,
    head: {
      id: opts.id,
      // The backbone's family; segArch says what is on top of it.
      arch: "resnet",
      archConfig: opts.config,
      dataset: "seg-scenes",
      inputShape: [32, 32, 3],
      classNames: [...SEG_CLASSES],
      // For a segmenter: pixel accuracy on the test split.
      testAccuracy: round4(meter.pixelAccuracy()),
      trainSize: opts.trainSize,
      testSize: test.size,
    },
    tail: {
      backend: backend.name,
      layers: tapNames,
      defaultCamLayer: SEGMENTER_CAM_LAYER,
      task: "segmentation" as const,
      segArch: SEGMENTER_ARCH,
      meanIoU: round4(meter.mean()),
      perClassIoU: perClass,
      valMeanIoU: round4(run.best.score),
      command: opts.command,
    },
    dispose: [...weights.values(), ...stats.values(), optimizer],
    log,
  });
}

async function main() {
  const { values } = parseArgs({
    options: {
      "train-size": { type: "string", default: "8000" },
      "val-size": { type: "string", default: "500" },
      "test-size": { type: "string", default: "1000" },
      epochs: { type: "string", default: "12" },
      "budget-minutes": { type: "string", default: "20" },
      patience: { type: "string", default: "2" },
      batch: { type: "string", default: "64" },
      lr: { type: "string", default: "0.004" },
      width: { type: "string", default: "8" },
      seed: { type: "string", default: "1" },
      id: { type: "string", default: "fcn-resnet-seg-scenes" },
      out: { type: "string" },
      dtype: { type: "string", default: "float32" },
    },
  });
  const n = (k: keyof typeof values) => Number(values[k]);
  await trainSegmenter({
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
    out: values.out ?? segCheckpointDir(),
    dtype: values.dtype === "float16" ? "float16" : "float32",
    command: `npm run train-segmenter -- ${process.argv.slice(2).join(" ")}`.trim(),
  });
}

if (process.argv[1]?.endsWith("sidecar/zoo/trainSegmenter.ts")) {
  main().catch((err) => {
    process.stderr.write(`train-segmenter: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  });
}
