// The datasets SeBoW trains on (generated scenes, or an operator's CIFAR folder) and the accuracy of
// a model over one, in batches: shared by the training (sebowTrain.ts) and the platform-tree tests.
import * as tf from "@tensorflow/tfjs";
import type { ImageDataset } from "../data/dataset.ts";
import { readCifarDir } from "../data/cifar.ts";
import { generateScenes } from "../data/scenes.ts";
import { SebowCheckpointError } from "./sebowCheckpoint.ts";
import { treeForward, type SebowTree, type Weights } from "./sebow.ts";

/** A dataset SeBoW trains on: its splits and the name the log and manifest show. */
export interface SebowData {
  train: ImageDataset;
  test: ImageDataset;
  name: string;
}

/** "scenes", or "cifar10"/"cifar100" read from CIFAR10_DIR / CIFAR100_DIR (the operator's binary folders). */
export function loadSebowData(dataset: string, trainSize?: number, testSize?: number): SebowData {
  if (dataset === "scenes") {
    const d = generateScenes({ trainSize, testSize });
    return { ...d, name: "Scenes (generated, 6 shape classes)" };
  }
  if (dataset === "cifar10" || dataset === "cifar100") {
    const dir = dataset === "cifar10" ? process.env.CIFAR10_DIR : process.env.CIFAR100_DIR;
    if (!dir) throw new SebowCheckpointError(`${dataset} is not installed on this sidecar (set ${dataset === "cifar10" ? "CIFAR10_DIR" : "CIFAR100_DIR"})`);
    const d = readCifarDir(dir);
    const cut = (ds: ImageDataset, n?: number) =>
      n && n < ds.size ? { ...ds, size: n, images: ds.images.subarray(0, n * 3072), labels: ds.labels.subarray(0, n) } : ds;
    return { train: cut(d.train, trainSize), test: cut(d.test, testSize), name: dataset === "cifar10" ? "CIFAR-10" : "CIFAR-100" };
  }
  throw new Error(`unknown SeBoW dataset "${dataset}"; use scenes, cifar10 or cifar100`);
}

/** Images and one-hot labels of the rows `idx` of a set. */
export function batchOf(ds: ImageDataset, idx: ArrayLike<number>): { x: tf.Tensor4D; y: tf.Tensor2D } {
  const n = ds.height * ds.width * ds.channels;
  const buf = new Float32Array(idx.length * n);
  for (let b = 0; b < idx.length; b++) buf.set(ds.images.subarray(idx[b] * n, (idx[b] + 1) * n), b * n);
  const labels = tf.tensor1d(
    Array.from(idx, (i) => ds.labels[i]),
    "int32",
  );
  const y = tf.oneHot(labels, ds.classNames.length) as tf.Tensor2D;
  labels.dispose();
  return { x: tf.tensor4d(buf, [idx.length, ds.height, ds.width, ds.channels]), y: tf.cast(y, "float32") as tf.Tensor2D };
}

/** Accuracy of a probability function over a dataset, in batches. */
export function evaluate(fn: (x: tf.Tensor4D) => tf.Tensor2D, ds: ImageDataset, batch = 200): number {
  let correct = 0;
  for (let s = 0; s < ds.size; s += batch) {
    const idx = Array.from({ length: Math.min(batch, ds.size - s) }, (_, i) => s + i);
    const { x, y } = batchOf(ds, idx);
    const pred = tf.tidy(() => tf.argMax(fn(x), 1).dataSync());
    x.dispose();
    y.dispose();
    for (let i = 0; i < idx.length; i++) if (pred[i] === ds.labels[idx[i]]) correct++;
  }
  return ds.size ? correct / ds.size : 0;
}

/** Accuracy of the tree's greedy routing: the leaf reached by following the larger routing probability. */
export function greedyTreeAccuracy(tree: SebowTree, w: Weights, ds: ImageDataset, batch = 200): number {
  return evaluate(
    (x) => {
      const out = treeForward(tree, w, x);
      // Hard routing: each routing tensor replaced by the one-hot of its argmax, then the same mixture.
      const byId = new Map(tree.nodes.map((n) => [n.id, n]));
      const parts: tf.Tensor2D[] = [];
      const visit = (id: string, pi: tf.Tensor2D) => {
        const node = byId.get(id)!;
        if (node.children.length === 0) parts.push(tf.mul(pi, out.leafProbs.get(id)!));
        else if (node.children.length === 1) visit(node.children[0], pi);
        else {
          const r = out.routing.get(id)!;
          const hard = tf.oneHot(tf.argMax(r, 1), node.children.length);
          node.children.forEach((c, k) => visit(c, tf.mul(pi, tf.slice(hard, [0, k], [x.shape[0], 1]))));
        }
      };
      visit(tree.root, tf.ones([x.shape[0], 1]));
      return tf.addN(parts) as tf.Tensor2D;
    },
    ds,
    batch,
  );
}
