// The Tree service's work on a ProtoTree, in the calling thread: what each worker of the
// sidecar's pool runs for sidecar/tree/service.ts (tensor work never runs on the gRPC thread).
// The maths is sidecar/tree/protoTree.ts's (latent patches, distances, soft and greedy routing,
// the derivative-free leaf update); a job starts from a loaded tree with the request's edits
// (edits.ts) applied to a copy (loadedTree.ts), adjusting and saving are adjustTree.ts's, and this
// module turns results into the contract's shapes with pictures (renderImages.ts, render.ts). Visibility is checked by the service before a job is submitted:
// a job names the tree's directory.
import * as tf from "@tensorflow/tfjs";
import { decodeImage, encodePng, resizeBilinear, sniffImageKind, type FloatImage } from "../data/png.ts";
import { Rng } from "../data/prng.ts";
import { candidateId, TreeEditError, type EditInput, type PatchRef } from "./edits.ts";
import {
  argmax,
  greedyPath,
  latent,
  leafDistribution,
  nodeId,
  nodesOf,
  patchBox,
  patchDistances,
  softProbabilities,
  type ProtoTree,
  type Projection,
  type TreeStructure,
} from "./protoTree.ts";
import { renderExport, type RenderGraph, type RenderNode } from "./render.ts";
import { cropPng, distributionPng, outlinedPng, similarityHeatmapPng, type PixelBox } from "./renderImages.ts";
import { adjust, save } from "./adjustTree.ts";
import { applyEdits, imageOf, latentShapeOf, load, trainLatents, viewOf, type Edited, type Loaded } from "./loadedTree.ts";

/** Pool images per call (the page shows a grid of a dozen). */
export const MAX_POOL = 48;
/** Candidates per call. */
export const MAX_CANDIDATES = 50;
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
