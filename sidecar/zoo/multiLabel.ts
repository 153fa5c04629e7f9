// The multi-label classifier (the /voc demo's model): the zoo's `resnet` architecture
// (ResNet-18 layout, architectures.ts) with one logit per class read through a sigmoid, so
// every class gets its own probability of being in the picture (softmax would make the
// classes compete for one label). Trained with binary cross-entropy by trainMultiLabel.ts;
// served as an ordinary ZooNet (zooNet.ts), whose logits the attribution engine explains
// (target = the chosen class's logit). Its checkpoints live in their own folder so the
// single-label classification catalogue (checkpoints/) never lists them.
import path from "node:path";
import * as tf from "@tensorflow/tfjs";
import { CheckpointError, checkpointDir, readManifest, type CheckpointManifest } from "./checkpoint.ts";
import { loadZooNet, type ZooNet } from "./zooNet.ts";

export const MULTILABEL_TASK = "multilabel";

export interface MultiLabelManifest extends CheckpointManifest {
  task: typeof MULTILABEL_TASK;
  /** Mean average precision over the classes on the held-out test split, in [0, 1]. */
  meanAP: number;
  perClassAP: number[];
  valMeanAP: number;
  /** The labelling rule of the data (visible pixels a class needs), when generated. */
  minPixels?: number;
  command: string;
}

/** Where multi-label checkpoints live: MULTILABEL_CHECKPOINT_DIR, else checkpoints/multilabel under the zoo's folder. */
export function multiLabelCheckpointDir(): string {
  return process.env.MULTILABEL_CHECKPOINT_DIR || path.join(checkpointDir(), "multilabel");
}

export function readMultiLabelManifest(id: string, dir = multiLabelCheckpointDir()): MultiLabelManifest {
  const m = readManifest(id, dir) as MultiLabelManifest;
  if (m.task !== MULTILABEL_TASK) throw new CheckpointError(`checkpoint "${id}" is not a multi-label classifier`);
  return m;
}

export function loadMultiLabelNet(id: string, dir = multiLabelCheckpointDir()): ZooNet & { manifest: MultiLabelManifest } {
  readMultiLabelManifest(id, dir);
  return loadZooNet(id, dir) as ZooNet & { manifest: MultiLabelManifest };
}

export function sigmoid(v: number): number {
  return v >= 0 ? 1 / (1 + Math.exp(-v)) : Math.exp(v) / (1 + Math.exp(v));
}

export interface RankedClass {
  index: number;
  name: string;
  logit: number;
  probability: number;
}

/**
 * The k highest-scoring classes, best first, with their sigmoid probabilities. Ties (equal
 * logits) keep class order, so the ranking is deterministic.
 */
export function topClasses(logits: ArrayLike<number>, classNames: readonly string[], k = 5): RankedClass[] {
  const all = Array.from(logits, (logit, index) => ({ index, name: classNames[index], logit, probability: sigmoid(logit) }));
  all.sort((a, b) => b.logit - a.logit || a.index - b.index);
  return all.slice(0, Math.max(0, Math.min(k, all.length)));
}

/**
 * Average precision of one class (Pascal VOC 2010+ / scikit-learn's definition, no
 * interpolation): rank images by score, and average the precision at the rank of every
 * positive. NaN when the class has no positive. Written here because it is ten lines and the
 * sidecar has no metrics library; tests/multilabel/multilabel.test.ts checks it by hand.
 */
export function averagePrecision(scores: ArrayLike<number>, truth: ArrayLike<number>): number {
  const order = Array.from({ length: scores.length }, (_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
  let positives = 0;
  for (let i = 0; i < truth.length; i++) if (truth[i]) positives++;
  if (positives === 0) return NaN;
  let hits = 0,
    sum = 0;
  // Equal scores form one threshold: precision is read at the end of the tie group.
  for (let r = 0; r < order.length;) {
    let end = r;
    while (end + 1 < order.length && scores[order[end + 1]] === scores[order[r]]) end++;
    let groupHits = 0;
    for (let j = r; j <= end; j++) if (truth[order[j]]) groupHits++;
    hits += groupHits;
    sum += (groupHits * hits) / (end + 1);
    r = end + 1;
  }
  return sum / positives;
}

/** Per-class AP and their mean over the classes that have positives, from N × C scores and targets. */
export function meanAveragePrecision(scores: ArrayLike<number>, targets: ArrayLike<number>, numClasses: number): { perClass: number[]; mean: number } {
  const n = scores.length / numClasses;
  const perClass: number[] = [];
  for (let c = 0; c < numClasses; c++) {
    const s = new Float32Array(n),
      t = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      s[i] = scores[i * numClasses + c];
      t[i] = targets[i * numClasses + c];
    }
    perClass.push(averagePrecision(s, t));
  }
  const valid = perClass.filter((v) => !Number.isNaN(v));
  return { perClass, mean: valid.length ? valid.reduce((a, b) => a + b, 0) / valid.length : 0 };
}

/** Logits of a forward function over N NHWC images, in batches. */
export function logitsOf(
  forward: (x: tf.Tensor4D) => tf.Tensor2D,
  images: Float32Array,
  n: number,
  shape: [number, number, number],
  batch = 200,
): Float32Array {
  const [h, w, c] = shape;
  const per = h * w * c;
  const chunks: Float32Array[] = [];
  for (let start = 0; start < n; start += batch) {
    const m = Math.min(batch, n - start);
    chunks.push(tf.tidy(() => forward(tf.tensor4d(images.subarray(start * per, (start + m) * per), [m, h, w, c])).dataSync() as Float32Array));
  }
  const out = new Float32Array(chunks.reduce((s, a) => s + a.length, 0));
  let o = 0;
  for (const a of chunks) {
    out.set(a, o);
    o += a.length;
  }
  return out;
}
