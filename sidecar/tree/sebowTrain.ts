// Training, storage and loading of SeBoW models (sidecar/tree/sebow.ts, docs/sebow.md):
//  1. the search space is trained (the wiring is learned with the blocks),
//  2. the wiring strength is measured on the training split and the tree derived from it,
//  3. the derived NeuralDecisionTree is fine-tuned,
//  4. a plain CNN of the same shape (one block per layer, no wiring) is trained for as many steps,
//     so the reported accuracy can be compared with the network SeBoW started from.
// One checkpoint folder holds both models: tree.json (category "SeBoW", config, derived tree,
// wiring, accuracies, weight names/shapes, SHA-256) and weights.bin (float32, little-endian). The
// folder layout and the manifest's name are the Tree service's (sidecar/tree/checkpoint.ts), and
// the manifest carries the fields its listing reads (owner, depth, inputShape, testAccuracy,
// cnnAccuracy, leaves), so a user's SeBoW tree from a task is listed with their ProtoTrees.
//
// Command (the committed platform models, sidecar/tree/checkpoints/sebow-<dataset>/):
//   npx tsx sidecar/tree/sebowTrain.ts --dataset scenes [--search-steps N] [--tree-steps N] [--train-size N]
import * as tf from "@tensorflow/tfjs";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { ImageDataset } from "../data/dataset.ts";
import { Rng } from "../data/prng.ts";
import { readCifarDir } from "../data/cifar.ts";
import { generateScenes } from "../data/scenes.ts";
import { readCheckpoint, CHECKPOINT_DIR as ZOO_DIR } from "../zoo/checkpoint.ts";
import type { BackboneLayer } from "./protoTree.ts";
import {
  BACKBONE_PREFIX,
  DEFAULT_DERIVE,
  WiringMeter,
  backboneFeatures,
  deriveTree,
  initSearchSpace,
  initTreeWeights,
  leafCount,
  nll,
  plainCnnConfig,
  searchSpaceForward,
  treeForward,
  type DeriveOptions,
  type SebowConfig,
  type SebowTree,
  type Weights,
} from "./sebow.ts";

export const SEBOW_CHECKPOINT_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "checkpoints");

/** Platform checkpoints' folder (SEBOW_CHECKPOINT_DIR overrides it, e.g. for tests). */
export function sebowCheckpointDir(): string {
  return process.env.SEBOW_CHECKPOINT_DIR || SEBOW_CHECKPOINT_DIR;
}

/** The manifest's file name, as the Tree service's (sidecar/tree/checkpoint.ts MANIFEST_FILE). */
export const SEBOW_MANIFEST = "tree.json";

export interface SebowManifest {
  id: string;
  category: "SeBoW";
  format?: "metarank-sebow/1";
  /** "" for platform models. */
  owner?: string;
  /** For the Tree service's listing: layers, input shape, the tree's accuracy and leaves. */
  depth?: number;
  inputShape?: [number, number, number];
  testAccuracy?: number;
  leaves?: number;
  name: string;
  /** "scenes" or "cifar10" / "cifar100" (an operator's CIFAR folder). */
  dataset: string;
  datasetName: string;
  classNames: string[];
  config: SebowConfig;
  derive: DeriveOptions;
  tree: SebowTree;
  /** W[l][i][j] measured on the training split. */
  wiring: number[][][];
  searchSpaceAccuracy: number;
  treeAccuracy: number;
  /** Accuracy of the tree's greedy (hard) routing. */
  treeGreedyAccuracy: number;
  cnnAccuracy: number;
  /** With a feature net (config.backbone): the tree's accuracy before the feature net was fine-tuned, and the fine-tuning steps. */
  treeAccuracyFrozenBackbone?: number;
  fineTuneSteps?: number;
  trainSize: number;
  testSize: number;
  searchSteps: number;
  treeSteps: number;
  batch: number;
  lr: number;
  seed: number;
  trainedAt: string;
  trainingSeconds: number;
  backend: string;
  command?: string;
  weights: Array<{ name: string; shape: number[] }>;
  sha256: string;
}

export class SebowCheckpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CheckpointError";
  }
}

export interface LoadedSebow {
  manifest: SebowManifest;
  searchSpace: Weights;
  tree: Weights;
  dispose(): void;
}

export function readSebowManifest(dir: string): SebowManifest {
  const file = path.join(dir, SEBOW_MANIFEST);
  let m: SebowManifest;
  try {
    m = JSON.parse(fs.readFileSync(file, "utf8")) as SebowManifest;
  } catch (err) {
    throw new SebowCheckpointError(`${file}: ${(err as Error).message}`);
  }
  if (m.category !== "SeBoW" || !m.config || !m.tree || !Array.isArray(m.weights)) throw new SebowCheckpointError(`${file} is not a SeBoW manifest`);
  return m;
}

/** Load a checkpoint folder, checking the weights' size and SHA-256 against the manifest. */
export function loadSebow(dir: string): LoadedSebow {
  const manifest = readSebowManifest(dir);
  const bin = fs.readFileSync(path.join(dir, "weights.bin"));
  const sha = crypto.createHash("sha256").update(bin).digest("hex");
  const total = manifest.weights.reduce((s, w) => s + w.shape.reduce((a, b) => a * b, 1), 0);
  if (bin.length !== total * 4) throw new SebowCheckpointError(`${dir}/weights.bin has ${bin.length} bytes, the manifest describes ${total * 4}`);
  if (sha !== manifest.sha256) throw new SebowCheckpointError(`${dir}/weights.bin does not match the manifest's SHA-256`);
  const floats = new Float32Array(bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.length));
  const searchSpace: Weights = new Map();
  const tree: Weights = new Map();
  let off = 0;
  for (const w of manifest.weights) {
    const n = w.shape.reduce((a, b) => a * b, 1);
    const v = tf.variable(tf.tensor(floats.subarray(off, off + n), w.shape), false);
    off += n;
    if (w.name.startsWith("ss:")) searchSpace.set(w.name.slice(3), v);
    else tree.set(w.name.slice(5), v);
  }
  const dispose = () => {
    for (const v of [...searchSpace.values(), ...tree.values()]) v.dispose();
  };
  try {
    // One forward pass of each model proves every weight is there and shaped right.
    tf.tidy(() => {
      const x = tf.zeros([1, ...manifest.config.inputShape]) as tf.Tensor4D;
      searchSpaceForward(manifest.config, searchSpace, x).probs.dataSync();
      treeForward(manifest.tree, tree, x).probs.dataSync();
    });
  } catch (err) {
    dispose();
    throw new SebowCheckpointError(`${dir} does not fit its SeBoW configuration: ${(err as Error).message}`);
  }
  return { manifest, searchSpace, tree, dispose };
}

/** Write to a temporary folder beside `dir`, then rename: a reader never sees half a checkpoint. */
export function writeSebow(dir: string, manifest: Omit<SebowManifest, "weights" | "sha256">, ss: Weights, tree: Weights): SebowManifest {
  const arrays: Array<{ name: string; shape: number[]; data: Float32Array }> = [];
  for (const [name, v] of ss) arrays.push({ name: `ss:${name}`, shape: v.shape, data: v.dataSync() as Float32Array });
  for (const [name, v] of tree) arrays.push({ name: `tree:${name}`, shape: v.shape, data: v.dataSync() as Float32Array });
  const total = arrays.reduce((s, a) => s + a.data.length, 0);
  const all = new Float32Array(total);
  let off = 0;
  for (const a of arrays) {
    all.set(a.data, off);
    off += a.data.length;
  }
  const bin = Buffer.from(all.buffer, all.byteOffset, all.byteLength);
  const full: SebowManifest = {
    ...manifest,
    format: "metarank-sebow/1",
    owner: manifest.owner ?? "",
    depth: manifest.config.widths.length,
    inputShape: manifest.config.inputShape,
    testAccuracy: manifest.treeAccuracy,
    leaves: leafCount(manifest.tree),
    weights: arrays.map((a) => ({ name: a.name, shape: a.shape })),
    sha256: crypto.createHash("sha256").update(bin).digest("hex"),
  };
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  fs.mkdirSync(tmp, { recursive: true });
  fs.writeFileSync(path.join(tmp, "weights.bin"), bin);
  fs.writeFileSync(path.join(tmp, SEBOW_MANIFEST), JSON.stringify(full, null, 1) + "\n");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(tmp, dir);
  return full;
}

/** "scenes", or "cifar10"/"cifar100" read from CIFAR10_DIR / CIFAR100_DIR (the operator's binary folders). */
export function loadSebowData(dataset: string, trainSize?: number, testSize?: number): { train: ImageDataset; test: ImageDataset; name: string } {
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

function batchOf(ds: ImageDataset, idx: ArrayLike<number>): { x: tf.Tensor4D; y: tf.Tensor2D } {
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

export interface TrainProgress {
  phase: "search" | "tree" | "cnn";
  step: number;
  steps: number;
  loss: number;
  trainAccuracy: number;
}

export interface SebowTrainOptions {
  dataset: string;
  id: string;
  name?: string;
  /** The user a task's tree belongs to; "" (platform) by default. */
  owner?: string;
  outDir: string;
  layers: number;
  groups: number;
  stemWidth: number;
  /** Width of layer l is widths[min(l, widths.length) − 1]. */
  widths: number[];
  searchSteps: number;
  treeSteps: number;
  /** Steps of the plain CNN (default searchSteps + treeSteps). */
  cnnSteps?: number;
  batch: number;
  lr: number;
  seed: number;
  trainSize?: number;
  testSize?: number;
  derive: DeriveOptions;
  /**
   * A zoo ResNet trained on the same data whose body (up to `backboneLayer`) runs in front of the
   * stem (sebow.ts SebowBackbone). It is frozen while the search space, the tree and the plain CNN
   * train (its features are computed once per image), then fine-tuned with the tree for
   * `fineTuneSteps` steps at a tenth of the learning rate.
   */
  backbone?: string;
  backboneLayer?: BackboneLayer;
  fineTuneSteps?: number;
  /** Steps between held-out accuracy measurements (the curves in sidecar/zoo/README.md); 0: none. */
  testEvery?: number;
  signal?: AbortSignal;
  onProgress?(p: TrainProgress): void;
  onLog?(line: string): void;
  onPhase?(phase: "data" | "search" | "derive" | "tree" | "cnn" | "write", state: "running" | "done"): void;
  command?: string;
}

export class TrainingCancelled extends Error {
  constructor() {
    super("training cancelled");
    this.name = "TrainingCancelled";
  }
}

/** Adam over `vars` for `steps` mini-batches; the learning rate decays by a cosine to 5 %. */
async function fit(
  phase: TrainProgress["phase"],
  lossOf: (x: tf.Tensor4D, y: tf.Tensor2D) => { loss: tf.Scalar; probs: tf.Tensor2D },
  vars: tf.Variable[],
  ds: ImageDataset,
  opts: SebowTrainOptions,
  steps: number,
  rng: Rng,
  probe?: { every: number; run(step: number): void },
): Promise<void> {
  const optimizer = tf.train.adam(opts.lr);
  let order = rng.permutation(ds.size);
  let pos = 0;
  let lossSum = 0,
    correct = 0,
    seen = 0;
  const every = Math.max(1, Math.min(25, Math.floor(steps / 20)));
  for (let step = 0; step < steps; step++) {
    if (opts.signal?.aborted) {
      optimizer.dispose();
      throw new TrainingCancelled();
    }
    (optimizer as unknown as { learningRate: number }).learningRate = opts.lr * (0.05 + 0.95 * 0.5 * (1 + Math.cos((Math.PI * step) / steps)));
    if (pos + opts.batch > ds.size) {
      order = rng.permutation(ds.size);
      pos = 0;
    }
    const idx = order.subarray(pos, Math.min(pos + opts.batch, ds.size));
    pos += idx.length;
    const { x, y } = batchOf(ds, idx);
    let predicted: Int32Array | null = null;
    const loss = optimizer.minimize(
      () => {
        const r = lossOf(x, y);
        predicted = tf.argMax(r.probs, 1).dataSync() as Int32Array;
        return r.loss;
      },
      true,
      vars,
    )!;
    lossSum += loss.dataSync()[0];
    loss.dispose();
    for (let i = 0; i < idx.length; i++) if (predicted![i] === ds.labels[idx[i]]) correct++;
    seen += idx.length;
    x.dispose();
    y.dispose();
    if ((step + 1) % every === 0 || step === steps - 1) {
      opts.onProgress?.({ phase, step: step + 1, steps, loss: lossSum / every, trainAccuracy: correct / Math.max(1, seen) });
      lossSum = 0;
      correct = 0;
      seen = 0;
      // Let the event loop run (gRPC writes, cancellation) between steps.
      await new Promise((r) => setImmediate(r));
    }
    if (probe && probe.every > 0 && ((step + 1) % probe.every === 0 || step === steps - 1)) probe.run(step + 1);
  }
  optimizer.dispose();
}

/** The feature net's output for every image of a set, as a dataset of feature maps (computed once, frozen net). */
function featureDataset(ds: ImageDataset, backbone: NonNullable<SebowConfig["backbone"]>, w: Weights, signal?: AbortSignal): ImageDataset {
  let out: Float32Array | null = null;
  let shape = [0, 0, 0];
  for (let s = 0; s < ds.size; s += 200) {
    if (signal?.aborted) throw new TrainingCancelled();
    const idx = Array.from({ length: Math.min(200, ds.size - s) }, (_, i) => s + i);
    const { x, y } = batchOf(ds, idx);
    const f = tf.tidy(() => backboneFeatures(backbone, w, x));
    const [, h, wd, c] = f.shape;
    if (!out) {
      shape = [h, wd, c];
      out = new Float32Array(ds.size * h * wd * c);
    }
    out.set(f.dataSync(), s * h * wd * c);
    tf.dispose([x, y, f]);
  }
  return { ...ds, name: `${ds.name} (features)`, height: shape[0], width: shape[1], channels: shape[2], images: out ?? new Float32Array(0), masks: undefined };
}

/** The zoo checkpoint's ResNet weights as `bb/…` variables added to a model's weights. */
function addBackboneWeights(w: Weights, arrays: Array<{ name: string; shape: number[]; data: Float32Array }>): void {
  for (const a of arrays) w.set(`${BACKBONE_PREFIX}${a.name}`, tf.variable(tf.tensor(a.data, a.shape), true));
}

const withoutBackbone = (w: Weights) => [...w].filter(([name]) => !name.startsWith(BACKBONE_PREFIX)).map(([, v]) => v);

export function sebowConfig(opts: Pick<SebowTrainOptions, "layers" | "groups" | "stemWidth" | "widths">, ds: ImageDataset): SebowConfig {
  return {
    inputShape: [ds.height, ds.width, ds.channels],
    numClasses: ds.classNames.length,
    stemWidth: opts.stemWidth,
    widths: Array.from({ length: opts.layers }, (_, l) => opts.widths[Math.min(l, opts.widths.length - 1)]),
    groups: opts.groups,
  };
}

/** Train search space, derive, fine-tune the tree, train the plain CNN, test all three, write the checkpoint. */
export async function trainSebowModel(opts: SebowTrainOptions, backendName: string): Promise<SebowManifest> {
  const t0 = Date.now();
  const log = (s: string) => opts.onLog?.(s);
  opts.onPhase?.("data", "running");
  const data = loadSebowData(opts.dataset, opts.trainSize, opts.testSize);
  opts.onPhase?.("data", "done");
  const cfg = sebowConfig(opts, data.train);
  let zooArrays: Array<{ name: string; shape: number[]; data: Float32Array }> = [];
  if (opts.backbone) {
    const zoo = readCheckpoint(opts.backbone, process.env.CHECKPOINT_DIR ?? ZOO_DIR);
    if (zoo.manifest.arch !== "resnet")
      throw new SebowCheckpointError(`backbone ${opts.backbone} is a ${zoo.manifest.arch}; SeBoW here uses the zoo's ResNet body`);
    const [H, W, C] = zoo.manifest.inputShape;
    if (H !== cfg.inputShape[0] || W !== cfg.inputShape[1] || C !== cfg.inputShape[2])
      throw new SebowCheckpointError(`backbone ${opts.backbone} takes ${H}×${W}×${C} images, ${opts.dataset} has ${cfg.inputShape.join("×")}`);
    zooArrays = zoo.arrays;
    const layer = opts.backboneLayer ?? "layer3";
    cfg.backbone = {
      checkpoint: opts.backbone,
      arch: "resnet",
      archConfig: zoo.manifest.archConfig,
      layer,
      channels: 0,
      weightsSha256: zoo.manifest.weightsSha256,
    };
    const probe: Weights = new Map();
    addBackboneWeights(probe, zooArrays);
    cfg.backbone.channels = tf.tidy(() => backboneFeatures(cfg.backbone!, probe, tf.zeros([1, H, W, C]) as tf.Tensor4D).shape[3]);
    for (const v of probe.values()) v.dispose();
  }
  log(
    `SeBoW on ${data.name}: ${data.train.size} training / ${data.test.size} test images, ${cfg.widths.length} layers × ${cfg.groups} filter groups, widths ${cfg.stemWidth}/${cfg.widths.join(",")}` +
      (cfg.backbone
        ? `; feature net: ${cfg.backbone.checkpoint} up to ${cfg.backbone.layer} (${cfg.backbone.channels} channels), frozen, then fine-tuned ${opts.fineTuneSteps ?? 0} steps with the tree`
        : ""),
  );
  const rng = new Rng(opts.seed);
  const r4 = (v: number) => Math.round(v * 10000) / 10000;
  const pct = (v: number) => `${(v * 100).toFixed(2)} %`;

  opts.onPhase?.("search", "running");
  const ss = initSearchSpace(cfg, opts.seed);
  if (cfg.backbone) addBackboneWeights(ss, zooArrays);
  // With a frozen feature net every image's features are computed once; the phases below read them.
  const fromFeatures = Boolean(cfg.backbone);
  const trainSet = cfg.backbone ? featureDataset(data.train, cfg.backbone, ss, opts.signal) : data.train;
  const testSet = cfg.backbone ? featureDataset(data.test, cfg.backbone, ss, opts.signal) : data.test;
  if (cfg.backbone) log(`feature net: ${trainSet.size + testSet.size} images → ${trainSet.height}×${trainSet.width}×${trainSet.channels} features`);
  const every = opts.testEvery ?? 0;
  const curve = (phase: string, fn: (x: tf.Tensor4D) => tf.Tensor2D) => ({
    every,
    run: (step: number) => log(`${phase} step ${step}: held-out accuracy ${pct(evaluate(fn, testSet))}`),
  });
  await fit(
    "search",
    (x, y) => {
      const out = searchSpaceForward(cfg, ss, x, true, fromFeatures);
      return { loss: nll(out.probs, y), probs: out.probs };
    },
    withoutBackbone(ss),
    trainSet,
    opts,
    opts.searchSteps,
    rng,
    curve("search space", (x) => searchSpaceForward(cfg, ss, x, false, fromFeatures).probs),
  );
  opts.onPhase?.("search", "done");

  opts.onPhase?.("derive", "running");
  const meter = new WiringMeter(cfg.widths.length, cfg.groups);
  const wiringSample = Math.min(trainSet.size, 2000);
  for (let s = 0; s < wiringSample; s += 200) {
    const idx = Array.from({ length: Math.min(200, wiringSample - s) }, (_, i) => s + i);
    const { x, y } = batchOf(trainSet, idx);
    const arrays = tf.tidy(() => {
      const out = searchSpaceForward(cfg, ss, x, false, fromFeatures);
      return { routing: out.routing.map((ps) => ps.map((p) => p.arraySync())), arrival: out.arrival.map((a) => a.arraySync()) };
    });
    meter.add(arrays.routing, arrays.arrival);
    x.dispose();
    y.dispose();
  }
  const wiring = meter.wiring();
  const tree = deriveTree(wiring, opts.derive);
  if (cfg.backbone) tree.backbone = cfg.backbone;
  log(
    `wiring ${JSON.stringify(wiring.map((l) => l.map((r) => r.map((v) => Math.round(v * 1000) / 1000))))}; derived tree: ${tree.nodes.length} nodes, ${leafCount(tree)} leaves`,
  );
  opts.onPhase?.("derive", "done");

  opts.onPhase?.("tree", "running");
  const tw = initTreeWeights(cfg, tree, ss);
  await fit(
    "tree",
    (x, y) => {
      const out = treeForward(tree, tw, x, true, fromFeatures);
      return { loss: nll(out.probs, y), probs: out.probs };
    },
    withoutBackbone(tw),
    trainSet,
    opts,
    opts.treeSteps,
    rng,
    curve("tree", (x) => treeForward(tree, tw, x, false, fromFeatures).probs),
  );
  let treeAccuracyFrozen = NaN;
  if (cfg.backbone && (opts.fineTuneSteps ?? 0) > 0) {
    treeAccuracyFrozen = evaluate((x) => treeForward(tree, tw, x, false, true).probs, testSet);
    log(`tree with the frozen feature net: held-out accuracy ${pct(treeAccuracyFrozen)}; fine-tuning the feature net with the tree`);
    await fit(
      "tree",
      (x, y) => {
        const out = treeForward(tree, tw, x, true);
        return { loss: nll(out.probs, y), probs: out.probs };
      },
      [...tw.values()],
      data.train,
      { ...opts, lr: opts.lr / 10 },
      opts.fineTuneSteps!,
      rng,
      { every, run: (step) => log(`tree fine-tune step ${step}: held-out accuracy ${pct(evaluate((x) => treeForward(tree, tw, x).probs, data.test))}`) },
    );
  }
  opts.onPhase?.("tree", "done");

  opts.onPhase?.("cnn", "running");
  const cnnCfg = plainCnnConfig(cfg);
  const cnn = initSearchSpace(cnnCfg, opts.seed + 1);
  if (cfg.backbone) addBackboneWeights(cnn, zooArrays);
  await fit(
    "cnn",
    (x, y) => {
      const out = searchSpaceForward(cnnCfg, cnn, x, true, fromFeatures);
      return { loss: nll(out.probs, y), probs: out.probs };
    },
    withoutBackbone(cnn),
    trainSet,
    opts,
    opts.cnnSteps ?? opts.searchSteps + opts.treeSteps,
    rng,
  );
  opts.onPhase?.("cnn", "done");

  const searchSpaceAccuracy = evaluate((x) => searchSpaceForward(cfg, ss, x).probs, data.test);
  const treeAccuracy = evaluate((x) => treeForward(tree, tw, x).probs, data.test);
  const treeGreedyAccuracy = greedyTreeAccuracy(tree, tw, data.test);
  const cnnAccuracy = evaluate((x) => searchSpaceForward(cnnCfg, cnn, x).probs, data.test);
  log(
    `test accuracy: search space ${(searchSpaceAccuracy * 100).toFixed(2)} %, tree ${(treeAccuracy * 100).toFixed(2)} % (greedy ${(treeGreedyAccuracy * 100).toFixed(2)} %), plain CNN ${(cnnAccuracy * 100).toFixed(2)} %`,
  );
  for (const v of cnn.values()) v.dispose();

  opts.onPhase?.("write", "running");
  const manifest = writeSebow(
    opts.outDir,
    {
      id: opts.id,
      category: "SeBoW",
      name: opts.name ?? opts.id,
      owner: opts.owner ?? "",
      dataset: opts.dataset,
      datasetName: data.name,
      classNames: data.train.classNames,
      config: cfg,
      derive: opts.derive,
      tree,
      wiring,
      searchSpaceAccuracy: r4(searchSpaceAccuracy),
      treeAccuracy: r4(treeAccuracy),
      treeGreedyAccuracy: r4(treeGreedyAccuracy),
      cnnAccuracy: r4(cnnAccuracy),
      ...(cfg.backbone ? { treeAccuracyFrozenBackbone: r4(treeAccuracyFrozen), fineTuneSteps: opts.fineTuneSteps ?? 0 } : {}),
      trainSize: data.train.size,
      testSize: data.test.size,
      searchSteps: opts.searchSteps,
      treeSteps: opts.treeSteps,
      batch: opts.batch,
      lr: opts.lr,
      seed: opts.seed,
      trainedAt: new Date().toISOString(),
      trainingSeconds: Math.round((Date.now() - t0) / 1000),
      backend: backendName,
      command: opts.command,
    },
    ss,
    tw,
  );
  opts.onPhase?.("write", "done");
  for (const v of [...ss.values(), ...tw.values()]) v.dispose();
  return manifest;
}

/**
 * Re-derive the tree of an existing checkpoint with other derivation options and fine-tune the new
 * tree (the search space, its wiring and the plain CNN's figure are kept): the wiring is measured
 * once, so trying another threshold does not need the search trained again.
 */
export async function rederiveSebow(
  dir: string,
  derive: DeriveOptions,
  treeSteps: number,
  opts: Pick<SebowTrainOptions, "onLog" | "onProgress" | "signal"> & { command?: string },
): Promise<SebowManifest> {
  const t0 = Date.now();
  const loaded = loadSebow(dir);
  const m = loaded.manifest;
  const data = loadSebowData(m.dataset, m.trainSize, m.testSize);
  const tree = deriveTree(m.wiring, derive);
  if (m.config.backbone) tree.backbone = m.config.backbone;
  opts.onLog?.(`re-derived with ${JSON.stringify(derive)}: ${tree.nodes.length} nodes, ${leafCount(tree)} leaves`);
  // Trainable copies of the search space's weights (the loaded ones are constants).
  const ss: Weights = new Map([...loaded.searchSpace].map(([k, v]) => [k, tf.variable(v.clone(), true)]));
  const tw = initTreeWeights(m.config, tree, ss);
  const fitOpts = { ...opts, batch: m.batch, lr: m.lr } as SebowTrainOptions;
  await fit(
    "tree",
    (x, y) => {
      const out = treeForward(tree, tw, x, true);
      return { loss: nll(out.probs, y), probs: out.probs };
    },
    withoutBackbone(tw),
    data.train,
    fitOpts,
    treeSteps,
    new Rng(m.seed + 7),
  );
  const r4 = (v: number) => Math.round(v * 10000) / 10000;
  const treeAccuracy = r4(evaluate((x) => treeForward(tree, tw, x).probs, data.test));
  const treeGreedyAccuracy = r4(greedyTreeAccuracy(tree, tw, data.test));
  opts.onLog?.(`tree ${(treeAccuracy * 100).toFixed(2)} % (greedy ${(treeGreedyAccuracy * 100).toFixed(2)} %)`);
  const { weights: _w, sha256: _s, ...rest } = m;
  const out = writeSebow(
    dir,
    {
      ...rest,
      derive,
      tree,
      treeAccuracy,
      treeGreedyAccuracy,
      treeSteps,
      trainingSeconds: m.trainingSeconds + Math.round((Date.now() - t0) / 1000),
      command: `${m.command ?? ""}; then ${opts.command ?? "rederive"}`,
    },
    ss,
    tw,
  );
  loaded.dispose();
  for (const v of [...ss.values(), ...tw.values()]) v.dispose();
  return out;
}

async function main() {
  const { values } = parseArgs({
    options: {
      rederive: { type: "string" },
      dataset: { type: "string", default: "scenes" },
      id: { type: "string" },
      out: { type: "string" },
      layers: { type: "string", default: "3" },
      groups: { type: "string", default: "3" },
      "stem-width": { type: "string", default: "16" },
      widths: { type: "string", default: "24,32,48" },
      "search-steps": { type: "string", default: "1200" },
      "tree-steps": { type: "string", default: "600" },
      "cnn-steps": { type: "string" },
      batch: { type: "string", default: "64" },
      lr: { type: "string", default: "0.003" },
      seed: { type: "string", default: "1" },
      "train-size": { type: "string" },
      "test-size": { type: "string" },
      threshold: { type: "string", default: String(DEFAULT_DERIVE.threshold) },
      "max-leaves": { type: "string", default: String(DEFAULT_DERIVE.maxLeaves) },
      backbone: { type: "string" },
      "backbone-layer": { type: "string", default: "layer3" },
      "fine-tune-steps": { type: "string", default: "0" },
      "test-every": { type: "string", default: "0" },
    },
  });
  const { initBackend } = await import("../inference/runtime/backend.ts");
  const backend = await initBackend();
  if (values.rederive) {
    const m = await rederiveSebow(
      values.rederive,
      { ...DEFAULT_DERIVE, threshold: Number(values.threshold), maxLeaves: Number(values["max-leaves"]) },
      Number(values["tree-steps"]),
      {
        command: `npx tsx sidecar/tree/sebowTrain.ts ${process.argv.slice(2).join(" ")}`,
        onLog: (s) => process.stderr.write(s + "\n"),
        onProgress: (p) =>
          process.stderr.write(`  ${p.phase} ${p.step}/${p.steps} loss ${p.loss.toFixed(4)} train acc ${(p.trainAccuracy * 100).toFixed(1)} %\n`),
      },
    );
    process.stderr.write(`rewrote ${m.id}\n`);
    return;
  }
  const id = values.id ?? `sebow-${values.dataset}`;
  const t0 = Date.now();
  const m = await trainSebowModel(
    {
      dataset: values.dataset!,
      id,
      name: id,
      outDir: values.out ?? path.join(sebowCheckpointDir(), id),
      layers: Number(values.layers),
      groups: Number(values.groups),
      stemWidth: Number(values["stem-width"]),
      widths: values.widths!.split(",").map(Number),
      searchSteps: Number(values["search-steps"]),
      treeSteps: Number(values["tree-steps"]),
      cnnSteps: values["cnn-steps"] ? Number(values["cnn-steps"]) : undefined,
      batch: Number(values.batch),
      lr: Number(values.lr),
      seed: Number(values.seed),
      trainSize: values["train-size"] ? Number(values["train-size"]) : undefined,
      testSize: values["test-size"] ? Number(values["test-size"]) : undefined,
      derive: { ...DEFAULT_DERIVE, threshold: Number(values.threshold), maxLeaves: Number(values["max-leaves"]) },
      backbone: values.backbone,
      backboneLayer: values["backbone-layer"] as BackboneLayer,
      fineTuneSteps: Number(values["fine-tune-steps"]),
      testEvery: Number(values["test-every"]),
      command: `npx tsx sidecar/tree/sebowTrain.ts ${process.argv.slice(2).join(" ")}`.trim(),
      onLog: (s) => process.stderr.write(s + "\n"),
      onPhase: (p, s) => process.stderr.write(`[${Math.round((Date.now() - t0) / 1000)} s] ${p} ${s}\n`),
      onProgress: (p) =>
        process.stderr.write(`  ${p.phase} ${p.step}/${p.steps} loss ${p.loss.toFixed(4)} train acc ${(p.trainAccuracy * 100).toFixed(1)} %\n`),
    },
    backend.name,
  );
  process.stderr.write(`wrote ${m.id} in ${m.trainingSeconds} s\n`);
}

if (process.argv[1]?.endsWith("sidecar/tree/sebowTrain.ts")) {
  main().catch((err) => {
    process.stderr.write(`sebowTrain: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  });
}

/** A refused SeBoW task: `code` is the gRPC status the Train handler answers with. */
export class SebowTaskError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = "SebowTaskError";
  }
}

/** The advanced arguments of a SeBoW task (TaskOptions lists them), with defaults and bounds. */
export const SEBOW_ARGS = [
  { name: "groups", description: "Filter groups (learners) per layer of the search space", value: "2", kind: "int", choices: [], min: 2, max: 4 },
  {
    name: "threshold",
    description: "Wiring strength a child needs to be kept when the tree is derived",
    value: "0.35",
    kind: "float",
    choices: [],
    min: 0.05,
    max: 1,
  },
  { name: "max_leaves", description: "Most leaves of the derived tree", value: "8", kind: "int", choices: [], min: 1, max: 16 },
  { name: "train_size", description: "Training images used (0: the whole training split)", value: "0", kind: "int", choices: [], min: 0, max: 1_000_000 },
  { name: "test_size", description: "Test images used (0: the whole test split)", value: "0", kind: "int", choices: [], min: 0, max: 1_000_000 },
  { name: "batch_size", description: "Images per optimizer step", value: "64", kind: "int", choices: [], min: 1, max: 512 },
  { name: "lr", description: "Adam's initial learning rate (cosine decay)", value: "0.004", kind: "float", choices: [], min: 1e-5, max: 0.1 },
] as const;

const GRPC_INVALID_ARGUMENT = 3;
const GRPC_FAILED_PRECONDITION = 9;
const GRPC_CANCELLED = 1;

/** Where a user's trees are written (the Tree service's layout: ${TREE_DIR:-var/trees}/users/<owner>/<name>/). */
export function userTreeDir(owner: string, name: string): string {
  return path.join(process.env.TREE_DIR || "var/trees", "users", owner, name);
}

export interface SebowTrainRequest {
  taskId?: string;
  caller?: { username?: string } | null;
  dataset?: string;
  depth?: number;
  iterations?: number;
  protoDim?: number;
  args?: Record<string, string>;
  modelName?: string;
  seed?: number;
}

export interface SebowTrainEvent {
  log?: string;
  stage?: { name: string; state: string; startedAt: string; finishedAt: string };
  scalar?: { iteration: number; loss: number; trainAccuracy: number; testAccuracy: number };
  done?: { treeId: string; testAccuracy: number; cnnAccuracy: number; leaves: number; leavesAfterPruning: number; elapsedMs: number };
  progress: number;
}

/**
 * The Train handler's SeBoW task (sidecar/tree/trainHandlers.ts dispatches category "SeBoW" here).
 * depth = layers of the search space (the seeds' tree heights 8–10: a derived tree of up to that
 * many decisions on a path); iterations = optimizer steps, 60 % searching the wiring and 40 %
 * fine-tuning the derived tree, and as many for the plain CNN it is compared with; proto_dim is
 * a ProtoTree option that SeBoW does not use (said in the log). Stages: data, training (the
 * search space), pruning (deriving the tree from the wiring and fine-tuning it), visualisation
 * (writing the tree); SeBoW has no prototype projection.
 */
export async function trainSebow(req: SebowTrainRequest, emit: (e: SebowTrainEvent) => void, signal: AbortSignal): Promise<void> {
  const t0 = Date.now();
  const owner = req.caller?.username ?? "";
  const name = req.modelName ?? "";
  if (!owner) throw new SebowTaskError(GRPC_INVALID_ARGUMENT, "a SeBoW task needs the signed-in caller");
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(name) || name.startsWith("."))
    throw new SebowTaskError(GRPC_INVALID_ARGUMENT, "model_name must be 1–64 letters, digits, '-', '_' or '.'");
  const dataset = req.dataset ?? "";
  if (!["scenes", "cifar10", "cifar100"].includes(dataset))
    throw new SebowTaskError(GRPC_INVALID_ARGUMENT, `SeBoW trains on scenes, cifar10 or cifar100, not "${dataset}"`);
  const depth = Number(req.depth ?? 0);
  if (!Number.isInteger(depth) || depth < 1 || depth > 10) throw new SebowTaskError(GRPC_INVALID_ARGUMENT, `depth must be 1–10, got ${req.depth}`);
  const iterations = Number(req.iterations ?? 0);
  if (!Number.isInteger(iterations) || iterations < 2 || iterations > 5000)
    throw new SebowTaskError(GRPC_INVALID_ARGUMENT, `iterations must be 2–5000, got ${req.iterations}`);
  const args = new Map<string, number>(SEBOW_ARGS.map((a) => [a.name, Number(a.value)]));
  for (const [k, v] of Object.entries(req.args ?? {})) {
    const spec = SEBOW_ARGS.find((a) => a.name === k);
    if (!spec) throw new SebowTaskError(GRPC_INVALID_ARGUMENT, `unknown SeBoW argument "${k}"; known: ${SEBOW_ARGS.map((a) => a.name).join(", ")}`);
    const n = Number(v);
    if (!Number.isFinite(n) || n < spec.min || n > spec.max || (spec.kind === "int" && !Number.isInteger(n)))
      throw new SebowTaskError(
        GRPC_INVALID_ARGUMENT,
        `${k} must be ${spec.kind === "int" ? "an integer" : "a number"} from ${spec.min} to ${spec.max}, got "${v}"`,
      );
    args.set(k, n);
  }
  const stamp = () => new Date().toISOString();
  const started: Record<string, string> = {};
  let progress = 0;
  const stage = (n: string, state: string) => {
    if (state === "running") started[n] = stamp();
    emit({ stage: { name: n, state, startedAt: started[n] ?? "", finishedAt: state === "done" || state === "failed" ? stamp() : "" }, progress });
  };
  if (req.protoDim) emit({ log: `proto_dim ${req.protoDim} is a ProtoTree option; SeBoW has no prototypes and ignores it`, progress });
  const searchSteps = Math.max(1, Math.round(iterations * 0.6));
  const treeSteps = Math.max(1, iterations - searchSteps);
  const totalSteps = searchSteps + treeSteps + searchSteps + treeSteps;
  const done = { search: 0, tree: 0, cnn: 0 };
  const dir = userTreeDir(owner, name);
  const phaseStage: Record<string, string> = { data: "data", search: "training", derive: "pruning", tree: "pruning", write: "visualisation" };
  const { activeBackend } = await import("../inference/runtime/backend.ts");
  let manifest: SebowManifest;
  try {
    manifest = await trainSebowModel(
      {
        dataset,
        id: `user:${owner}:${name}`,
        name,
        owner,
        outDir: dir,
        layers: depth,
        groups: args.get("groups")!,
        stemWidth: 12,
        widths: [16, 24, 32],
        searchSteps,
        treeSteps,
        batch: args.get("batch_size")!,
        lr: args.get("lr")!,
        seed: Number(req.seed ?? 1) >>> 0,
        trainSize: args.get("train_size")! || undefined,
        testSize: args.get("test_size")! || undefined,
        derive: { threshold: args.get("threshold")!, maxChildren: 2, maxLeaves: args.get("max_leaves")! },
        signal,
        onLog: (line) => emit({ log: line, progress }),
        onPhase: (p, s) => {
          const st = phaseStage[p];
          if (!st) return;
          // "pruning" spans deriving and fine-tuning: it starts with the derivation and ends with the fine-tune.
          if (p === "derive" && s === "done") return;
          if (p === "tree" && s === "running") return;
          stage(st, s);
        },
        onProgress: (p) => {
          done[p.phase] = p.step;
          progress = Math.min(0.99, (done.search + done.tree + done.cnn) / totalSteps);
          const offset = p.phase === "search" ? 0 : p.phase === "tree" ? searchSteps : searchSteps + treeSteps;
          emit({ scalar: { iteration: offset + p.step, loss: p.loss, trainAccuracy: p.trainAccuracy, testAccuracy: NaN }, progress });
        },
      },
      activeBackend()?.name ?? "unknown",
    );
  } catch (err) {
    if (err instanceof TrainingCancelled) throw new SebowTaskError(GRPC_CANCELLED, "training cancelled");
    if (err instanceof SebowCheckpointError) throw new SebowTaskError(GRPC_FAILED_PRECONDITION, err.message);
    throw err;
  }
  const leaves = leafCount(manifest.tree);
  emit({
    done: {
      treeId: `user:${owner}:${name}`,
      testAccuracy: manifest.treeAccuracy,
      cnnAccuracy: manifest.cnnAccuracy,
      // Before the derivation: every path through the search space; after: the derived tree's leaves.
      leaves: manifest.config.groups ** manifest.config.widths.length,
      leavesAfterPruning: leaves,
      elapsedMs: Date.now() - t0,
    },
    progress: 1,
  });
}
