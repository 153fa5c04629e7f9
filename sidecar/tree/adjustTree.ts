// AdjustTree and SaveTree's work on an edited ProtoTree (predict.ts runs them as jobs): the edited
// prototypes' similarities over training and test images, the leaves re-fitted by the
// derivative-free leaf update, the accuracy before and after, and the edited tree written.
import * as tf from "@tensorflow/tfjs";
import type { ImageDataset } from "../data/dataset.ts";
import { TreeExistsError, saveTree } from "./checkpoint.ts";
import { argmax, latent, leafUpdate, nodesOf, patchDistances, softProbabilities, type ProtoTree } from "./protoTree.ts";
import { viewOf, type Edited, type Loaded } from "./loadedTree.ts";
import type { JobDoneResult, TreeJob, TreeProgress } from "./predict.ts";

/** AdjustTree re-fits on at most this many training images and tests on at most this many test images (minutes on one wasm core). */
export const ADJUST_MAX_TRAIN = 3000;
export const ADJUST_MAX_TEST = 2000;
/** Epochs of the leaf update when adjusting (each a pass over the training images in batches of ADJUST_BATCH). */
export const ADJUST_EPOCHS = 5;
const ADJUST_BATCH = 64;
/** Similarities exp(−min d) [n × P] of images of a split with the given prototypes. */
function similarities(l: Loaded, protos: Float32Array, ds: ImageDataset, indices: number[], onBatch: (done: number) => void): Float32Array {
  const { tree } = l;
  const P = tree.numPrototypes;
  const n = ds.height * ds.width * ds.channels;
  const out = new Float32Array(indices.length * P);
  const pt = tf.tensor2d(protos, [P, tree.manifest.protoDim]);
  try {
    for (let s = 0; s < indices.length; s += ADJUST_BATCH) {
      const part = indices.slice(s, s + ADJUST_BATCH);
      const buf = new Float32Array(part.length * n);
      part.forEach((idx, i) => buf.set(ds.images.subarray(idx * n, (idx + 1) * n), i * n));
      const sims = tf.tidy(() => {
        const d = patchDistances(latent(tree, tf.tensor4d(buf, [part.length, ds.height, ds.width, ds.channels])), pt);
        return tf.exp(tf.neg(tf.min(d, 1))).dataSync() as Float32Array;
      });
      out.set(sims, s * P);
      onBatch(s + part.length);
    }
  } finally {
    pt.dispose();
  }
  return out;
}

function accuracy(sims: Float32Array, logits: Float32Array, l: Loaded, labels: ArrayLike<number>): number {
  const { tree } = l;
  const C = tree.numClasses;
  const probs = softProbabilities({ leafLogits: logits, numClasses: C, numPrototypes: tree.numPrototypes }, sims, labels.length, tree.pruned);
  let ok = 0;
  for (let i = 0; i < labels.length; i++) if (argmax(probs.subarray(i * C, (i + 1) * C)) === labels[i]) ok++;
  return labels.length ? ok / labels.length : NaN;
}

/**
 * Leaf path probabilities of the pruned tree's leaves [n × leaves] (branch.py: right child pa·s,
 * left pa·(1 − s)), with the leaves in pre-order.
 */
function prunedPathProbabilities(tree: ProtoTree, sims: Float32Array, n: number, leaves: number[]): Float32Array {
  const P = tree.numPrototypes;
  const col = new Map(leaves.map((leaf, i) => [leaf, i]));
  const out = new Float32Array(n * leaves.length);
  for (let b = 0; b < n; b++) {
    const walk = (node: number, pa: number) => {
      const c = tree.pruned.children.get(node);
      if (!c) {
        out[b * leaves.length + col.get(node)!] = pa;
        return;
      }
      const s = sims[b * P + node];
      walk(c[0], pa * (1 - s));
      walk(c[1], pa * s);
    };
    walk(tree.pruned.root, 1);
  }
  return out;
}

/**
 * "Adjust whole tree" (docs/product.md "Prototype-tree pages"): with the edited prototypes fixed, the leaves of the served
 * (pruned) tree are re-fitted with ProtoTree's derivative-free update (protoTree.ts leafUpdate,
 * train.py) for ADJUST_EPOCHS epochs over the first training images (up to the tree's training
 * size and ADJUST_MAX_TRAIN), in batches of ADJUST_BATCH, starting from the current logits; leaves
 * set by favour_class are held. Then the original tree and the adjusted one are tested on the same
 * test images the tree was tested on when trained (the first of the test split). Returns the new logits.
 */
export function adjust(l: Loaded, ed: Edited, onProgress: TreeProgress, refit: boolean): { logits: Float32Array; oldAccuracy: number; newAccuracy: number } {
  const { tree, data } = l;
  const C = tree.numClasses;
  const P = tree.numPrototypes;
  const logits = Float32Array.from(ed.logits);
  if (refit) {
    const nTrain = Math.min(data.train.size, tree.manifest.trainSize || ADJUST_MAX_TRAIN, ADJUST_MAX_TRAIN);
    const trainIdx = Array.from({ length: nTrain }, (_, i) => i);
    onProgress(0.01, `similarities of ${nTrain} training images to the edited prototypes`);
    const sims = similarities(l, ed.protos, data.train, trainIdx, (done) =>
      onProgress(0.01 + 0.5 * (done / nTrain), `similarities: ${done}/${nTrain} training images`),
    );
    const leaves = nodesOf(tree.pruned)
      .map((x) => x.node)
      .filter((node) => !tree.pruned.children.has(node));
    const free = leaves.filter((leaf) => !ed.held.has(leaf));
    const nBatches = Math.ceil(nTrain / ADJUST_BATCH);
    const rowsOf = (src: Float32Array, which: number[]) => {
      const out = new Float32Array(which.length * C);
      which.forEach((leaf, i) => out.set(src.subarray((leaf - P) * C, (leaf - P + 1) * C), i * C));
      return out;
    };
    for (let epoch = 0; epoch < ADJUST_EPOCHS; epoch++) {
      const epochStart = rowsOf(logits, free);
      for (let b = 0; b < nBatches; b++) {
        const lo = b * ADJUST_BATCH,
          hi = Math.min(nTrain, lo + ADJUST_BATCH);
        const bs = sims.subarray(lo * P, hi * P);
        const labels = trainIdx.slice(lo, hi).map((i) => data.train.labels[i]);
        const yPred = softProbabilities({ leafLogits: logits, numClasses: C, numPrototypes: P }, bs, hi - lo, tree.pruned);
        const paAll = prunedPathProbabilities(tree, bs, hi - lo, leaves);
        // The update over the free leaves only: their path probabilities and logits, compacted.
        const pa = new Float32Array((hi - lo) * free.length);
        const freeCol = free.map((leaf) => leaves.indexOf(leaf));
        for (let i = 0; i < hi - lo; i++) freeCol.forEach((c, k) => (pa[i * free.length + k] = paAll[i * leaves.length + c]));
        const part = rowsOf(logits, free);
        leafUpdate(part, epochStart, nBatches, pa, labels, yPred, C);
        free.forEach((leaf, i) => logits.set(part.subarray(i * C, (i + 1) * C), (leaf - P) * C));
      }
      onProgress(0.51 + 0.09 * ((epoch + 1) / ADJUST_EPOCHS), `leaf update: epoch ${epoch + 1}/${ADJUST_EPOCHS}`);
    }
  }
  const nTest = Math.min(data.test.size, tree.manifest.testSize || ADJUST_MAX_TEST, ADJUST_MAX_TEST);
  const testIdx = Array.from({ length: nTest }, (_, i) => i);
  const labels = testIdx.map((i) => data.test.labels[i]);
  const base = refit ? 0.6 : 0;
  const span = (1 - base) / 2;
  const oldSims = similarities(l, l.baseProtos, data.test, testIdx, (d) => onProgress(base + span * (d / nTest), `testing the original tree: ${d}/${nTest}`));
  const oldAccuracy = accuracy(oldSims, tree.leafLogits, l, labels);
  const newSims = similarities(l, ed.protos, data.test, testIdx, (d) =>
    onProgress(base + span + span * (d / nTest), `testing the changed tree: ${d}/${nTest}`),
  );
  const newAccuracy = accuracy(newSims, logits, l, labels);
  return { logits, oldAccuracy, newAccuracy };
}

export function save(l: Loaded, ed: Edited, job: Extract<TreeJob, { op: "save" }>, onProgress: TreeProgress): JobDoneResult {
  const t0 = performance.now();
  const { tree, data } = l;
  const r = adjust(l, ed, (f, m) => onProgress(0.95 * f, m), job.adjust);
  const view = viewOf(tree, ed.protos, r.logits);
  try {
    view.projections = tree.projections.map((p, h) => {
      if (!ed.edited.has(h)) return p;
      const src = ed.source[h]!;
      return { sample: src.sample, label: data.train.labels[src.sample], row: src.row, col: src.col, distance: 0 };
    });
    view.manifest = {
      ...tree.manifest,
      testAccuracy: Math.round(r.newAccuracy * 10000) / 10000,
      trainedAt: new Date().toISOString(),
      command: `edited from ${job.treeId}: ${ed.checked.length} edit(s)${job.adjust ? `, leaves re-fitted (${ADJUST_EPOCHS} epochs)` : ""}`,
    };
    onProgress(0.97, "writing the tree");
    const treeId = saveTree(view, job.owner, job.name);
    onProgress(1, "saved");
    return { oldAccuracy: r.oldAccuracy, newAccuracy: r.newAccuracy, treeId, elapsedMs: performance.now() - t0 };
  } catch (err) {
    if (err instanceof TreeExistsError) return { oldAccuracy: r.oldAccuracy, newAccuracy: r.newAccuracy, treeId: "", elapsedMs: 0, exists: true };
    throw err;
  } finally {
    view.dispose();
  }
}
