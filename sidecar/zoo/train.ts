// Training command:
//   npm run train -- --dataset fashion-mnist|scenes|scenes64|textured-shapes|cifar:<dir>|folder:<dir>
//                    --arch resnet|vgg|inception|resnet50
//                    [--epochs N] [--out DIR] [--id ID] [--batch B] [--lr LR] [--train-size N]
//                    [--width W] [--stem-stride S] [--seed S] [--no-flip] [--shift PX] [--dtype float16|float32]
//                    [--val-size N] [--patience P] [--budget-minutes M]
// Trains with Adam (cosine-decayed learning rate over --epochs) and batch norm. With
// --val-size the last N training images are held out: after every epoch the network as
// served (batch norm folded, storage precision) is scored on them, the best epoch's weights
// are kept, and training stops when P epochs bring no improvement or the budget would be
// overrun (trainLoop.ts). The kept network's accuracy on the held-out test split and the
// per-epoch curve go into the checkpoint's manifest (sidecar/zoo/checkpoints by default).
import * as tf from "@tensorflow/tfjs";
import { parseArgs } from "node:util";
import { initBackend } from "../inference/runtime/backend.ts";
import type { ImageDataset } from "../data/dataset.ts";
import { loadDataset } from "../data/registry.ts";
import { Rng } from "../data/prng.ts";
import { architecture, type ArchConfig, type ArchName } from "./architectures.ts";
import { checkpointDir, type CheckpointManifest, type NamedArray, type WeightDtype } from "./checkpoint.ts";
import { roundToHalf } from "./half.ts";
import { TrainOps, foldBatchNorm, InferOps, type WeightMap } from "./layers.ts";
import { ProgressBar } from "./progress.ts";
import { cosineRate, runValidatedEpochs, writeKeptCheckpoint, type EpochOutcome } from "./trainLoop.ts";

export interface TrainOptions {
  dataset: string;
  arch: ArchName;
  epochs: number;
  batch: number;
  lr: number;
  trainSize?: number;
  config: ArchConfig;
  seed: number;
  id: string;
  out: string;
  /** Mirror images left-right while training (off for data where that changes the class). */
  flip: boolean;
  /** Move training images by up to this many pixels each way (0 = never). */
  shift?: number;
  /** Storage type of the checkpoint's weights (float16 halves the file). */
  dtype: WeightDtype;
  quiet?: boolean;
  /** Training images held out to pick the epoch (the last ones of the training split); 0 = none. */
  valSize?: number;
  /** Stop after this many epochs without a better validation accuracy. */
  patience?: number;
  /** Stop before an epoch that would overrun this many minutes. */
  budgetMinutes?: number;
  /** The command line, recorded in the manifest. */
  command?: string;
}

/** Sizes that train in minutes on a shared 2-core CPU and still reach useful accuracy. */
export function defaultConfig(arch: ArchName, height: number): ArchConfig {
  const large = height >= 28;
  if (arch === "resnet") return { width: 8, stemStride: large && height < 32 ? 2 : 1 };
  if (arch === "vgg") return { width: 8, stemStride: 1 };
  return { width: 8, stemStride: 1 };
}

/** How a training image is varied: mirrored left-right, and moved by (dx, dy) pixels. */
export interface Augmentation {
  flip: boolean;
  dx: number;
  dy: number;
}

/**
 * Writes image `i` of `ds`, augmented, into `out` at `offset` (NHWC). A moved image repeats
 * its edge pixels into the uncovered border (the backgrounds of the generated sets are not
 * black, so zero padding would add an edge that no test image has).
 */
export function copyAugmented(ds: ImageDataset, i: number, aug: Augmentation, out: Float32Array, offset: number): void {
  const { height: h, width: w, channels: c } = ds;
  const src = i * h * w * c;
  for (let y = 0; y < h; y++) {
    const sy = Math.min(h - 1, Math.max(0, y - aug.dy));
    for (let x = 0; x < w; x++) {
      const mx = Math.min(w - 1, Math.max(0, x - aug.dx));
      const sx = aug.flip ? w - 1 - mx : mx;
      for (let ch = 0; ch < c; ch++) out[offset + (y * w + x) * c + ch] = ds.images[src + (sy * w + sx) * c + ch];
    }
  }
}

/**
 * Copy a batch into a fresh NHWC tensor; with an rng, each image is mirrored with
 * probability ½ (when `flip`) and moved by up to `shift` pixels each way (uniform).
 */
function batchTensor(ds: ImageDataset, idx: ArrayLike<number>, rng: Rng | null, flip = true, shift = 0): tf.Tensor4D {
  const { height: h, width: w, channels: c } = ds;
  const n = h * w * c;
  const buf = new Float32Array(idx.length * n);
  for (let b = 0; b < idx.length; b++) {
    const src = idx[b] * n;
    if (!rng || (!flip && shift === 0)) {
      buf.set(ds.images.subarray(src, src + n), b * n);
      continue;
    }
    // The flip draw comes first, as before --shift existed, so earlier commands train the same network.
    const aug = { flip: flip && rng.float() < 0.5, dx: 0, dy: 0 };
    if (shift > 0) {
      aug.dx = Math.floor(rng.float() * (2 * shift + 1)) - shift;
      aug.dy = Math.floor(rng.float() * (2 * shift + 1)) - shift;
    }
    copyAugmented(ds, idx[b], aug, buf, b * n);
  }
  return tf.tensor4d(buf, [idx.length, h, w, c]);
}

/** Accuracy of a forward function on a dataset, in batches. */
export function accuracy(forward: (x: tf.Tensor4D) => tf.Tensor2D, ds: ImageDataset, batch = 250): number {
  let correct = 0;
  for (let start = 0; start < ds.size; start += batch) {
    const idx = Array.from({ length: Math.min(batch, ds.size - start) }, (_, i) => start + i);
    const pred = tf.tidy(() => tf.argMax(forward(batchTensor(ds, idx, null)), 1).dataSync());
    for (let i = 0; i < idx.length; i++) if (pred[i] === ds.labels[idx[i]]) correct++;
  }
  return correct / ds.size;
}

/** The last `n` images of a split (the validation images carved off the training split). */
function tail(ds: ImageDataset, n: number): ImageDataset {
  const per = ds.height * ds.width * ds.channels;
  const from = ds.size - n;
  return {
    ...ds,
    name: `${ds.name}[val]`,
    size: n,
    images: ds.images.subarray(from * per),
    labels: ds.labels.subarray(from),
    masks: ds.masks?.subarray(from * ds.height * ds.width),
  };
}

export async function train(opts: TrainOptions): Promise<CheckpointManifest> {
  const backend = await initBackend();
  const log = (s: string) => {
    if (!opts.quiet) process.stderr.write(s + "\n");
  };
  const t0 = Date.now();
  const valSize = opts.valSize ?? 0;
  // Generated sets make as many training images as asked, plus the validation images.
  const data = loadDataset(opts.dataset, opts.trainSize !== undefined ? { trainSize: opts.trainSize + valSize } : {});
  const trainSet = data.train;
  if (valSize >= trainSet.size) throw new Error(`--val-size ${valSize} leaves no training images (the training split has ${trainSet.size})`);
  // Validation: the last valSize training images, never trained on; the test split is only read
  // once, at the end, for the kept weights (trainLoop.ts).
  const valSet = valSize > 0 ? tail(trainSet, valSize) : null;
  const trainSize = Math.min(opts.trainSize ?? trainSet.size - valSize, trainSet.size - valSize);
  const arch = architecture(opts.arch);
  const numClasses = trainSet.classNames.length;
  log(
    `training ${opts.arch} on ${opts.dataset} (${trainSize} train / ${valSize} validation / ${data.test.size} test images, ${trainSet.height}×${trainSet.width}×${trainSet.channels}, ${numClasses} classes) on ${backend.name}`,
  );

  const rng = new Rng(opts.seed);
  const weights: WeightMap = new Map();
  const stats: WeightMap = new Map();
  // One forward pass creates every weight (shapes follow from the input).
  const tapNames = tf.tidy(() => {
    const ops = new TrainOps(weights, stats, rng, false);
    arch.forward(ops, tf.zeros([1, trainSet.height, trainSet.width, trainSet.channels]) as tf.Tensor4D, numClasses, opts.config);
    return ops.tapNames;
  });
  const paramCount = [...weights.values()].reduce((s, v) => s + v.size, 0);
  log(`${paramCount} parameters, layers: ${tapNames.join(", ")}`);

  const stepsPerEpoch = Math.ceil(trainSize / opts.batch);
  const totalSteps = stepsPerEpoch * opts.epochs;
  const optimizer = tf.train.adam(opts.lr);
  const vars = [...weights.values()];
  // The network exactly as it will be served: batch norm folded, weights rounded to the
  // checkpoint's storage precision.
  const served = (): NamedArray[] => foldBatchNorm(weights, stats).map((a) => (opts.dtype === "float16" ? { ...a, data: roundToHalf(a.data) } : a));
  const accuracyOf = (arrays: NamedArray[], ds: ImageDataset): number => {
    const servedWeights: WeightMap = new Map(arrays.map((a) => [a.name, tf.variable(tf.tensor(a.data, a.shape), false)]));
    try {
      return accuracy((x) => arch.forward(new InferOps(servedWeights), x, numClasses, opts.config), ds);
    } finally {
      for (const v of servedWeights.values()) v.dispose();
    }
  };
  const losses: number[] = [];
  let step = 0;
  const runEpoch = (epoch: number): EpochOutcome<NamedArray[]> => {
    const order = rng.permutation(trainSize);
    const bar = opts.quiet ? null : new ProgressBar(`epoch ${epoch + 1}/${opts.epochs}`, stepsPerEpoch);
    let lossSum = 0,
      lossN = 0;
    for (let s = 0; s < stepsPerEpoch; s++, step++) {
      (optimizer as unknown as { learningRate: number }).learningRate = cosineRate(opts.lr, step, totalSteps);
      const idx = order.subarray(s * opts.batch, Math.min((s + 1) * opts.batch, trainSize));
      const shift = opts.shift ?? 0;
      const x = batchTensor(trainSet, idx, opts.flip || shift > 0 ? rng : null, opts.flip, shift);
      const y = tf.tidy(() =>
        tf.oneHot(
          tf.tensor1d(
            Array.from(idx, (i) => trainSet.labels[i]),
            "int32",
          ),
          numClasses,
        ),
      );
      const ops = new TrainOps(weights, stats, rng, true);
      const loss = optimizer.minimize(() => tf.losses.softmaxCrossEntropy(y, arch.forward(ops, x, numClasses, opts.config)) as tf.Scalar, true, vars);
      lossSum += loss!.dataSync()[0];
      lossN++;
      loss!.dispose();
      x.dispose();
      y.dispose();
      for (const p of ops.pendingStats) {
        p.variable.assign(p.value);
        p.value.dispose();
      }
      bar?.update(s + 1, `loss ${(lossSum / lossN).toFixed(4)}`);
    }
    bar?.finish(`loss ${(lossSum / lossN).toFixed(4)}`);
    const keep = served();
    losses.push(Math.round((lossSum / lossN) * 1e4) / 1e4);
    // Without a validation split every epoch "improves", so the last one is kept (the old behaviour).
    return { loss: lossSum / lossN, score: valSet ? accuracyOf(keep, valSet) : epoch, keep };
  };
  const run = runValidatedEpochs(
    {
      epochs: opts.epochs,
      budgetMinutes: opts.budgetMinutes ?? Infinity,
      patience: opts.patience ?? opts.epochs,
      startedAt: t0,
      scoreName: "val accuracy",
      log,
    },
    runEpoch,
  );
  const testAccuracy = accuracyOf(run.best.keep, data.test);
  log(`test accuracy ${(testAccuracy * 100).toFixed(2)} % on ${data.test.size} held-out images (epoch ${run.best.epoch} kept)`);
  const pct = (v: number) => Math.round(v * 10000) / 10000;
  return writeKeptCheckpoint<CheckpointManifest>({
    out: opts.out,
    dtype: opts.dtype,
    run,
    startedAt: t0,
    head: {
      id: opts.id,
      arch: opts.arch,
      archConfig: opts.config,
      dataset: opts.dataset,
      inputShape: [trainSet.height, trainSet.width, trainSet.channels],
      classNames: trainSet.classNames,
      testAccuracy: pct(testAccuracy),
      trainSize,
      testSize: data.test.size,
    },
    tail: {
      backend: backend.name,
      layers: tapNames,
      defaultCamLayer: arch.defaultCamLayer,
      ...(valSet
        ? {
            valSize,
            valAccuracy: pct(run.best.score),
            // The training curve: held-out validation accuracy and mean training loss per epoch.
            valHistory: run.history.map(pct),
            lossHistory: losses,
            epochsRun: run.epochsRun,
          }
        : {}),
      ...(opts.command ? { command: opts.command } : {}),
    },
    dispose: [...weights.values(), ...stats.values(), optimizer],
    log,
  });
}

async function main() {
  const { values } = parseArgs({
    options: {
      dataset: { type: "string" },
      arch: { type: "string" },
      epochs: { type: "string", default: "3" },
      batch: { type: "string", default: "128" },
      lr: { type: "string", default: "0.003" },
      "train-size": { type: "string" },
      width: { type: "string" },
      "stem-stride": { type: "string" },
      seed: { type: "string", default: "1" },
      id: { type: "string" },
      out: { type: "string" },
      "no-flip": { type: "boolean", default: false },
      shift: { type: "string", default: "0" },
      dtype: { type: "string", default: "float16" },
      "val-size": { type: "string", default: "0" },
      patience: { type: "string" },
      "budget-minutes": { type: "string" },
    },
  });
  if (!values.dataset || !values.arch) {
    process.stderr.write("usage: npm run train -- --dataset fashion-mnist|scenes --arch resnet|vgg|inception [--epochs N] [--out DIR]\n");
    process.exit(2);
  }
  const arch = architecture(values.arch).name;
  const height = values.dataset === "fashion-mnist" ? 28 : values.dataset === "scenes64" ? 64 : 32;
  const def = defaultConfig(arch, height);
  const num = (v: string | undefined, d: number) => (v === undefined ? d : Number(v));
  const datasetSlug = values.dataset
    .replace(/^(cifar|folder):.*[\\/]([^\\/]+)[\\/]?$/, "$1-$2")
    .toLowerCase()
    .replace(/[^a-z0-9._-]/g, "-");
  await train({
    dataset: values.dataset,
    arch,
    epochs: num(values.epochs, 3),
    batch: num(values.batch, 128),
    lr: num(values.lr, 0.003),
    trainSize: values["train-size"] ? Number(values["train-size"]) : undefined,
    config: { width: num(values.width, def.width), stemStride: num(values["stem-stride"], def.stemStride) },
    seed: num(values.seed, 1),
    id: values.id ?? `${arch}-${datasetSlug}`,
    out: values.out ?? checkpointDir(),
    flip: !values["no-flip"],
    shift: num(values.shift, 0),
    dtype: values.dtype === "float32" ? "float32" : "float16",
    valSize: num(values["val-size"], 0),
    patience: values.patience ? Number(values.patience) : undefined,
    budgetMinutes: values["budget-minutes"] ? Number(values["budget-minutes"]) : undefined,
    command: `npm run train -- ${process.argv.slice(2).join(" ")}`,
  });
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("sidecar/zoo/train.ts")) {
  main().catch((err) => {
    process.stderr.write(`train: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
