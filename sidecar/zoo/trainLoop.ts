// The epoch loop the zoo's validated trainers share (trainSegmenter.ts, trainMultiLabel.ts):
// run an epoch, score the validation split with the network as it will be served, keep the
// best-scoring weights, stop when the score has not improved for `patience` epochs or when one
// more epoch would overrun the time budget. The held-out test split is never seen here, so it
// is never used to choose a model. Their end is shared too (writeKeptCheckpoint): the kept
// weights written as a checkpoint, the training tensors freed, the kept epoch logged. So are
// their options and command line (TrainerOptions, trainerArgs, trainerCommand), their start
// (trainerStart), the training steps around the epoch loop (trainValidated) and scoring kept
// weights as they will be served (withServedWeights).
import { parseArgs, type ParseArgsConfig } from "node:util";
import * as tf from "@tensorflow/tfjs";
import { writeCheckpoint, type CheckpointManifest, type NamedArray, type WeightDtype } from "./checkpoint.ts";
import type { Rng } from "../data/prng.ts";
import { initBackend } from "../inference/runtime/backend.ts";
import type { ArchConfig } from "./architectures.ts";
import { InferOps, TrainOps, type Ops, type WeightMap } from "./layers.ts";

/** What both validated trainers are told (the multi-label one adds where it starts from). */
export interface TrainerOptions {
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

/** Cosine decay to 2 % of the initial rate over the whole run (train.ts's schedule). */
export function cosineRate(lr: number, step: number, totalSteps: number): number {
  return lr * (0.02 + 0.98 * 0.5 * (1 + Math.cos((Math.PI * step) / totalSteps)));
}

export interface EpochOutcome<K> {
  /** Mean training loss of the epoch. */
  loss: number;
  /** Validation score, higher is better (mean IoU, mAP, …). */
  score: number;
  /** What to keep if this epoch is the best (the folded weights). */
  keep: K;
}

export interface ValidatedLoopOptions {
  epochs: number;
  budgetMinutes: number;
  patience: number;
  /** Date.now() when training started (data generation included in the budget). */
  startedAt: number;
  /** Name of the validation score in the log, e.g. "val mIoU". */
  scoreName: string;
  log: (s: string) => void;
}

export interface ValidatedLoopResult<K> {
  best: { keep: K; score: number; epoch: number };
  epochsRun: number;
  /** Validation score after each epoch run. */
  history: number[];
}

export function runValidatedEpochs<K>(opts: ValidatedLoopOptions, runEpoch: (epoch: number) => EpochOutcome<K>): ValidatedLoopResult<K> {
  let best: ValidatedLoopResult<K>["best"] | null = null;
  const history: number[] = [];
  let epochsRun = 0;
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    const { loss, score, keep } = runEpoch(epoch);
    epochsRun = epoch + 1;
    history.push(score);
    const minutes = (Date.now() - opts.startedAt) / 60000;
    opts.log(`epoch ${epoch + 1}: loss ${loss.toFixed(4)}, ${opts.scoreName} ${(score * 100).toFixed(2)} %, ${minutes.toFixed(1)} min`);
    if (!best || score > best.score) best = { keep, score, epoch: epoch + 1 };
    if (epoch + 1 - best.epoch >= opts.patience) {
      opts.log(`stopping: no validation improvement for ${opts.patience} epochs`);
      break;
    }
    // Stop if one more epoch would overrun the budget.
    if (minutes * (1 + 1 / (epoch + 1)) > opts.budgetMinutes) {
      opts.log(`stopping: the ${opts.budgetMinutes}-minute budget would be exceeded by another epoch`);
      break;
    }
  }
  if (!best) throw new Error("no epoch was run (epochs must be at least 1)");
  return { best, epochsRun, history };
}

/** What a validated trainer writes at its end (writeKeptCheckpoint). */
export interface KeptCheckpoint {
  /** The checkpoint folder. */
  out: string;
  dtype: WeightDtype;
  /** The loop's result: its best epoch's weights are written, its epoch count logged. */
  run: ValidatedLoopResult<NamedArray[]>;
  /** Date.now() when training started (the manifest's trainingSeconds). */
  startedAt: number;
  /** The manifest's fields before the run's own: the network and its data (id … testSize). */
  head: Record<string, unknown> & { id: string };
  /** The manifest's fields after the run's own: the backend, layers and what the task adds. */
  tail: Record<string, unknown>;
  /** What training held (weights, batch-norm statistics, the optimizer), freed once written. */
  dispose: Array<{ dispose(): void }>;
  log: (s: string) => void;
}

/**
 * Writes the best epoch's weights as a checkpoint whose manifest is `head`, the kept epoch, when
 * and how long it trained, then `tail` (key order as written: a retrained checkpoint's manifest
 * differs only where its values do), frees the training tensors and logs the kept epoch.
 */
export function writeKeptCheckpoint<M extends CheckpointManifest>(k: KeptCheckpoint): M {
  const { best, epochsRun } = k.run;
  const manifest = writeCheckpoint(
    k.out,
    {
      ...k.head,
      epochs: best.epoch,
      trainedAt: new Date().toISOString(),
      trainingSeconds: Math.round((Date.now() - k.startedAt) / 1000),
      ...k.tail,
    } as Parameters<typeof writeCheckpoint>[1],
    best.keep,
    k.dtype,
  ) as M;
  for (const d of k.dispose) d.dispose();
  k.log(`kept epoch ${best.epoch} of ${epochsRun}; wrote ${k.out}/${manifest.id}.json`);
  return manifest;
}

/** What a trainer's command line defaults differently: its epochs, id, weight type and folder, and its npm script. */
export interface TrainerDefaults {
  script: string;
  epochs: number;
  id: string;
  dtype: WeightDtype;
  out: () => string;
}

/**
 * The trainer's options from the command line (--train-size … --dtype, as each trainer's header
 * lists them), with `extra` options of its own read into `values`.
 */
export function trainerArgs(defaults: TrainerDefaults, extra: NonNullable<ParseArgsConfig["options"]> = {}) {
  const { values } = parseArgs({
    options: {
      "train-size": { type: "string", default: "8000" },
      "val-size": { type: "string", default: "500" },
      "test-size": { type: "string", default: "1000" },
      epochs: { type: "string", default: String(defaults.epochs) },
      "budget-minutes": { type: "string", default: "20" },
      patience: { type: "string", default: "2" },
      batch: { type: "string", default: "64" },
      lr: { type: "string", default: "0.004" },
      width: { type: "string", default: "8" },
      seed: { type: "string", default: "1" },
      id: { type: "string", default: defaults.id },
      out: { type: "string" },
      dtype: { type: "string", default: defaults.dtype },
      ...extra,
    },
  });
  const n = (k: keyof typeof values) => Number(values[k]);
  const other: WeightDtype = defaults.dtype === "float16" ? "float32" : "float16";
  const options: TrainerOptions = {
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
    out: typeof values.out === "string" ? values.out : defaults.out(),
    // Only the other type by name switches from the default.
    dtype: values.dtype === other ? other : defaults.dtype,
    command: `npm run ${defaults.script} -- ${process.argv.slice(2).join(" ")}`.trim(),
  };
  // The extra options are read back by name: their types are the caller's.
  return { options, values: values as Record<string, unknown> };
}

/**
 * A trainer's start: its log (stderr unless given), the backend, the start time (the data's
 * generation counts against the budget) and the three splits `split` generates.
 */
export async function trainerStart<D>(opts: TrainerOptions, split: (name: "train" | "val" | "test", size: number) => D) {
  const log = opts.log ?? ((s: string) => process.stderr.write(s + "\n"));
  const backend = await initBackend();
  const startedAt = Date.now();
  return { log, backend, startedAt, train: split("train", opts.trainSize), val: split("val", opts.valSize), test: split("test", opts.testSize) };
}

/** Runs a trainer's main when its file is the one node was started with; a failure is printed under the npm script's name. */
export function trainerCommand(file: string, script: string, main: () => Promise<unknown>): void {
  if (!process.argv[1]?.endsWith(file)) return;
  main().catch((err) => {
    process.stderr.write(`${script}: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  });
}

/** What a validated trainer's run needs besides its options: its data, layers, loss and how the kept weights are made and scored. */
export interface ValidatedTraining<D extends { size: number }> {
  /** Date.now() when training started, and the log. */
  startedAt: number;
  log: (s: string) => void;
  /** Name of the validation score in the log, e.g. "val mIoU". */
  scoreName: string;
  train: D;
  /** Shuffles each epoch's order (and whatever batchOf and the layers draw). */
  rng: Rng;
  /** The trained variables (all of them: the optimizer's list). */
  vars: tf.Variable[];
  batchOf: (ds: D, idx: ArrayLike<number>) => { x: tf.Tensor4D; y: tf.Tensor };
  /** The layers of one training step. */
  makeOps: () => Ops;
  loss: (ops: Ops, x: tf.Tensor4D, y: tf.Tensor) => tf.Scalar;
  /** The weights as they will be served (folded, rounded), kept when their epoch is the best. */
  fold: () => NamedArray[];
  /** Their validation score, higher is better. */
  validate: (arrays: NamedArray[]) => number;
}

/**
 * Trains with Adam at the cosine-decayed rate (cosineRate) in batches of opts.batch, each epoch
 * over the whole training split in a new order, batch norm's queued statistics applied after each
 * step (TrainOps.pendingStats; other layers queue none); the epochs are runValidatedEpochs's. The
 * optimizer is answered to be freed with the rest once the checkpoint is written.
 */
export function trainValidated<D extends { size: number }>(opts: TrainerOptions, t: ValidatedTraining<D>) {
  const steps = Math.ceil(opts.trainSize / opts.batch);
  const totalSteps = steps * opts.epochs;
  const optimizer = tf.train.adam(opts.lr);
  let step = 0;
  const trainEpoch = (): number => {
    const order = t.rng.permutation(t.train.size);
    let lossSum = 0;
    for (let s = 0; s < steps; s++, step++) {
      (optimizer as unknown as { learningRate: number }).learningRate = cosineRate(opts.lr, step, totalSteps);
      const { x, y } = t.batchOf(t.train, order.subarray(s * opts.batch, Math.min((s + 1) * opts.batch, t.train.size)));
      const ops = t.makeOps();
      const loss = optimizer.minimize(() => t.loss(ops, x, y), true, t.vars);
      lossSum += loss!.dataSync()[0];
      tf.dispose([loss!, x, y]);
      for (const p of ops instanceof TrainOps ? ops.pendingStats : []) {
        p.variable.assign(p.value);
        p.value.dispose();
      }
    }
    return lossSum / steps;
  };
  const run = runValidatedEpochs(
    { epochs: opts.epochs, budgetMinutes: opts.budgetMinutes, patience: opts.patience, startedAt: t.startedAt, scoreName: t.scoreName, log: t.log },
    () => {
      const loss = trainEpoch();
      const arrays = t.fold();
      return { loss, score: t.validate(arrays), keep: arrays };
    },
  );
  return { run, optimizer };
}

/** A score as the manifests keep it: four decimals. */
export const round4 = (v: number) => Math.round(v * 10000) / 10000;

/** Per-class test scores as the manifest keeps them (a class absent from the test split scores 0), logged by class name. */
export function perClassScores(label: string, classNames: readonly string[], scores: number[], log: (s: string) => void): number[] {
  const perClass = scores.map((v) => (Number.isNaN(v) ? 0 : round4(v)));
  log(`per-class ${label}: ${classNames.map((c, i) => `${c} ${(perClass[i] * 100).toFixed(1)}`).join(", ")}`);
  return perClass;
}

/** What a scenes trainer writes besides its options (writeScenesResnet). */
export interface ScenesResnetCheckpoint extends Pick<KeptCheckpoint, "run" | "startedAt" | "tail" | "dispose" | "log"> {
  dataset: string;
  classNames: string[];
  /** The manifest's testAccuracy: the task's own headline score on the test split. */
  testAccuracy: number;
  testSize: number;
}

/**
 * writeKeptCheckpoint for the trainers on the generated 32×32×3 scenes with the zoo's `resnet`
 * body (the segmenter's backbone family; its segArch says what is on top): the head from the
 * options and the test split, in the manifest's key order.
 */
export function writeScenesResnet<M extends CheckpointManifest>(opts: TrainerOptions, k: ScenesResnetCheckpoint): M {
  return writeKeptCheckpoint<M>({
    out: opts.out,
    dtype: opts.dtype,
    run: k.run,
    startedAt: k.startedAt,
    head: {
      id: opts.id,
      arch: "resnet",
      archConfig: opts.config,
      dataset: k.dataset,
      inputShape: [32, 32, 3],
      classNames: k.classNames,
      testAccuracy: round4(k.testAccuracy),
      trainSize: opts.trainSize,
      testSize: k.testSize,
    },
    tail: k.tail,
    dispose: k.dispose,
    log: k.log,
  });
}

/** Runs `use` with folded weights as served (InferOps over non-trainable copies), then frees the copies. */
export function withServedWeights<T>(arrays: NamedArray[], use: (ops: InferOps) => T): T {
  const served: WeightMap = new Map(arrays.map((a) => [a.name, tf.variable(tf.tensor(a.data, a.shape), false)]));
  try {
    return use(new InferOps(served));
  } finally {
    for (const v of served.values()) v.dispose();
  }
}
