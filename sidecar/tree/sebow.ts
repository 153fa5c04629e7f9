// SeBoW, "Self-born Wiring for Neural Trees" (Y. Chen, F. Mao, J. Song, X. Wang, H. Wang, M. Song,
// ICCV 2021, doi:10.1109/ICCV48922.2021.00500), as this platform implements it (docs/sebow.md):
//
//  SearchSpaceModel — a "mother" CNN cut into isolated filter groups: a shared stem (the root)
//    and `layers` layers of `groups` convolution blocks each, then one solver (global average
//    pool + linear + softmax) after every block of the last layer. Every block of layer l (and
//    the stem) carries a router (GAP + linear + softmax over the `groups` blocks of layer l+1):
//    the wiring. For one image, π_0(root) = 1, the edge mass e_l(i→j) = π_l(i)·p_l(j | i, x),
//    π_{l+1}(j) = Σ_i e_l(i→j); block j of layer l+1 reads the mixture Σ_i e_l(i→j)/π_{l+1}(j)·h_i
//    of its parents' features; the prediction is Σ_j π_L(j)·softmax(solver_j(h_j)). Everything is
//    trained jointly by the negative log-likelihood of that mixture.
//  Derivation — the learned wiring strength of edge i→j is W_l[i][j] = Σ_x π_l(i|x)·p_l(j|i,x) /
//    Σ_x π_l(i|x) over the training images (how much of what reaches block i it sends to j). From
//    the root, each tree node keeps the children whose strength reaches `threshold` (strongest
//    first, at most `maxChildren`, at least the strongest one, and no more branching once the tree
//    would exceed `maxLeaves` leaves). A node keeping one child passes its features on without a
//    decision. The tree is unrolled: two nodes on different paths that came from the same block
//    start from copies of its weights and are fine-tuned separately.
//  NeuralDecisionTree — the derived tree: each node its block; a node with several children a
//    router restricted to them (the search space's router columns of the kept children, so the
//    softmax re-normalises over them); each leaf its solver. Soft prediction Σ_leaf π(leaf)·
//    softmax(solver_leaf), π(leaf) the product of the routing probabilities on its path. It is
//    fine-tuned with the same loss.
//
// Written here (tfjs has no neural-tree or routing layers) over plain tf.Variables like the zoo's
// networks (sidecar/zoo/layers.ts), with the zoo's forward-convolution gradients
// (sidecar/zoo/convGrad.ts) so training is practical on the wasm backend.
import * as tf from "@tensorflow/tfjs";
import { Rng } from "../data/prng.ts";
import { conv2dSameTrainable } from "../zoo/convGrad.ts";
import { maxPool } from "../zoo/maxPool.ts";
import type { ArchConfig } from "../zoo/architectures.ts";
import { heNormal, type WeightMap } from "../zoo/layers.ts";
import { makeBackbone, type BackboneLayer } from "./protoTree.ts";

export type SebowVariant = "SearchSpaceModel" | "NeuralDecisionTree";
export const SEBOW_VARIANTS: readonly SebowVariant[] = ["SearchSpaceModel", "NeuralDecisionTree"];

/**
 * A feature net in front of the stem (docs/sebow.md "The committed model"): the ResNet body of a
 * zoo checkpoint trained on the same data, cut at one stage, as ProtoTree starts from one
 * (protoTree.ts makeBackbone). Its weights travel with each model's weights as `bb/<zoo name>`:
 * SeBoW fine-tunes them, so the search space and the tree each keep their own copy. The stem then
 * reads the stage's features instead of the image; everything else (routing, derivation, DI, SPI)
 * is unchanged, and the gradients that DI shows go back through the feature net to the pixels.
 */
export interface SebowBackbone {
  checkpoint: string;
  arch: "resnet";
  archConfig: ArchConfig;
  layer: BackboneLayer;
  /** Channels of the stage's output (the stem's input). */
  channels: number;
  /** The zoo checkpoint's weights it started from. */
  weightsSha256: string;
}

export interface SebowConfig {
  inputShape: [number, number, number];
  numClasses: number;
  stemWidth: number;
  /** Channels of each layer's blocks (its length is the number of layers). */
  widths: number[];
  /** Blocks (filter groups) per layer. */
  groups: number;
  /** The feature net in front of the stem; absent: the stem reads the image. */
  backbone?: SebowBackbone;
}

/** Tree node of the derived NeuralDecisionTree. */
export interface SebowTreeNode {
  id: string;
  /** 0 = the stem (root); 1..L = the search space's layer the block came from. */
  layer: number;
  /** Block index in its layer (0 for the stem). */
  group: number;
  children: string[];
}

export interface SebowTree {
  root: string;
  nodes: SebowTreeNode[];
  /** The search space's feature net (SebowConfig.backbone), which the tree keeps in front of its root. */
  backbone?: SebowBackbone;
}

export type Weights = Map<string, tf.Variable>;

/** Spatial pooling after a block while the map is larger than 4×4 (32×32 input: stem, layer 1, layer 2). */
function pools(h: number): boolean {
  return h > 4;
}

const gap = (h: tf.Tensor4D) => tf.mean(h, [1, 2]) as tf.Tensor2D;

/** conv 3×3 ("same") + bias + ReLU, then 2×2 max pool while the map is larger than 4×4. */
function block(w: Weights, name: string, x: tf.Tensor4D, train: boolean): tf.Tensor4D {
  const k = w.get(`${name}/kernel`)! as unknown as tf.Tensor4D;
  const b = w.get(`${name}/bias`)!;
  const conv = train ? conv2dSameTrainable(x, k, 1) : tf.conv2d(x, k, 1, "same");
  const y = tf.relu(tf.add(conv, b)) as tf.Tensor4D;
  return pools(y.shape[1]) ? maxPool(y, 2, 2) : y;
}

function dense(w: Weights, name: string, x: tf.Tensor2D): tf.Tensor2D {
  return tf.add(tf.matMul(x, w.get(`${name}/kernel`)!), w.get(`${name}/bias`)!);
}

/** Prefix of the feature net's weights in a model's weights. */
export const BACKBONE_PREFIX = "bb/";

const backboneMaps = new WeakMap<Weights, WeightMap>();

/**
 * The feature net's output for images x: the stage `backbone.layer` of the ResNet body whose
 * weights are `bb/…` in `w`. `train` runs the trainable folded convolutions (gradients reach the
 * weights), as ProtoTree's fine-tuning does.
 */
export function backboneFeatures(backbone: SebowBackbone, w: Weights, x: tf.Tensor4D, train = false): tf.Tensor4D {
  let map = backboneMaps.get(w);
  if (!map) {
    map = new Map();
    for (const [name, v] of w) if (name.startsWith(BACKBONE_PREFIX)) map.set(name.slice(BACKBONE_PREFIX.length), v);
    backboneMaps.set(w, map);
  }
  return makeBackbone(map, backbone.archConfig, backbone.layer).forward(x, train);
}

/** Channels the stem reads: the feature net's, or the image's. */
export function stemInputChannels(cfg: SebowConfig): number {
  return cfg.backbone ? cfg.backbone.channels : cfg.inputShape[2];
}

/** Block widths of layer l (0 = stem). */
export function widthOf(cfg: SebowConfig, layer: number): number {
  return layer === 0 ? cfg.stemWidth : cfg.widths[layer - 1];
}

/** Fresh search-space weights: stem, L×K blocks, routers of the stem and layers 1..L−1, K solvers. */
export function initSearchSpace(cfg: SebowConfig, seed: number): Weights {
  const rng = new Rng(seed);
  const w: Weights = new Map();
  const add = (name: string, t: tf.Tensor) => w.set(name, tf.variable(t, true));
  const conv = (name: string, cin: number, cout: number) => {
    add(`${name}/kernel`, heNormal(rng, [3, 3, cin, cout], 9 * cin));
    add(`${name}/bias`, tf.zeros([cout]));
  };
  conv("stem", stemInputChannels(cfg), cfg.stemWidth);
  const L = cfg.widths.length;
  for (let l = 1; l <= L; l++) for (let g = 0; g < cfg.groups; g++) conv(`L${l}.G${g}`, widthOf(cfg, l - 1), widthOf(cfg, l));
  for (let l = 0; l < L; l++) {
    for (let g = 0; g < (l === 0 ? 1 : cfg.groups); g++) {
      // Small router weights: every wire starts near uniform, the data decides the wiring.
      add(`R${l}.G${g}/kernel`, tf.mul(heNormal(rng, [widthOf(cfg, l), cfg.groups], widthOf(cfg, l)), 0.1));
      add(`R${l}.G${g}/bias`, tf.zeros([cfg.groups]));
    }
  }
  for (let g = 0; g < cfg.groups; g++) {
    add(`S${g}/kernel`, heNormal(rng, [widthOf(cfg, L), cfg.numClasses], widthOf(cfg, L)));
    add(`S${g}/bias`, tf.zeros([cfg.numClasses]));
  }
  return w;
}

export interface SearchSpaceOutput {
  /** [N, C] class probabilities of the mixture. */
  probs: tf.Tensor2D;
  /** routing[l][i]: [N, K] p_l(· | i, x) of block i of layer l (layer 0: the stem only). */
  routing: tf.Tensor2D[][];
  /** arrival[l]: [N, K_l] π_l (layer 0: [N, 1]). */
  arrival: tf.Tensor2D[];
  /** Features of every block, layer by layer. */
  features: tf.Tensor4D[][];
}

/**
 * The search space's forward pass (see the header for the equations). `x` is the images, or with
 * `fromFeatures` the feature net's output already computed (training with a frozen feature net
 * computes it once per image: sebowTrain.ts).
 */
export function searchSpaceForward(cfg: SebowConfig, w: Weights, x: tf.Tensor4D, train = false, fromFeatures = false): SearchSpaceOutput {
  const L = cfg.widths.length;
  const n = x.shape[0];
  const input = cfg.backbone && !fromFeatures ? backboneFeatures(cfg.backbone, w, x, train) : x;
  let feats: tf.Tensor4D[] = [block(w, "stem", input, train)];
  let pi: tf.Tensor2D = tf.ones([n, 1]);
  const routing: tf.Tensor2D[][] = [];
  const arrival: tf.Tensor2D[] = [pi];
  const features: tf.Tensor4D[][] = [feats];
  for (let l = 0; l < L; l++) {
    const p = feats.map((h, i) => tf.softmax(dense(w, `R${l}.G${i}`, gap(h))) as tf.Tensor2D);
    routing.push(p);
    // edge[i] = π_l(i)·p(·|i): [N, K]
    const edges = p.map((pi_i, i) => tf.mul(tf.slice(pi, [0, i], [n, 1]), pi_i) as tf.Tensor2D);
    const next = tf.addN(edges) as tf.Tensor2D;
    const safe = tf.maximum(next, 1e-12);
    const nextFeats: tf.Tensor4D[] = [];
    for (let j = 0; j < cfg.groups; j++) {
      const mix = tf.addN(
        feats.map((h, i) => tf.mul(h, tf.reshape(tf.div(tf.slice(edges[i], [0, j], [n, 1]), tf.slice(safe, [0, j], [n, 1])), [n, 1, 1, 1]))),
      ) as tf.Tensor4D;
      nextFeats.push(block(w, `L${l + 1}.G${j}`, mix, train));
    }
    feats = nextFeats;
    pi = next;
    arrival.push(pi);
    features.push(feats);
  }
  const probs = tf.addN(feats.map((h, j) => tf.mul(tf.slice(pi, [0, j], [n, 1]), tf.softmax(dense(w, `S${j}`, gap(h)))))) as tf.Tensor2D;
  return { probs, routing, arrival, features };
}

/**
 * Accumulates the wiring strength W_l[i][j] = Σ_x π_l(i|x)·p_l(j|i,x) / Σ_x π_l(i|x) over batches
 * of (already computed) routing and arrival probabilities.
 */
export class WiringMeter {
  private num: number[][][];
  private den: number[][];
  constructor(
    private layers: number,
    private groups: number,
  ) {
    this.num = Array.from({ length: layers }, (_, l) => Array.from({ length: l === 0 ? 1 : groups }, () => new Array<number>(groups).fill(0)));
    this.den = Array.from({ length: layers }, (_, l) => new Array<number>(l === 0 ? 1 : groups).fill(0));
  }
  /** routing[l][i] and arrival[l] as nested arrays over the batch ([N][K], [N][K_l]). */
  add(routing: number[][][][], arrival: number[][][]): void {
    for (let l = 0; l < this.layers; l++) {
      for (let i = 0; i < this.num[l].length; i++) {
        const p = routing[l][i];
        for (let b = 0; b < p.length; b++) {
          const a = arrival[l][b][i];
          this.den[l][i] += a;
          for (let j = 0; j < this.groups; j++) this.num[l][i][j] += a * p[b][j];
        }
      }
    }
  }
  wiring(): number[][][] {
    return this.num.map((rows, l) => rows.map((row, i) => row.map((v) => (this.den[l][i] > 0 ? v / this.den[l][i] : 1 / this.groups))));
  }
}

export interface DeriveOptions {
  threshold: number;
  maxChildren: number;
  maxLeaves: number;
}

export const DEFAULT_DERIVE: DeriveOptions = { threshold: 0.3, maxChildren: 2, maxLeaves: 8 };

/**
 * Derive the tree from the wiring (W[l][i][j], l = 0..L−1): breadth first from the root, each node
 * keeps the children whose strength is ≥ threshold (strongest first, ≤ maxChildren, ≥ 1), and stops
 * branching once the leaves would exceed maxLeaves.
 */
export function deriveTree(wiring: number[][][], opts: DeriveOptions = DEFAULT_DERIVE): SebowTree {
  const L = wiring.length;
  const nodes: SebowTreeNode[] = [{ id: "n0", layer: 0, group: 0, children: [] }];
  let frontier = [nodes[0]];
  for (let l = 0; l < L; l++) {
    let leaves = frontier.length;
    const next: SebowTreeNode[] = [];
    for (const node of frontier) {
      const row = wiring[l][node.group];
      const order = row.map((v, j) => [v, j] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
      const kept = [order[0][1]];
      for (const [v, j] of order.slice(1)) {
        if (kept.length >= opts.maxChildren || v < opts.threshold || leaves + 1 > opts.maxLeaves) break;
        kept.push(j);
        leaves++;
      }
      for (const j of kept) {
        const child: SebowTreeNode = { id: `n${nodes.length}`, layer: l + 1, group: j, children: [] };
        nodes.push(child);
        node.children.push(child.id);
        next.push(child);
      }
    }
    frontier = next;
  }
  return { root: "n0", nodes };
}

/** The tree's initial weights: copies of the search space's blocks, kept router columns and solvers (and feature net). */
export function initTreeWeights(cfg: SebowConfig, tree: SebowTree, ss: Weights): Weights {
  const w: Weights = new Map();
  const copy = (name: string, t: tf.Tensor) => w.set(name, tf.variable(t.clone(), true));
  for (const [name, v] of ss) if (name.startsWith(BACKBONE_PREFIX)) copy(name, v);
  const L = cfg.widths.length;
  const byId = new Map(tree.nodes.map((n) => [n.id, n]));
  for (const node of tree.nodes) {
    const src = node.layer === 0 ? "stem" : `L${node.layer}.G${node.group}`;
    copy(`${node.id}.block/kernel`, ss.get(`${src}/kernel`)!);
    copy(`${node.id}.block/bias`, ss.get(`${src}/bias`)!);
    if (node.children.length > 1) {
      const cols = node.children.map((c) => byId.get(c)!.group);
      const idx = tf.tensor1d(cols, "int32");
      copy(`${node.id}.router/kernel`, tf.gather(ss.get(`R${node.layer}.G${node.group}/kernel`)!, idx, 1));
      copy(`${node.id}.router/bias`, tf.gather(ss.get(`R${node.layer}.G${node.group}/bias`)!, idx));
      idx.dispose();
    }
    if (node.layer === L) {
      copy(`${node.id}.solver/kernel`, ss.get(`S${node.group}/kernel`)!);
      copy(`${node.id}.solver/bias`, ss.get(`S${node.group}/bias`)!);
    }
  }
  return w;
}

export interface TreeOutput {
  /** [N, C] soft prediction. */
  probs: tf.Tensor2D;
  /** Routing probabilities of every deciding node over its children: [N, children]. */
  routing: Map<string, tf.Tensor2D>;
  /** π of every node ([N, 1]). */
  reach: Map<string, tf.Tensor2D>;
  /** Leaf class distributions softmax(solver) [N, C]. */
  leafProbs: Map<string, tf.Tensor2D>;
}

/** The tree's forward pass; `fromFeatures` as for searchSpaceForward. */
export function treeForward(tree: SebowTree, w: Weights, x: tf.Tensor4D, train = false, fromFeatures = false): TreeOutput {
  const byId = new Map(tree.nodes.map((n) => [n.id, n]));
  const routing = new Map<string, tf.Tensor2D>();
  const reach = new Map<string, tf.Tensor2D>();
  const leafProbs = new Map<string, tf.Tensor2D>();
  const parts: tf.Tensor2D[] = [];
  const visit = (id: string, input: tf.Tensor4D, pi: tf.Tensor2D) => {
    const node = byId.get(id)!;
    reach.set(id, pi);
    const h = block(w, `${id}.block`, input, train);
    if (node.children.length === 0) {
      const p = tf.softmax(dense(w, `${id}.solver`, gap(h))) as tf.Tensor2D;
      leafProbs.set(id, p);
      parts.push(tf.mul(pi, p));
    } else if (node.children.length === 1) visit(node.children[0], h, pi);
    else {
      const r = tf.softmax(dense(w, `${id}.router`, gap(h))) as tf.Tensor2D;
      routing.set(id, r);
      node.children.forEach((c, k) => visit(c, h, tf.mul(pi, tf.slice(r, [0, k], [x.shape[0], 1]))));
    }
  };
  const input = tree.backbone && !fromFeatures ? backboneFeatures(tree.backbone, w, x, train) : x;
  visit(tree.root, input, tf.ones([x.shape[0], 1]));
  return { probs: tf.addN(parts) as tf.Tensor2D, routing, reach, leafProbs };
}

/** Mean negative log-likelihood of the labels under a [N, C] probability tensor. */
export function nll(probs: tf.Tensor2D, labels: tf.Tensor2D): tf.Scalar {
  return tf.neg(tf.mean(tf.log(tf.add(tf.sum(tf.mul(probs, labels), 1), 1e-8)))) as tf.Scalar;
}

/** The greedy path of the tree for one image: at each deciding node the child with the largest routing probability. */
export function greedyPath(tree: SebowTree, routing: Map<string, number[]>): string[] {
  const byId = new Map(tree.nodes.map((n) => [n.id, n]));
  const path = [tree.root];
  let node = byId.get(tree.root)!;
  while (node.children.length > 0) {
    let k = 0;
    const r = routing.get(node.id);
    if (r) for (let c = 1; c < r.length; c++) if (r[c] > r[k]) k = c;
    node = byId.get(node.children[k])!;
    path.push(node.id);
  }
  return path;
}

export function leafCount(tree: SebowTree): number {
  return tree.nodes.filter((n) => n.children.length === 0).length;
}

/** A plain CNN of the same shape (one block per layer, no wiring): the comparison the task reports. */
export function plainCnnConfig(cfg: SebowConfig): SebowConfig {
  return { ...cfg, groups: 1 };
}
