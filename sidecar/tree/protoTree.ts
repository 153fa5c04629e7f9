// ProtoTree (Nauta, van Bree & Seifert, "Neural Prototype Trees for Interpretable Fine-grained
// Image Recognition", CVPR 2021), written for the sidecar's tfjs runtime. The public reference code
// is M-Nauta/ProtoTree; facts taken from it are cited by its file names (prototree/*.py,
// util/*.py). Written here rather than imported because there is no JavaScript ProtoTree and the
// platform must train and serve it with the same tensor runtime as the zoo.
//
// API used by the rest of the Tree service (sidecar/tree/service.ts, edits, renderers) and SeBoW:
//   openTree(treeId, caller)            checkpoint.ts: loads a tree with the visibility check;
//                                       TreeNotFoundError for unknown or another user's tree.
//   saveTree(tree, owner, name)         checkpoint.ts: writes a user's tree (temp dir + rename).
//   forward(tree, x, structure)         per image: class probabilities of the soft tree, every
//                                       internal node's similarity exp(−min distance), the argmin
//                                       latent patch (row, col) and that minimum distance.
//   greedyPath(tree, sims, structure)   deterministic routing (right when similarity > 0.5, as
//                                       prototree.py's "greedy" strategy): nodes, directions, leaf.
//   tree.full / tree.pruned             the node structure before and after pruning (TreeStructure).
//   tree.projections[node]              each prototype's projection source (train sample + patch).
//   leafDistribution(tree, leaf)        a leaf's class distribution (softmax of its logits).
//   tree.manifest                       class names, dataset id and name, depth, accuracies, ...
//
// Node numbering: heap order over the complete tree of depth d. Internal nodes are 0..P−1
// (P = 2^d − 1; node h's children are 2h+1 (left) and 2h+2 (right)), leaves P..P+L−1 (L = 2^d);
// prototype h belongs to internal node h, leaf logits row (h − P) to leaf h. The reference numbers
// nodes in pre-order (prototree.py _init_tree); heap order lets training route a whole level with
// one tensor op. Node ids on the wire are `node-<h>` (nodeId()).
import * as tf from "@tensorflow/tfjs";
import { resnetBody, type ArchConfig } from "../zoo/architectures.ts";
import { conv2dSameTrainable } from "../zoo/convGrad.ts";
import type { Ops, ConvOptions, WeightMap } from "../zoo/layers.ts";
import { InferOps } from "../zoo/layers.ts";
import { Rng } from "../data/prng.ts";

export const PROTOTREE_CATEGORY = "ProtPTree";
/** Greedy routing goes right when the similarity exceeds this (prototree.py, sampling_strategy "greedy"). */
export const GREEDY_THRESHOLD = 0.5;

/** Which of the backbone's stages feeds the add-on layer, by tap name (layer1..layer4). */
export type BackboneLayer = "layer1" | "layer2" | "layer3" | "layer4";

export interface TreeManifest {
  format: "metarank-prototree/1";
  category: typeof PROTOTREE_CATEGORY;
  /** Directory name of the tree (platform id or the user's model name). */
  name: string;
  /** "" for platform trees. */
  owner: string;
  dataset: string;
  datasetName: string;
  classNames: string[];
  /** [height, width, channels] of the input. */
  inputShape: [number, number, number];
  depth: number;
  protoDim: number;
  backbone: {
    /** The zoo checkpoint the backbone started from (sidecar/zoo/checkpoints/<id>.json). */
    checkpoint: string;
    arch: "resnet";
    archConfig: ArchConfig;
    layer: BackboneLayer;
    /** Channels of that stage. */
    channels: number;
    /** True when the backbone was trained with the tree; its weights are then in the tree's file. */
    fineTuned: boolean;
    /** SHA-256 of the zoo checkpoint's weights the tree was trained on (a changed zoo file is refused). */
    weightsSha256: string;
  };
  /** Latent grid [rows, cols] the prototypes are compared with. */
  latentShape: [number, number];
  /** Leaves whose every class probability is ≤ this are pruned (prune.py). */
  pruningThreshold: number;
  /** Soft-routing accuracy of the pruned, projected tree on the test split (what is served). */
  testAccuracy: number;
  /** Greedy-routing accuracy of the same tree. */
  greedyAccuracy: number;
  testAccuracyBeforePruning: number;
  /** The backbone CNN's own classifier on the same test split. */
  cnnAccuracy: number;
  leaves: number;
  leavesAfterPruning: number;
  trainSize: number;
  testSize: number;
  iterations: number;
  batchSize: number;
  trainedAt: string;
  trainingSeconds: number;
  backend: string;
  /** How it was made (the command or the task id). */
  command: string;
  /** The pruned structure: root and [node, left, right] for each kept internal node. */
  pruned: { root: number; children: Array<[number, number, number]> };
  /** Per internal node (index = node), its projection source; null when not projected. */
  projections: Array<Projection | null>;
  weightsFile: string;
  weightsSha256: string;
  weights: Array<{ name: string; shape: number[] }>;
}

/** Where a prototype came from: a training image's latent patch. */
export interface Projection {
  /** Index in the dataset's train split ("train:<index>" as a sample id). */
  sample: number;
  label: number;
  /** Latent grid cell (row, col) of the patch. */
  row: number;
  col: number;
  /** L2 distance of the prototype before projection to that patch. */
  distance: number;
}

/** A binary tree over heap-numbered nodes: internal node → [left, right]; nodes without an entry are leaves. */
export interface TreeStructure {
  root: number;
  children: Map<number, [number, number]>;
}

export interface ProtoTree {
  manifest: TreeManifest;
  depth: number;
  numClasses: number;
  numPrototypes: number;
  numLeaves: number;
  backbone: Backbone;
  /** 1×1 add-on convolution [1, 1, channels, protoDim] and its bias [protoDim]. */
  addOnKernel: tf.Variable;
  addOnBias: tf.Variable;
  /** [P, protoDim] */
  prototypes: tf.Variable;
  /** [L × C] leaf logits; distributions are their softmax (leaf.py). Updated without gradients. */
  leafLogits: Float32Array;
  full: TreeStructure;
  pruned: TreeStructure;
  projections: Array<Projection | null>;
}

// ---------------------------------------------------------------------------------------------
// Node structure

export const nodeId = (h: number) => `node-${h}`;
export function parseNodeId(id: string): number | null {
  const m = /^node-(\d{1,5})$/.exec(id);
  return m ? Number(m[1]) : null;
}

export function numPrototypesOf(depth: number): number {
  return 2 ** depth - 1;
}

export function completeTree(depth: number): TreeStructure {
  const children = new Map<number, [number, number]>();
  for (let h = 0; h < numPrototypesOf(depth); h++) children.set(h, [2 * h + 1, 2 * h + 2]);
  return { root: 0, children };
}

export function isLeaf(s: TreeStructure, node: number): boolean {
  return !s.children.has(node);
}

/** Nodes of a structure, pre-order (left first), with their depth in that structure. */
export function nodesOf(s: TreeStructure): Array<{ node: number; depth: number }> {
  const out: Array<{ node: number; depth: number }> = [];
  const walk = (n: number, d: number) => {
    out.push({ node: n, depth: d });
    const c = s.children.get(n);
    if (c) {
      walk(c[0], d + 1);
      walk(c[1], d + 1);
    }
  };
  walk(s.root, 0);
  return out;
}

export function leavesBelow(s: TreeStructure, node: number): number[] {
  const out: number[] = [];
  const walk = (n: number) => {
    const c = s.children.get(n);
    if (!c) out.push(n);
    else {
      walk(c[0]);
      walk(c[1]);
    }
  };
  walk(node);
  return out;
}

export function structureToJson(s: TreeStructure): { root: number; children: Array<[number, number, number]> } {
  return { root: s.root, children: [...s.children].map(([n, [l, r]]) => [n, l, r]) };
}

export function structureFromJson(j: { root: number; children: Array<[number, number, number]> }): TreeStructure {
  return { root: j.root, children: new Map(j.children.map(([n, l, r]) => [n, [l, r]])) };
}

/** A leaf's class distribution: the numerically stable softmax of its logits (leaf.py distribution()). */
export function leafDistribution(tree: Pick<ProtoTree, "leafLogits" | "numClasses" | "numPrototypes">, leaf: number): Float32Array {
  const C = tree.numClasses;
  const k = leaf - tree.numPrototypes;
  if (k < 0 || (k + 1) * C > tree.leafLogits.length) throw new RangeError(`node ${leaf} is not a leaf`);
  return softmaxRow(tree.leafLogits.subarray(k * C, (k + 1) * C));
}

export function softmaxRow(logits: ArrayLike<number>): Float32Array {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) max = Math.max(max, logits[i]);
  const out = new Float32Array(logits.length);
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += out[i] = Math.exp(logits[i] - max);
  for (let i = 0; i < out.length; i++) out[i] /= sum;
  return out;
}

/** All leaf distributions as an [L, C] array (softmax per row). */
export function leafDistributions(leafLogits: Float32Array, numClasses: number): Float32Array {
  const out = new Float32Array(leafLogits.length);
  for (let k = 0; k < leafLogits.length / numClasses; k++) out.set(softmaxRow(leafLogits.subarray(k * numClasses, (k + 1) * numClasses)), k * numClasses);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Backbone and latent space

/** The zoo network's ResNet body up to one stage, over folded (batch norm merged) weights. */
export interface Backbone {
  weights: WeightMap;
  config: ArchConfig;
  layer: BackboneLayer;
  /** Features [B, h, w, channels]; `trainable` routes convolutions through convGrad.ts (fine-tuning on wasm). */
  forward(x: tf.Tensor4D, trainable?: boolean): tf.Tensor4D;
}

/** InferOps with convolutions whose gradients are forward convolutions (zoo/convGrad.ts), for fine-tuning. */
class TrainableFoldedOps implements Ops {
  constructor(private weights: WeightMap) {}
  private get(name: string): tf.Variable {
    const v = this.weights.get(name);
    if (!v) throw new Error(`backbone weight ${name} is missing`);
    return v;
  }
  conv(name: string, x: tf.Tensor4D, _filters: number, opts: ConvOptions = {}): tf.Tensor4D {
    return tf.add(conv2dSameTrainable(x, this.get(`${name}/kernel`) as tf.Tensor4D, opts.stride ?? 1), this.get(`${name}/bias`));
  }
  dense(name: string, x: tf.Tensor2D): tf.Tensor2D {
    return tf.add(tf.matMul(x, this.get(`${name}/kernel`)), this.get(`${name}/bias`));
  }
  relu<T extends tf.Tensor>(x: T): T {
    return tf.relu(x);
  }
  tap(_name: string, x: tf.Tensor4D): tf.Tensor4D {
    return x;
  }
}

export const BACKBONE_STAGE: Record<BackboneLayer, number> = { layer1: 0, layer2: 1, layer3: 2, layer4: 3 };

export function makeBackbone(weights: WeightMap, config: ArchConfig, layer: BackboneLayer): Backbone {
  return {
    weights,
    config,
    layer,
    forward(x, trainable = false) {
      const ops = trainable ? new TrainableFoldedOps(weights) : new InferOps(weights);
      const stages = resnetBody(ops, x, config);
      // resnetBody computes all four stages; the unused later ones are dropped by tidy.
      return stages[BACKBONE_STAGE[layer]];
    },
  };
}

/** The add-on layer: 1×1 convolution to the prototype dimension, then a sigmoid (the paper; util/net.py add_on_layers). */
export function addOn(tree: Pick<ProtoTree, "addOnKernel" | "addOnBias">, features: tf.Tensor4D): tf.Tensor4D {
  return tf.sigmoid(tf.add(tf.conv2d(features, tree.addOnKernel as tf.Tensor4D, 1, "valid"), tree.addOnBias)) as tf.Tensor4D;
}

/** Latent patches z = add-on(backbone(x)), [B, h, w, D]. */
export function latent(tree: ProtoTree, x: tf.Tensor4D, trainable = false): tf.Tensor4D {
  return addOn(tree, tree.backbone.forward(x, trainable));
}

/**
 * L2 distances between every latent patch and every prototype, [B, h·w, P]. As util/l2conv.py:
 * ‖z‖² + ‖p‖² − 2 z·p, then sqrt(|·| + 1e-14) (the reference uses the L2 distance, not its
 * square, and the epsilon keeps the gradient finite at 0).
 */
export function patchDistances(z: tf.Tensor4D, prototypes: tf.Tensor2D): tf.Tensor3D {
  const [B, h, w, D] = z.shape;
  const flat = tf.reshape(z, [B * h * w, D]) as tf.Tensor2D;
  const zz = tf.sum(tf.square(flat), 1, true);
  const pp = tf.reshape(tf.sum(tf.square(prototypes), 1), [1, -1]);
  const zp = tf.matMul(flat, prototypes, false, true);
  const d2 = tf.sub(tf.add(zz, pp), tf.mul(zp, 2));
  return tf.reshape(tf.sqrt(tf.add(tf.abs(d2), 1e-14)), [B, h * w, prototypes.shape[0]]) as tf.Tensor3D;
}

/** Min distance per prototype over the patches [B, P] and similarity exp(−d) (prototree.py forward). */
export function similaritiesFromDistances(dist: tf.Tensor3D): { minDist: tf.Tensor2D; sims: tf.Tensor2D } {
  const minDist = tf.min(dist, 1) as tf.Tensor2D;
  return { minDist, sims: tf.exp(tf.neg(minDist)) };
}

/**
 * Path probabilities of the leaves of the complete tree, [B, L], from the similarities [B, P]:
 * a node's right child gets pa·s, its left child pa·(1 − s) (branch.py forward), level by level
 * (heap order puts a level's nodes side by side, left child before right).
 */
export function leafPathProbabilities(sims: tf.Tensor2D, depth: number): tf.Tensor2D {
  const B = sims.shape[0];
  let pa: tf.Tensor2D = tf.ones([B, 1]);
  for (let level = 0; level < depth; level++) {
    const width = 2 ** level;
    const s = tf.slice(sims, [0, width - 1], [B, width]);
    pa = tf.reshape(tf.stack([tf.mul(pa, tf.sub(1, s)), tf.mul(pa, s)], 2), [B, 2 * width]) as tf.Tensor2D;
  }
  return pa;
}

// ---------------------------------------------------------------------------------------------
// Inference

export interface ForwardResult {
  batch: number;
  /** [B × C] class probabilities of the soft tree over the given structure. */
  probs: Float32Array;
  /** [B × P] exp(−min distance) per internal node. */
  sims: Float32Array;
  /** [B × P] the min distance. */
  minDist: Float32Array;
  /** [B × P] flat index (row · cols + col) of the nearest latent patch. */
  argmin: Int32Array;
  latentShape: [number, number];
}

/** One batch through the tree; `structure` says which tree routes (pruned by default, what is served). */
export function forward(tree: ProtoTree, x: tf.Tensor4D, structure: TreeStructure = tree.pruned): ForwardResult {
  const out = tf.tidy(() => {
    const z = latent(tree, x);
    const dist = patchDistances(z, tree.prototypes as tf.Tensor2D);
    const { minDist, sims } = similaritiesFromDistances(dist);
    return {
      z: z.shape,
      minDist: minDist.dataSync() as Float32Array,
      sims: sims.dataSync() as Float32Array,
      argmin: tf.argMin(dist, 1).dataSync() as Int32Array,
    };
  });
  const B = x.shape[0];
  const probs = softProbabilities(tree, out.sims, B, structure);
  return { batch: B, probs, sims: out.sims, minDist: out.minDist, argmin: Int32Array.from(out.argmin), latentShape: [out.z[1], out.z[2]] };
}

/** Index of the largest value (the first of equals): the predicted class of a probability row. */
export function argmax(v: ArrayLike<number>): number {
  let m = 0;
  for (let i = 1; i < v.length; i++) if (v[i] > v[m]) m = i;
  return m;
}

/**
 * Class probabilities of the soft tree over any structure (full or pruned), in plain JS: Σ over
 * leaves of path probability × leaf distribution (branch.py: (1 − s)·left + s·right).
 */
export function softProbabilities(
  tree: Pick<ProtoTree, "leafLogits" | "numClasses" | "numPrototypes">,
  sims: Float32Array,
  batch: number,
  structure: TreeStructure,
): Float32Array {
  const C = tree.numClasses;
  const P = tree.numPrototypes;
  const dists = leafDistributions(tree.leafLogits, C);
  const probs = new Float32Array(batch * C);
  for (let b = 0; b < batch; b++) {
    const walk = (node: number, pa: number) => {
      const c = structure.children.get(node);
      if (!c) {
        const k = node - P;
        for (let j = 0; j < C; j++) probs[b * C + j] += pa * dists[k * C + j];
        return;
      }
      const s = sims[b * P + node];
      walk(c[0], pa * (1 - s));
      walk(c[1], pa * s);
    };
    walk(structure.root, 1);
  }
  return probs;
}

export interface GreedyPath {
  /** Internal nodes visited, root first. */
  nodes: number[];
  /** "right" when the node's similarity exceeded 0.5, else "left". */
  directions: Array<"left" | "right">;
  leaf: number;
  /** Argmax of the leaf's distribution. */
  predicted: number;
}

/** Deterministic routing of image `b` (prototree.py sampling_strategy "greedy": right iff s > 0.5). */
export function greedyPath(
  tree: Pick<ProtoTree, "leafLogits" | "numClasses" | "numPrototypes">,
  sims: Float32Array,
  structure: TreeStructure,
  b = 0,
): GreedyPath {
  const P = tree.numPrototypes;
  const nodes: number[] = [];
  const directions: Array<"left" | "right"> = [];
  let node = structure.root;
  for (let c = structure.children.get(node); c; c = structure.children.get(node)) {
    nodes.push(node);
    const right = sims[b * P + node] > GREEDY_THRESHOLD;
    directions.push(right ? "right" : "left");
    node = right ? c[1] : c[0];
  }
  const dist = leafDistribution(tree, node);
  let predicted = 0;
  for (let j = 1; j < dist.length; j++) if (dist[j] > dist[predicted]) predicted = j;
  return { nodes, directions, leaf: node, predicted };
}

/** The pixel box of a latent cell: the input region that cell's stride covers (for crops and outlines). */
export function patchBox(tree: ProtoTree, row: number, col: number): { top: number; left: number; height: number; width: number } {
  const [H, W] = tree.manifest.inputShape;
  const [h, w] = tree.manifest.latentShape;
  const top = Math.floor((row * H) / h);
  const left = Math.floor((col * W) / w);
  return { top, left, height: Math.floor(((row + 1) * H) / h) - top, width: Math.floor(((col + 1) * W) / w) - left };
}

// ---------------------------------------------------------------------------------------------
// Training maths (used by trainProtoTree.ts; here so the tests check the same code)

/**
 * The derivative-free leaf update of one mini-batch (train.py train_epoch, the non-log branch):
 *   logits ← relu(logits − logits₀ / nBatches) + Σ_b pa_leaf(b) · dist_leaf ⊙ y_b / ŷ_b
 * where logits₀ are the logits at the start of the epoch (so an epoch's contributions replace
 * the previous epoch's: the reference's smoothing) and nBatches the batches per epoch.
 * pa: [B × L] leaf path probabilities, y: [B] labels, yPred: [B × C] the tree's output.
 * Each term pa·dist_c/ŷ_c is a leaf's share of ŷ_c, so it lies in [0, 1]; it is clamped there so
 * an underflowed ŷ (float32) cannot produce Inf/NaN, which the reference risks.
 */
export function leafUpdate(
  leafLogits: Float32Array,
  epochStartLogits: Float32Array,
  nBatches: number,
  pa: Float32Array,
  labels: ArrayLike<number>,
  yPred: Float32Array,
  numClasses: number,
): void {
  const update = leafUpdateTerms(leafDistributions(leafLogits, numClasses), pa, labels, yPred, numClasses);
  applyLeafUpdate(leafLogits, epochStartLogits, nBatches, update);
}

/**
 * The batch's evidence Σ_b pa_leaf(b) · dist_leaf ⊙ y_b / ŷ_b of leafUpdate, [L × C], for the
 * leaf distributions `dists` the batch was routed with. It is a sum over images, so the terms of
 * a batch's shards add up to the whole batch's (data-parallel training, dataParallel.ts).
 */
export function leafUpdateTerms(dists: Float32Array, pa: Float32Array, labels: ArrayLike<number>, yPred: Float32Array, numClasses: number): Float32Array {
  const C = numClasses;
  const L = dists.length / C;
  const B = labels.length;
  const update = new Float32Array(L * C);
  for (let b = 0; b < B; b++) {
    const c = labels[b];
    const y = yPred[b * C + c];
    for (let k = 0; k < L; k++) {
      const share = y > 0 ? (pa[b * L + k] * dists[k * C + c]) / y : 0;
      update[k * C + c] += Math.min(1, Math.max(0, share));
    }
  }
  return update;
}

/** logits ← relu(logits − logits₀ / nBatches) + update (leafUpdate's second half). */
export function applyLeafUpdate(leafLogits: Float32Array, epochStartLogits: Float32Array, nBatches: number, update: Float32Array): void {
  for (let i = 0; i < leafLogits.length; i++) leafLogits[i] = Math.max(0, leafLogits[i] - epochStartLogits[i] / nBatches) + update[i];
}

/**
 * Pruning as prune.py: a node (internal or leaf) is prunable when every leaf below it has a
 * maximum class probability ≤ threshold; descendants of a prunable non-root node are dropped
 * from the list; each remaining node is removed together with its parent, whose place in the
 * grandparent the node's sibling takes. A node whose parent is the root is kept (the root
 * cannot be removed). Returns the pruned structure and the removed nodes.
 */
export function pruneStructure(full: TreeStructure, leafMax: (leaf: number) => number, threshold: number): { pruned: TreeStructure; removed: number[] } {
  const children = new Map([...full.children].map(([n, c]) => [n, [c[0], c[1]] as [number, number]]));
  const parent = new Map<number, number>();
  for (const [n, [l, r]] of children) {
    parent.set(l, n);
    parent.set(r, n);
  }
  const s: TreeStructure = { root: full.root, children };
  const all = nodesOf(s).map((x) => x.node);
  const prunable = all.filter((n) => leavesBelow(s, n).every((leaf) => leafMax(leaf) <= threshold));
  const toPrune = new Set(prunable);
  for (const n of prunable) {
    if (n !== s.root && children.has(n)) for (const d of nodesOf({ root: n, children: full.children })) if (d.node !== n) toPrune.delete(d.node);
  }
  const removed: number[] = [];
  for (const n of toPrune) {
    const p = parent.get(n);
    if (p === undefined || p === s.root) continue;
    const g = parent.get(p)!;
    const [pl, pr] = children.get(p)!;
    const sibling = pl === n ? pr : pl;
    const gc = children.get(g)!;
    if (gc[0] === p) gc[0] = sibling;
    else gc[1] = sibling;
    parent.set(sibling, g);
    children.delete(p);
    parent.delete(p);
    removed.push(p, ...nodesOf({ root: n, children: full.children }).map((x) => x.node));
  }
  // Drop the entries of removed internal nodes below a pruned node (they are unreachable now).
  const reachable = new Set(nodesOf(s).map((x) => x.node));
  for (const n of [...children.keys()]) if (!reachable.has(n)) children.delete(n);
  return { pruned: s, removed };
}

/** Classes a node's prototype may be projected from: the argmax of each leaf below it (project.py project_with_class_constraints). */
export function allowedClasses(tree: Pick<ProtoTree, "leafLogits" | "numClasses" | "numPrototypes">, structure: TreeStructure, node: number): Set<number> {
  const out = new Set<number>();
  for (const leaf of leavesBelow(structure, node)) {
    const d = leafDistribution(tree, leaf);
    let m = 0;
    for (let j = 1; j < d.length; j++) if (d[j] > d[m]) m = j;
    out.add(m);
  }
  return out;
}

/** Initial weights (util/init.py): prototypes ~ N(0.5, 0.1); add-on Xavier-normal with the sigmoid's gain 1; leaves 0. */
export function initialTreeWeights(rng: Rng, depth: number, channels: number, protoDim: number, numClasses: number) {
  const P = numPrototypesOf(depth);
  const protos = new Float32Array(P * protoDim);
  for (let i = 0; i < protos.length; i++) protos[i] = 0.5 + 0.1 * rng.normal();
  const std = Math.sqrt(2 / (channels + protoDim));
  const kernel = new Float32Array(channels * protoDim);
  for (let i = 0; i < kernel.length; i++) kernel[i] = std * rng.normal();
  return { prototypes: protos, addOnKernel: kernel, addOnBias: new Float32Array(protoDim), leafLogits: new Float32Array((P + 1) * numClasses) };
}

/** Frees a tree's tensors (its backbone included). */
export function disposeTree(tree: ProtoTree): void {
  for (const v of tree.backbone.weights.values()) v.dispose();
  tree.backbone.weights.clear();
  tree.addOnKernel.dispose();
  tree.addOnBias.dispose();
  tree.prototypes.dispose();
}
