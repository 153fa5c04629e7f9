// The SeBoW demo's work (proto/metarank/v1/sebow.proto): listing the platform's SeBoW checkpoints,
// a test-split pool, and Explain, which runs on the inference worker pool (worker.ts "sebowExplain").
//
// DI (decision interpretation, docs/sebow.md): the explained path is the greedy path — from the
// root, at every node the child with the largest routing probability (as Frosst & Hinton 2017 and
// NBDT, Wan et al. 2021, read a soft decision tree); each decision is shown with its routing
// probabilities, the probability of reaching it, and a gradient saliency of the decision,
// |∂ log p(chosen child | x) / ∂x| (Simonyan et al. 2014, applied to the router instead of a class).
// SPI (superpixel importance, docs/sebow.md): occlusion sensitivity (Zeiler & Fergus 2014) over a
// regular grid of square superpixels: each patch replaced by the image's mean colour, its
// importance the drop of the predicted class's probability, plus whether hiding it moves the
// greedy path to another end.
import * as tf from "@tensorflow/tfjs";
import fs from "node:fs";
import path from "node:path";
import { decodeImage, encodePng, resizeBilinear, type FloatImage } from "../data/png.ts";
import { readCifarDir } from "../data/cifar.ts";
import { SCENES_DEFAULT_SEED, renderScene } from "../data/scenes.ts";
import type { ImageDataset } from "../data/dataset.ts";
import { heatmapImage, normaliseMap, overlayImage } from "../inference/heatmap.ts";
import { InferenceInputError } from "../inference/errors.ts";
import { greedyPath, searchSpaceForward, treeForward, type SebowVariant } from "../tree/sebow.ts";
import { SEBOW_MANIFEST, loadSebow, readSebowManifest, sebowCheckpointDir, type LoadedSebow, type SebowManifest } from "../tree/sebowCheckpoint.ts";

export const SEBOW_ALGORITHMS = ["DI", "SPI"] as const;
export type SebowAlgorithm = (typeof SEBOW_ALGORITHMS)[number];
/** The SPI grid: 4 × 4 superpixels (8 × 8 pixels on a 32 × 32 input). */
export const SPI_GRID = 4;

export interface SebowModelSummary {
  id: string;
  dataset: string;
  datasetName: string;
  classNames: string[];
  searchSpaceAccuracy: number;
  treeAccuracy: number;
  treeGreedyAccuracy: number;
  cnnAccuracy: number;
  layers: number;
  groups: number;
  leaves: number;
  trainSize: number;
  testSize: number;
  trainedAt: string;
  inputHeight: number;
  inputWidth: number;
}

function summary(m: SebowManifest): SebowModelSummary {
  return {
    id: m.id,
    dataset: m.dataset,
    datasetName: m.datasetName,
    classNames: m.classNames,
    searchSpaceAccuracy: m.searchSpaceAccuracy,
    treeAccuracy: m.treeAccuracy,
    treeGreedyAccuracy: m.treeGreedyAccuracy,
    cnnAccuracy: m.cnnAccuracy,
    layers: m.config.widths.length,
    groups: m.config.groups,
    leaves: m.tree.nodes.filter((n) => n.children.length === 0).length,
    trainSize: m.trainSize,
    testSize: m.testSize,
    trainedAt: m.trainedAt,
    inputHeight: m.config.inputShape[0],
    inputWidth: m.config.inputShape[1],
  };
}

/** Every SeBoW checkpoint folder (tree.json with category "SeBoW") of the checkpoint folder; ProtoTrees beside them are skipped. */
export function listSebowModels(dir = sebowCheckpointDir()): { models: SebowModelSummary[]; problems: string[] } {
  const models: SebowModelSummary[] = [];
  const problems: string[] = [];
  if (!fs.existsSync(dir)) return { models, problems };
  for (const entry of fs.readdirSync(dir).sort()) {
    const folder = path.join(dir, entry);
    const file = path.join(folder, SEBOW_MANIFEST);
    if (!fs.existsSync(file)) continue;
    try {
      const raw = JSON.parse(fs.readFileSync(file, "utf8")) as { category?: string };
      if (raw.category !== "SeBoW") continue;
      models.push(summary(readSebowManifest(folder)));
    } catch (err) {
      problems.push(`${entry}: ${(err as Error).message}`);
    }
  }
  return { models, problems };
}

export function sebowModelDir(id: string): string {
  if (!/^[a-z0-9][a-z0-9._-]{0,63}$/.test(id)) throw new InferenceInputError(`"${id}" is not a SeBoW model id`);
  return path.join(sebowCheckpointDir(), id);
}

const loaded = new Map<string, LoadedSebow>();
function model(id: string): LoadedSebow {
  let m = loaded.get(id);
  if (!m) {
    const dir = sebowModelDir(id);
    if (!fs.existsSync(path.join(dir, SEBOW_MANIFEST))) throw new InferenceInputError(`unknown SeBoW model "${id}"`);
    m = loadSebow(dir);
    loaded.set(id, m);
  }
  return m;
}

const cifarCache = new Map<string, ImageDataset>();
/** One test image of a model's dataset (the scenes are re-rendered from their index; CIFAR read once). */
export function testImage(m: SebowManifest, index: number): { image: FloatImage; label: number } {
  if (!Number.isInteger(index) || index < 0 || index >= m.testSize) throw new InferenceInputError(`sample test:${index} is outside 0..${m.testSize - 1}`);
  if (m.dataset === "scenes") {
    const s = renderScene(SCENES_DEFAULT_SEED, 1, index);
    const [h, w] = m.config.inputShape;
    return { image: { height: h, width: w, channels: 3, data: s.pixels }, label: s.label };
  }
  const dir = m.dataset === "cifar10" ? process.env.CIFAR10_DIR : process.env.CIFAR100_DIR;
  if (!dir) throw new InferenceInputError(`${m.datasetName} is not installed on this sidecar`);
  let test = cifarCache.get(dir);
  if (!test) {
    test = readCifarDir(dir).test;
    cifarCache.set(dir, test);
  }
  const n = 32 * 32 * 3;
  return { image: { height: 32, width: 32, channels: 3, data: test.images.slice(index * n, (index + 1) * n) }, label: test.labels[index] };
}

export interface SebowPoolImageResult {
  sampleId: string;
  png: Uint8Array;
  label: number;
  labelName: string;
}

/** `count` distinct test images picked by `seed` (the same seed, the same pool). */
export function sebowPool(id: string, count: number, seed: number): SebowPoolImageResult[] {
  const dir = sebowModelDir(id);
  if (!fs.existsSync(path.join(dir, SEBOW_MANIFEST))) throw new InferenceInputError(`unknown SeBoW model "${id}"`);
  const m = readSebowManifest(dir);
  const n = Math.min(count, m.testSize);
  const picked = new Set<number>();
  // A small LCG over the seed: deterministic, and no dependence on Math.random.
  let s = seed >>> 0 || 1;
  while (picked.size < n) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    picked.add(s % m.testSize);
  }
  return [...picked].map((i) => {
    const { image, label } = testImage(m, i);
    return { sampleId: `test:${i}`, png: encodePng(image), label, labelName: m.classNames[label] ?? String(label) };
  });
}

export interface SebowExplainJob {
  modelId: string;
  variant: SebowVariant;
  algorithm: SebowAlgorithm;
  sampleId: string;
  imagePng: Uint8Array | null;
}

/** A decision on the path with the saliency of its routing. */
export interface SebowDecisionResult extends PathStep {
  saliencyPng: Uint8Array;
}

export interface SebowExplainResult {
  modelId: string;
  variant: SebowVariant;
  algorithm: SebowAlgorithm;
  groundTruth: number;
  groundTruthName: string;
  predicted: number;
  predictedName: string;
  probability: number;
  classProbabilities: number[];
  classNames: string[];
  decisions: SebowDecisionResult[];
  leafId: string;
  leafDistribution: number[];
  pathPredicted: number;
  patchRows: number;
  patchCols: number;
  patchImportance: number[];
  patchChangesPath: boolean[];
  heatmapPng: Uint8Array;
  overlayPng: Uint8Array;
  imagePng: Uint8Array;
  elapsedMs: number;
}

/** A decision on the image's path: the node, its children, their routing probabilities, the one taken and how much of the image reaches it. */
export interface PathStep {
  nodeId: string;
  layer: number;
  group: number;
  children: string[];
  probabilities: number[];
  chosen: number;
  reach: number;
}

interface Analysis {
  probs: number[];
  steps: PathStep[];
  leafId: string;
  leafDistribution: number[];
}

/** tf.tidy for a function returning plain values (tidy's type accepts only tensor containers). */
function inScope<T>(fn: () => T): T {
  tf.engine().startScope();
  try {
    return fn();
  } finally {
    tf.engine().endScope();
  }
}

const argmax = (v: ArrayLike<number>) => {
  let k = 0;
  for (let i = 1; i < v.length; i++) if (v[i] > v[k]) k = i;
  return k;
};

/** Prediction and greedy path of one image (or each image of a batch: `b`). */
function analyse(m: LoadedSebow, variant: SebowVariant, x: tf.Tensor4D, b = 0): Analysis {
  const { config, tree } = m.manifest;
  return inScope(() => {
    if (variant === "NeuralDecisionTree") {
      const out = treeForward(tree, m.tree, x);
      const routing = new Map([...out.routing].map(([k, v]) => [k, v.arraySync()[b]]));
      const pathIds = greedyPath(tree, routing);
      const byId = new Map(tree.nodes.map((n) => [n.id, n]));
      const steps: PathStep[] = [];
      for (let i = 0; i < pathIds.length - 1; i++) {
        const node = byId.get(pathIds[i])!;
        if (node.children.length < 2) continue;
        const probabilities = routing.get(node.id)!;
        steps.push({
          nodeId: node.id,
          layer: node.layer,
          group: node.group,
          children: node.children,
          probabilities,
          chosen: node.children.indexOf(pathIds[i + 1]),
          reach: out.reach.get(node.id)!.arraySync()[b][0],
        });
      }
      const leafId = pathIds[pathIds.length - 1];
      return { probs: out.probs.arraySync()[b], steps, leafId, leafDistribution: out.leafProbs.get(leafId)!.arraySync()[b] };
    }
    const out = searchSpaceForward(config, m.searchSpace, x);
    const steps: PathStep[] = [];
    let group = 0;
    for (let l = 0; l < config.widths.length; l++) {
      const probabilities = out.routing[l][group].arraySync()[b];
      const chosen = argmax(probabilities);
      steps.push({
        nodeId: l === 0 ? "stem" : `L${l}.G${group}`,
        layer: l,
        group,
        children: probabilities.map((_, j) => `L${l + 1}.G${j}`),
        probabilities,
        chosen,
        reach: out.arrival[l].arraySync()[b][group],
      });
      group = chosen;
    }
    const L = config.widths.length;
    const h = out.features[L][group];
    const leafDistribution = tf
      .softmax(tf.add(tf.matMul(tf.mean(h, [1, 2]) as tf.Tensor2D, m.searchSpace.get(`S${group}/kernel`)!), m.searchSpace.get(`S${group}/bias`)!))
      .arraySync() as number[][];
    return { probs: out.probs.arraySync()[b], steps, leafId: `L${L}.G${group}`, leafDistribution: leafDistribution[b] };
  });
}

/** |∂ log p(chosen | x) / ∂x| of one decision, max over channels, normalised, over the image. */
function decisionSaliency(m: LoadedSebow, variant: SebowVariant, x: tf.Tensor4D, step: PathStep, input: FloatImage): Uint8Array {
  const { config, tree } = m.manifest;
  const [h, w] = config.inputShape;
  const map = tf.tidy(() => {
    const g = tf.grad((xi: tf.Tensor) => {
      const x4 = xi as tf.Tensor4D;
      const r =
        variant === "NeuralDecisionTree"
          ? treeForward(tree, m.tree, x4).routing.get(step.nodeId)!
          : searchSpaceForward(config, m.searchSpace, x4).routing[step.layer][step.group];
      return tf.log(tf.add(tf.slice(r, [0, step.chosen], [1, 1]), 1e-12)).sum();
    })(x);
    return tf.max(tf.abs(g), 3).dataSync() as Float32Array;
  });
  const norm = normaliseMap(Float32Array.from(map));
  return encodePng(overlayImage(norm, { ...input, height: h, width: w }));
}

export function inputOf(m: SebowManifest, sampleId: string, png: Uint8Array | null): { image: FloatImage; label: number } {
  const [h, w] = m.config.inputShape;
  if (sampleId) {
    const match = /^test:(\d{1,7})$/.exec(sampleId);
    if (!match) throw new InferenceInputError(`sample_id must look like test:<index>, got "${sampleId.slice(0, 40)}"`);
    return testImage(m, Number(match[1]));
  }
  if (!png || png.length === 0) throw new InferenceInputError("give a sample_id from the pool or an image");
  let img = decodeImage(png, 3, "the image");
  if (img.height !== h || img.width !== w) img = resizeBilinear(img, h, w);
  return { image: img, label: -1 };
}

export function explainSebow(job: SebowExplainJob): SebowExplainResult {
  const t0 = performance.now();
  const m = model(job.modelId);
  const man = m.manifest;
  const { image, label } = inputOf(man, job.sampleId, job.imagePng);
  const [h, w, c] = man.config.inputShape;
  const x = tf.tensor4d(image.data, [1, h, w, c]);
  try {
    const a = analyse(m, job.variant, x);
    const predicted = argmax(a.probs);
    const pathPredicted = argmax(a.leafDistribution);
    let decisions: SebowDecisionResult[] = [];
    const patchImportance: number[] = [];
    const patchChangesPath: boolean[] = [];
    let heatmapPng: Uint8Array = new Uint8Array();
    let overlayPng: Uint8Array = new Uint8Array();
    if (job.algorithm === "DI") {
      decisions = a.steps.map((s) => ({ ...s, saliencyPng: decisionSaliency(m, job.variant, x, s, image) }));
    } else {
      const ph = Math.ceil(h / SPI_GRID),
        pw = Math.ceil(w / SPI_GRID);
      const mean = [0, 0, 0].slice(0, c).map((_, ch) => {
        let s = 0;
        for (let p = 0; p < h * w; p++) s += image.data[p * c + ch];
        return s / (h * w);
      });
      const n = SPI_GRID * SPI_GRID;
      const batch = new Float32Array(n * h * w * c);
      for (let k = 0; k < n; k++) {
        const r0 = Math.floor(k / SPI_GRID) * ph,
          c0 = (k % SPI_GRID) * pw;
        const img = Float32Array.from(image.data);
        for (let y = r0; y < Math.min(h, r0 + ph); y++)
          for (let xx = c0; xx < Math.min(w, c0 + pw); xx++) for (let ch = 0; ch < c; ch++) img[(y * w + xx) * c + ch] = mean[ch];
        batch.set(img, k * h * w * c);
      }
      const xb = tf.tensor4d(batch, [n, h, w, c]);
      try {
        for (let k = 0; k < n; k++) {
          // One image at a time: analyse() reads one row, and a batch forward per row would repeat it 16 times.
          const xk = tf.slice(xb, [k, 0, 0, 0], [1, h, w, c]);
          const o = analyse(m, job.variant, xk);
          xk.dispose();
          patchImportance.push(a.probs[predicted] - o.probs[predicted]);
          patchChangesPath.push(o.leafId !== a.leafId);
        }
      } finally {
        xb.dispose();
      }
      const pixelMap = new Float32Array(h * w);
      for (let y = 0; y < h; y++)
        for (let xx = 0; xx < w; xx++) pixelMap[y * w + xx] = Math.max(0, patchImportance[Math.floor(y / ph) * SPI_GRID + Math.floor(xx / pw)]);
      const norm = normaliseMap(pixelMap);
      heatmapPng = encodePng(heatmapImage(norm, h, w));
      overlayPng = encodePng(overlayImage(norm, image));
    }
    return {
      modelId: job.modelId,
      variant: job.variant,
      algorithm: job.algorithm,
      groundTruth: label,
      groundTruthName: label >= 0 ? (man.classNames[label] ?? "") : "",
      predicted,
      predictedName: man.classNames[predicted] ?? String(predicted),
      probability: a.probs[predicted],
      classProbabilities: a.probs,
      classNames: man.classNames,
      decisions,
      leafId: a.leafId,
      leafDistribution: a.leafDistribution,
      pathPredicted,
      patchRows: job.algorithm === "SPI" ? SPI_GRID : 0,
      patchCols: job.algorithm === "SPI" ? SPI_GRID : 0,
      patchImportance,
      patchChangesPath,
      heatmapPng,
      overlayPng,
      imagePng: encodePng(image),
      elapsedMs: performance.now() - t0,
    };
  } finally {
    x.dispose();
  }
}
