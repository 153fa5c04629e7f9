// The Tree service's work on a ProtoTree, in the calling thread: what each worker of the
// sidecar's pool runs for sidecar/tree/service.ts (tensor work never runs on the gRPC thread).
// The maths is D1's (sidecar/tree/protoTree.ts: latent patches, distances, soft and greedy
// routing, the derivative-free leaf update); this module loads trees, applies a request's edits
// (edits.ts) to a copy, and turns results into the contract's shapes with pictures
// (renderImages.ts, render.ts). Visibility is checked by the service before a job is submitted:
// a job names the tree's directory.
import fs from "node:fs";
import path from "node:path";
import * as tf from "@tensorflow/tfjs";
import type { DatasetSplits, ImageDataset } from "../data/dataset.ts";
import { decodeImage, encodePng, resizeBilinear, sniffImageKind, type FloatImage } from "../data/png.ts";
import { Rng } from "../data/prng.ts";
import { MANIFEST_FILE, TreeCheckpointError, TreeExistsError, openTreeDir, saveTree } from "./checkpoint.ts";
import { checkEdits, candidateId, favourClass, TreeEditError, type CheckedEdit, type EditInput, type PatchRef } from "./edits.ts";
import {
  greedyPath,
  latent,
  leafDistribution,
  leafUpdate,
  nodeId,
  nodesOf,
  patchBox,
  patchDistances,
  softProbabilities,
  type ProtoTree,
  type Projection,
  type TreeManifest,
  type TreeStructure,
} from "./protoTree.ts";
import { renderExport, type RenderGraph, type RenderNode } from "./render.ts";
import { cropPng, distributionPng, outlinedPng, similarityHeatmapPng, type PixelBox } from "./renderImages.ts";
import { loadTreeDataset } from "./treeDatasets.ts";

/** Pool images per call (the page shows a grid of a dozen). */
export const MAX_POOL = 48;
/** Candidates per call. */
export const MAX_CANDIDATES = 50;
/** AdjustTree re-fits on at most this many training images and tests on at most this many test images (minutes on one wasm core). */
export const ADJUST_MAX_TRAIN = 3000;
export const ADJUST_MAX_TEST = 2000;
/** Epochs of the leaf update when adjusting (each a pass over the training images in batches of ADJUST_BATCH). */
export const ADJUST_EPOCHS = 5;
const ADJUST_BATCH = 64;
/** An uploaded picture's longest side (it is resized to the tree's input anyway). */
export const MAX_SIDE = 4096;

interface TreeJobBase {
  /** The tree's directory (resolved with the caller's visibility by the service). */
  dir: string;
  treeId: string;
  edits?: EditInput[];
}

export type TreeJob =
  | (TreeJobBase & { op: "pool"; count: number; seed: number })
  | (TreeJobBase & { op: "predict"; sampleId: string; imagePng: Uint8Array | null })
  | (TreeJobBase & { op: "graph"; full: boolean; withoutImages: boolean })
  | (TreeJobBase & { op: "candidates"; nodeId: string; limit: number })
  | (TreeJobBase & { op: "adjust" })
  | (TreeJobBase & { op: "save"; adjust: boolean; owner: string; name: string })
  | (TreeJobBase & { op: "export"; format: string; full: boolean; title: string; fileStem: string });

export interface PoolImage {
  sampleId: string;
  png: Uint8Array;
  label: number;
  labelName: string;
}

export interface PathStepResult {
  nodeId: string;
  nodeName: string;
  similarity: number;
  direction: "left" | "right";
  prototypePng: Uint8Array;
  patchPng: Uint8Array;
  heatmapPng: Uint8Array;
}

export interface PredictResult {
  groundTruth: number;
  groundTruthName: string;
  predicted: number;
  predictedName: string;
  probability: number;
  path: PathStepResult[];
  leafId: string;
  leafDistribution: number[];
  classNames: string[];
  greedyPredicted: number;
  elapsedMs: number;
}

export interface CandidateResult {
  candidateId: string;
  similarity: number;
  png: Uint8Array;
  label: number;
  labelName: string;
}

export interface GraphResult {
  treeId: string;
  root: string;
  nodes: RenderNode[];
  classNames: string[];
  full: boolean;
}

export interface JobDoneResult {
  oldAccuracy: number;
  newAccuracy: number;
  treeId: string;
  elapsedMs: number;
  /** SaveTree: the name was taken (the service answers ALREADY_EXISTS). */
  exists?: boolean;
}

export type TreeJobResult =
  | { op: "pool"; images: PoolImage[] }
  | { op: "predict"; result: PredictResult }
  | { op: "graph"; graph: GraphResult }
  | { op: "candidates"; candidates: CandidateResult[] }
  | { op: "adjust"; done: JobDoneResult }
  | { op: "save"; done: JobDoneResult }
  | { op: "export"; data: Uint8Array; contentType: string; fileName: string };

export type TreeProgress = (fraction: number, message: string) => void;

// ---------------------------------------------------------------------------------------------
// Loaded trees (per worker thread; a user's tree never changes once written, a platform tree
// only when an operator replaces it: the key includes the weights' checksum)

interface Loaded {
  key: string;
  tree: ProtoTree;
  data: DatasetSplits;
  baseProtos: Float32Array;
  /** Latent patches [h·w·D] of training images, by index (bounded by LATENT_CACHE_BYTES). */
  latents: Map<number, Float32Array>;
  crops: Map<string, Uint8Array>;
}

const LATENT_CACHE_BYTES = 64 * 1024 * 1024;
const loaded: Loaded[] = [];
const KEEP_TREES = 2;

function checkpointFailure(err: unknown): never {
  const e = err as Error;
  // Named as the pool's checkpoint errors so the service answers FAILED_PRECONDITION (sidecar/inference/errors.ts).
  if (err instanceof TreeCheckpointError) {
    const out = new Error(e.message);
    out.name = "CheckpointError";
    throw out;
  }
  throw err;
}

function load(dir: string, treeId: string): Loaded {
  let manifest: TreeManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST_FILE), "utf8")) as TreeManifest;
  } catch (err) {
    return checkpointFailure(new TreeCheckpointError(`tree "${treeId}" cannot be read: ${(err as Error).message}`));
  }
  const key = `${dir}|${manifest.weightsSha256}`;
  const hit = loaded.findIndex((l) => l.key === key);
  if (hit >= 0) {
    const [l] = loaded.splice(hit, 1);
    loaded.unshift(l);
    return l;
  }
  let tree: ProtoTree;
  try {
    tree = openTreeDir(dir, treeId);
  } catch (err) {
    return checkpointFailure(err);
  }
  let data: DatasetSplits;
  try {
    data = loadTreeDataset(tree.manifest.dataset);
  } catch (err) {
    return checkpointFailure(
      new TreeCheckpointError(`tree "${treeId}" was trained on ${tree.manifest.dataset}, which cannot be read here: ${(err as Error).message}`),
    );
  }
  const l: Loaded = { key, tree, data, baseProtos: Float32Array.from(tree.prototypes.dataSync()), latents: new Map(), crops: new Map() };
  loaded.unshift(l);
  while (loaded.length > KEEP_TREES) {
    const old = loaded.pop()!;
    for (const v of [old.tree.addOnKernel, old.tree.addOnBias, old.tree.prototypes]) v.dispose();
    for (const v of old.tree.backbone.weights.values()) v.dispose();
  }
  return l;
}

function imageOf(ds: ImageDataset, index: number): FloatImage {
  const n = ds.height * ds.width * ds.channels;
  return { height: ds.height, width: ds.width, channels: ds.channels, data: ds.images.slice(index * n, (index + 1) * n) };
}

function latentShapeOf(tree: ProtoTree): [number, number] {
  return tree.manifest.latentShape;
}

/** Latent patches of training images (cached), each [h·w·D]. */
function trainLatents(l: Loaded, samples: number[]): Float32Array[] {
  const missing = [...new Set(samples.filter((s) => !l.latents.has(s)))];
  const { train } = l.data;
  const n = train.height * train.width * train.channels;
  for (let s = 0; s < missing.length; s += 32) {
    const part = missing.slice(s, s + 32);
    const buf = new Float32Array(part.length * n);
    part.forEach((idx, i) => buf.set(train.images.subarray(idx * n, (idx + 1) * n), i * n));
    const z = tf.tidy(() => latent(l.tree, tf.tensor4d(buf, [part.length, train.height, train.width, train.channels])).dataSync() as Float32Array);
    const per = z.length / part.length;
    part.forEach((idx, i) => l.latents.set(idx, z.slice(i * per, (i + 1) * per)));
  }
  const out = samples.map((s) => l.latents.get(s)!);
  // Bound the cache: drop the oldest entries past the byte budget (Map keeps insertion order).
  let bytes = 0;
  for (const v of l.latents.values()) bytes += v.byteLength;
  for (const k of l.latents.keys()) {
    if (bytes <= LATENT_CACHE_BYTES) break;
    bytes -= l.latents.get(k)!.byteLength;
    l.latents.delete(k);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Edits

interface Edited {
  checked: CheckedEdit[];
  protos: Float32Array;
  logits: Float32Array;
  /** Each internal node's picture source (projection, or the candidate that replaced it). */
  source: Array<PatchRef | null>;
  edited: Set<number>;
  /** Leaves set by favour_class (held fixed when adjusting). */
  held: Set<number>;
}

function applyEdits(l: Loaded, edits: EditInput[] | undefined): Edited {
  const { tree, data } = l;
  const checked = checkEdits(edits, {
    numPrototypes: tree.numPrototypes,
    numLeaves: tree.numLeaves,
    numClasses: tree.numClasses,
    classNames: tree.manifest.classNames,
    trainSize: data.train.size,
    latentShape: latentShapeOf(tree),
  });
  const D = tree.manifest.protoDim;
  const C = tree.numClasses;
  const [, w] = latentShapeOf(tree);
  const protos = Float32Array.from(l.baseProtos);
  const logits = Float32Array.from(tree.leafLogits);
  const source: Array<PatchRef | null> = tree.projections.map((p) => (p ? { sample: p.sample, row: p.row, col: p.col } : null));
  const edited = new Set<number>();
  const held = new Set<number>();
  const protoEdits = checked.filter((e): e is Extract<CheckedEdit, { kind: "prototype" }> => e.kind === "prototype");
  const zs = trainLatents(
    l,
    protoEdits.map((e) => e.patch.sample),
  );
  protoEdits.forEach((e, i) => {
    const cell = e.patch.row * w + e.patch.col;
    protos.set(zs[i].subarray(cell * D, (cell + 1) * D), e.node * D);
    source[e.node] = e.patch;
    edited.add(e.node);
  });
  for (const e of checked) {
    if (e.kind !== "favour") continue;
    const k = e.node - tree.numPrototypes;
    favourClass(logits.subarray(k * C, (k + 1) * C), e.cls);
    edited.add(e.node);
    held.add(e.node);
  }
  return { checked, protos, logits, source, edited, held };
}

/** The tree with other prototypes and leaf logits (shares the backbone); dispose() frees its prototype tensor. */
function viewOf(tree: ProtoTree, protos: Float32Array, logits: Float32Array): ProtoTree & { dispose(): void } {
  const t = tf.tensor2d(protos, [tree.numPrototypes, tree.manifest.protoDim]);
  return { ...tree, manifest: { ...tree.manifest }, prototypes: t as unknown as tf.Variable, leafLogits: logits, dispose: () => t.dispose() };
}

// ---------------------------------------------------------------------------------------------
// Pictures

function pixelBox(tree: ProtoTree, row: number, col: number): PixelBox {
  const b = patchBox(tree, row, col);
  return { y0: b.top, x0: b.left, y1: b.top + b.height, x1: b.left + b.width };
}

function patchPicture(l: Loaded, p: PatchRef): Uint8Array {
  const key = candidateId(p);
  let png = l.crops.get(key);
  if (!png) {
    png = cropPng(imageOf(l.data.train, p.sample), pixelBox(l.tree, p.row, p.col));
    if (l.crops.size > 4096) l.crops.clear();
    l.crops.set(key, png);
  }
  return png;
}

const nodeName = (tree: ProtoTree, h: number) => (h < tree.numPrototypes ? `Node ${h}` : `Leaf ${h - tree.numPrototypes}`);

function argmax(v: ArrayLike<number>): number {
  let m = 0;
  for (let i = 1; i < v.length; i++) if (v[i] > v[m]) m = i;
  return m;
}

// ---------------------------------------------------------------------------------------------
// Operations

function pool(l: Loaded, count: number, seed: number): PoolImage[] {
  const { test } = l.data;
  const n = Math.max(1, Math.min(MAX_POOL, count || 12, test.size));
  const order = new Rng(seed >>> 0).permutation(test.size).subarray(0, n);
  return Array.from(order, (idx) => ({
    sampleId: `test:${idx}`,
    png: encodePng(imageOf(test, idx)),
    label: test.labels[idx],
    labelName: test.classNames[test.labels[idx]] ?? String(test.labels[idx]),
  }));
}

function inputImage(l: Loaded, sampleId: string, imagePng: Uint8Array | null): { img: FloatImage; label: number } {
  const [H, W, Ch] = l.tree.manifest.inputShape;
  if (sampleId) {
    const m = /^test:(\d{1,9})$/.exec(sampleId);
    const idx = m ? Number(m[1]) : -1;
    if (!(idx >= 0 && idx < l.data.test.size))
      throw new TreeEditError(
        `sample_id "${sampleId.slice(0, 40)}" is not a sample of this tree's test split (test:0 … test:${l.data.test.size - 1}, from Pool)`,
      );
    return { img: imageOf(l.data.test, idx), label: l.data.test.labels[idx] };
  }
  if (!imagePng || imagePng.length === 0) throw new TreeEditError("no image: send sample_id (from Pool) or image_png (PNG or JPEG bytes)");
  const kind = sniffImageKind(imagePng);
  if (!kind) throw new TreeEditError("the image is neither PNG nor JPEG");
  // A PNG's size is in its header (IHDR): refuse a huge one before pngjs allocates it (a few KiB
  // can declare gigapixels). JPEG decoding is capped by jpeg-js's memory limit (sidecar/data/png.ts).
  if (kind === "png" && imagePng.length >= 24) {
    const v = new DataView(imagePng.buffer, imagePng.byteOffset, imagePng.byteLength);
    const [w, h] = [v.getUint32(16), v.getUint32(20)];
    if (w > MAX_SIDE || h > MAX_SIDE) throw new TreeEditError(`the image is ${w}×${h} pixels; at most ${MAX_SIDE}×${MAX_SIDE} are accepted`);
  }
  let img: FloatImage;
  try {
    img = decodeImage(imagePng, Ch === 1 ? 1 : 3, "the image");
  } catch (err) {
    throw new TreeEditError((err as Error).message);
  }
  if (img.width > MAX_SIDE || img.height > MAX_SIDE)
    throw new TreeEditError(`the image is ${img.width}×${img.height} pixels; at most ${MAX_SIDE}×${MAX_SIDE} are accepted`);
  return { img: resizeBilinear(img, H, W), label: -1 };
}

function predict(l: Loaded, ed: Edited, sampleId: string, imagePng: Uint8Array | null): PredictResult {
  const t0 = performance.now();
  const { tree } = l;
  const { img, label } = inputImage(l, sampleId, imagePng);
  const [H, W, Ch] = tree.manifest.inputShape;
  const P = tree.numPrototypes;
  const view = viewOf(tree, ed.protos, ed.logits);
  let dist: Float32Array;
  let hw: [number, number];
  try {
    const out = tf.tidy(() => {
      const z = latent(view, tf.tensor4d(img.data, [1, H, W, Ch]));
      return {
        d: patchDistances(z, view.prototypes as unknown as tf.Tensor2D).dataSync() as Float32Array,
        shape: [z.shape[1], z.shape[2]] as [number, number],
      };
    });
    dist = out.d;
    hw = out.shape;
  } finally {
    view.dispose();
  }
  const cells = hw[0] * hw[1];
  const sims = new Float32Array(P);
  const near = new Int32Array(P);
  for (let p = 0; p < P; p++) {
    let best = Infinity;
    for (let q = 0; q < cells; q++) {
      const d = dist[q * P + p];
      if (d < best) {
        best = d;
        near[p] = q;
      }
    }
    sims[p] = Math.exp(-best);
  }
  const probs = softProbabilities({ leafLogits: ed.logits, numClasses: tree.numClasses, numPrototypes: P }, sims, 1, tree.pruned);
  const g = greedyPath({ leafLogits: ed.logits, numClasses: tree.numClasses, numPrototypes: P }, sims, tree.pruned);
  const predicted = argmax(probs);
  const names = tree.manifest.classNames;
  const path: PathStepResult[] = g.nodes.map((h, i) => {
    const simMap = new Float32Array(cells);
    for (let q = 0; q < cells; q++) simMap[q] = Math.exp(-dist[q * P + h]);
    const q = near[h];
    const src = ed.source[h];
    return {
      nodeId: nodeId(h),
      nodeName: nodeName(tree, h),
      similarity: sims[h],
      direction: g.directions[i],
      prototypePng: src ? patchPicture(l, src) : new Uint8Array(),
      patchPng: outlinedPng(img, pixelBox(tree, Math.floor(q / hw[1]), q % hw[1])),
      heatmapPng: similarityHeatmapPng(img, simMap, hw[0], hw[1]),
    };
  });
  const leafDist = leafDistribution({ leafLogits: ed.logits, numClasses: tree.numClasses, numPrototypes: P }, g.leaf);
  return {
    groundTruth: label,
    groundTruthName: label >= 0 ? (names[label] ?? "") : "",
    predicted,
    predictedName: names[predicted] ?? "",
    probability: probs[predicted],
    path,
    leafId: nodeId(g.leaf),
    leafDistribution: Array.from(leafDist),
    classNames: names,
    greedyPredicted: g.predicted,
    elapsedMs: performance.now() - t0,
  };
}

function graph(l: Loaded, ed: Edited, full: boolean, withoutImages: boolean): GraphResult {
  const { tree } = l;
  const s: TreeStructure = full ? tree.full : tree.pruned;
  const P = tree.numPrototypes;
  const nodes: RenderNode[] = nodesOf(s).map(({ node, depth }) => {
    const kids = s.children.get(node);
    const leaf = !kids;
    const distribution = leaf ? Array.from(leafDistribution({ leafLogits: ed.logits, numClasses: tree.numClasses, numPrototypes: P }, node)) : [];
    const src = leaf ? null : ed.source[node];
    let imagePng: Uint8Array = new Uint8Array();
    if (!withoutImages) imagePng = leaf ? distributionPng(distribution) : src ? patchPicture(l, src) : new Uint8Array();
    return {
      id: nodeId(node),
      name: nodeName(tree, node),
      kind: leaf ? "leaf" : "internal",
      children: kids ? kids.map(nodeId) : [],
      imagePng,
      distribution,
      depth,
      edited: ed.edited.has(node),
    };
  });
  return { treeId: "", root: nodeId(s.root), nodes, classNames: tree.manifest.classNames, full };
}

/**
 * Candidate prototypes for an internal node: training patches ranked by similarity exp(−d) to the
 * node's current prototype (edited or not). The searched images are the tree's projection sources
 * (so a projected prototype finds its own patch, at similarity 1) and the first images of the
 * train split, as many as keep one search within about a second here (about 400 000 input pixels:
 * 510 Fashion-MNIST images, 97 of 64×64 scenes; at least 32). Each image offers its best patch only,
 * so the list shows different images rather than neighbouring cells of one.
 */
function candidates(l: Loaded, ed: Edited, node: string, limit: number): CandidateResult[] {
  const { tree, data } = l;
  const m = /^node-(\d{1,5})$/.exec(node);
  const h = m ? Number(m[1]) : -1;
  if (!(h >= 0 && h < tree.numPrototypes))
    throw new TreeEditError(`node "${node.slice(0, 40)}" is not an internal node of this tree (node-0 … node-${tree.numPrototypes - 1})`);
  const { train } = data;
  const k = Math.min(train.size, Math.max(32, Math.floor(400_000 / (train.height * train.width))));
  const samples = [
    ...new Set([...tree.projections.filter((p): p is Projection => Boolean(p)).map((p) => p.sample), ...Array.from({ length: k }, (_, i) => i)]),
  ].sort((a, b) => a - b);
  const zs = trainLatents(l, samples);
  const D = tree.manifest.protoDim;
  const [, w] = latentShapeOf(tree);
  const p = ed.protos.subarray(h * D, (h + 1) * D);
  const scored = samples.map((sample, i) => {
    const z = zs[i];
    let best = Infinity,
      at = 0;
    for (let q = 0; q < z.length / D; q++) {
      let s = 0;
      for (let j = 0; j < D; j++) {
        const d = z[q * D + j] - p[j];
        s += d * d;
      }
      if (s < best) {
        best = s;
        at = q;
      }
    }
    // The same distance as protoTree.ts patchDistances: sqrt(|d²| + 1e-14).
    return { sample, row: Math.floor(at / w), col: at % w, similarity: Math.exp(-Math.sqrt(best + 1e-14)) };
  });
  scored.sort((a, b) => b.similarity - a.similarity || a.sample - b.sample);
  const n = Math.max(1, Math.min(MAX_CANDIDATES, limit || 12));
  return scored.slice(0, n).map((c) => ({
    candidateId: candidateId(c),
    similarity: c.similarity,
    png: patchPicture(l, c),
    label: train.labels[c.sample],
    labelName: train.classNames[train.labels[c.sample]] ?? String(train.labels[c.sample]),
  }));
}

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
 * The seed's "adjust whole tree": with the edited prototypes fixed, the leaves of the served
 * (pruned) tree are re-fitted with ProtoTree's derivative-free update (protoTree.ts leafUpdate,
 * train.py) for ADJUST_EPOCHS epochs over the first training images (up to the tree's training
 * size and ADJUST_MAX_TRAIN), in batches of ADJUST_BATCH, starting from the current logits; leaves
 * set by favour_class are held. Then the original tree and the adjusted one are tested on the same
 * test images the tree was tested on when trained (the first of the test split). Returns the new logits.
 */
function adjust(l: Loaded, ed: Edited, onProgress: TreeProgress, refit: boolean): { logits: Float32Array; oldAccuracy: number; newAccuracy: number } {
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

function save(l: Loaded, ed: Edited, job: Extract<TreeJob, { op: "save" }>, onProgress: TreeProgress): JobDoneResult {
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

/** One job (what the pool's "tree" task runs). */
export async function treeJob(job: TreeJob, onProgress: TreeProgress = () => {}): Promise<TreeJobResult> {
  const l = load(job.dir, job.treeId);
  if (job.op === "pool") return { op: "pool", images: pool(l, job.count, job.seed) };
  const ed = applyEdits(l, job.edits);
  switch (job.op) {
    case "predict":
      return { op: "predict", result: predict(l, ed, job.sampleId, job.imagePng) };
    case "graph":
      return { op: "graph", graph: { ...graph(l, ed, job.full, job.withoutImages), treeId: job.treeId } };
    case "candidates":
      return { op: "candidates", candidates: candidates(l, ed, job.nodeId, job.limit) };
    case "adjust": {
      const t0 = performance.now();
      const r = adjust(l, ed, onProgress, true);
      return { op: "adjust", done: { oldAccuracy: r.oldAccuracy, newAccuracy: r.newAccuracy, treeId: job.treeId, elapsedMs: performance.now() - t0 } };
    }
    case "save":
      return { op: "save", done: save(l, ed, job, onProgress) };
    case "export": {
      const g = graph(l, ed, job.full, false);
      const out = await renderExport(
        { treeId: job.treeId, title: job.title, root: g.root, nodes: g.nodes, classNames: g.classNames },
        job.format,
        job.fileStem,
      );
      return { op: "export", data: new Uint8Array(out.data), contentType: out.contentType, fileName: out.fileName };
    }
  }
}

export type { RenderGraph };
