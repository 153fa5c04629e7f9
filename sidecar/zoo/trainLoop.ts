// The epoch loop the zoo's validated trainers share (trainSegmenter.ts, trainMultiLabel.ts):
// run an epoch, score the validation split with the network as it will be served, keep the
// best-scoring weights, stop when the score has not improved for `patience` epochs or when one
// more epoch would overrun the time budget. The held-out test split is never seen here, so it
// is never used to choose a model. Their end is shared too (writeKeptCheckpoint): the kept
// weights written as a checkpoint, the training tensors freed, the kept epoch logged.
import { writeCheckpoint, type CheckpointManifest, type NamedArray, type WeightDtype } from "./checkpoint.ts";

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
