// Training command of the segmentation network (segmenter.ts):
//   npm run train-segmenter -- [--train-size N] [--epochs N] [--budget-minutes M] [--patience P]
//                              [--batch B] [--lr LR] [--width W] [--val-size N] [--test-size N] [--id ID] [--out DIR]
// Trains on the segmentation scenes (sidecar/data/segScenes.ts) with per-pixel softmax
// cross-entropy, Adam with a cosine-decayed rate and batch norm (as train.ts), scores
// the validation split after every epoch and keeps the best weights; stops when the
// validation mean IoU has not improved for `patience` epochs or the time budget is
// spent. The kept network is folded and rounded exactly as served, then scored on the
// held-out test split (mean and per-class IoU), and written next to the zoo's checkpoints.
import * as tf from "@tensorflow/tfjs";
import { Rng } from "../data/prng.ts";
import { SEG_CLASSES, generateSegScenes, type SegDataset } from "../data/segScenes.ts";
import type { WeightDtype } from "./checkpoint.ts";
import { roundToHalf } from "./half.ts";
import { TrainOps, foldBatchNorm, type WeightMap } from "./layers.ts";
import { IoUMeter, SEGMENTER_ARCH, SEGMENTER_CAM_LAYER, segCheckpointDir, segmenterForward, type SegmenterManifest } from "./segmenter.ts";
import * as loop from "./trainLoop.ts";

/** The segmenter's options are the validated trainers' own (trainLoop.ts). */
export type SegTrainOptions = loop.TrainerOptions;

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

export async function trainSegmenter(opts: SegTrainOptions): Promise<SegmenterManifest> {
  const { log, backend, startedAt: t0, train, val, test } = await loop.trainerStart(opts, generateSegScenes);
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

  const folded = (dtype: WeightDtype) => foldBatchNorm(weights, stats).map((a) => (dtype === "float16" ? { ...a, data: roundToHalf(a.data) } : a));
  const scoreFolded = (arrays: ReturnType<typeof folded>, ds: SegDataset) =>
    loop.withServedWeights(arrays, (ops) => scoreIoU((x) => segmenterForward(ops, x, K, opts.config), ds));

  // The training steps, the epoch loop (validation, best weights, patience, budget) and the
  // checkpoint written at its end are shared with the multi-label trainer: trainLoop.ts.
  const { run, optimizer } = loop.trainValidated(opts, {
    startedAt: t0,
    log,
    scoreName: "val mIoU",
    train,
    rng,
    vars: [...weights.values()],
    batchOf: (ds, idx) => batchOf(ds, idx, rng),
    makeOps: () => new TrainOps(weights, stats, rng, true),
    loss: (ops, x, y) => tf.losses.softmaxCrossEntropy(y, tf.reshape(segmenterForward(ops, x, K, opts.config), [-1, K]) as tf.Tensor2D) as tf.Scalar,
    fold: () => folded(opts.dtype),
    validate: (arrays) => scoreFolded(arrays, val).mean(),
  });

  const meter = scoreFolded(run.best.keep, test);
  log(`test mean IoU ${(meter.mean() * 100).toFixed(2)} % (pixel accuracy ${(meter.pixelAccuracy() * 100).toFixed(2)} %) on ${test.size} held-out images`);
  const perClass = loop.perClassScores("IoU", SEG_CLASSES, meter.perClass(), log);
  return loop.writeScenesResnet<SegmenterManifest>(opts, {
    run,
    startedAt: t0,
    dataset: "seg-scenes",
    classNames: [...SEG_CLASSES],
    // For a segmenter: pixel accuracy on the test split.
    testAccuracy: meter.pixelAccuracy(),
    testSize: test.size,
    tail: {
      backend: backend.name,
      layers: tapNames,
      defaultCamLayer: SEGMENTER_CAM_LAYER,
      task: "segmentation" as const,
      segArch: SEGMENTER_ARCH,
      meanIoU: loop.round4(meter.mean()),
      perClassIoU: perClass,
      valMeanIoU: loop.round4(run.best.score),
      command: opts.command,
    },
    dispose: [...weights.values(), ...stats.values(), optimizer],
    log,
  });
}

async function main() {
  const { options } = loop.trainerArgs({ script: "train-segmenter", epochs: 12, id: "fcn-resnet-seg-scenes", dtype: "float32", out: segCheckpointDir });
  await trainSegmenter(options);
}

loop.trainerCommand("sidecar/zoo/trainSegmenter.ts", "train-segmenter", main);
