// Training of SeBoW models (sidecar/tree/sebow.ts, docs/sebow.md):
//  1. the search space is trained (the wiring is learned with the blocks),
//  2. the wiring strength is measured on the training split and the tree derived from it,
//  3. the derived NeuralDecisionTree is fine-tuned,
//  4. a plain CNN of the same shape (one block per layer, no wiring) is trained for as many steps,
//     so the reported accuracy can be compared with the network SeBoW started from.
// Both models go to one checkpoint folder (sebowCheckpoint.ts); the data and the accuracy over it
// are sebowData.ts's, a task of the Tree service's Train is sebowTask.ts's.
//
// Command (the committed platform models, sidecar/tree/checkpoints/sebow-<dataset>/):
//   npx tsx sidecar/tree/sebowTrain.ts --dataset scenes [--search-steps N] [--tree-steps N] [--train-size N]
import * as tf from "@tensorflow/tfjs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { ImageDataset } from "../data/dataset.ts";
import { Rng } from "../data/prng.ts";
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
import { SebowCheckpointError, loadSebow, sebowCheckpointDir, writeSebow, type SebowManifest } from "./sebowCheckpoint.ts";
import { batchOf, evaluate, greedyTreeAccuracy, loadSebowData, type SebowData } from "./sebowData.ts";

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

type ZooArrays = Array<{ name: string; shape: number[]; data: Float32Array }>;

const round4 = (v: number) => Math.round(v * 10000) / 10000;
const pct = (v: number) => `${(v * 100).toFixed(2)} %`;

/** `fit`'s loss of a forward pass: the negative log-likelihood of its class probabilities. */
function nllLoss(forward: (x: tf.Tensor4D) => { probs: tf.Tensor2D }) {
  return (x: tf.Tensor4D, y: tf.Tensor2D) => {
    const out = forward(x);
    return { loss: nll(out.probs, y), probs: out.probs };
  };
}

/**
 * With `opts.backbone`: checks that the zoo ResNet takes the data's images, records it as the
 * configuration's feature net (its output channels measured by one forward pass) and returns its
 * weights; without one, none.
 */
function attachBackbone(opts: SebowTrainOptions, cfg: SebowConfig): ZooArrays {
  if (!opts.backbone) return [];
  const zoo = readCheckpoint(opts.backbone, process.env.CHECKPOINT_DIR ?? ZOO_DIR);
  if (zoo.manifest.arch !== "resnet")
    throw new SebowCheckpointError(`backbone ${opts.backbone} is a ${zoo.manifest.arch}; SeBoW here uses the zoo's ResNet body`);
  const [H, W, C] = zoo.manifest.inputShape;
  if (H !== cfg.inputShape[0] || W !== cfg.inputShape[1] || C !== cfg.inputShape[2])
    throw new SebowCheckpointError(`backbone ${opts.backbone} takes ${H}×${W}×${C} images, ${opts.dataset} has ${cfg.inputShape.join("×")}`);
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
  addBackboneWeights(probe, zoo.arrays);
  cfg.backbone.channels = tf.tidy(() => backboneFeatures(cfg.backbone!, probe, tf.zeros([1, H, W, C]) as tf.Tensor4D).shape[3]);
  for (const v of probe.values()) v.dispose();
  return zoo.arrays;
}

/** What the phases of one training share. */
interface TrainRun {
  opts: SebowTrainOptions;
  cfg: SebowConfig;
  data: SebowData;
  /** The sets the frozen-feature phases read: the feature net's output once per image, or the images. */
  trainSet: ImageDataset;
  testSet: ImageDataset;
  fromFeatures: boolean;
  rng: Rng;
  log(line: string): void;
  /** A held-out accuracy line every `opts.testEvery` steps of a phase (none when 0). */
  curve(phase: string, fn: (x: tf.Tensor4D) => tf.Tensor2D): { every: number; run(step: number): void };
}

/** The training sets of the phases: with a frozen feature net every image's features are computed once (by `ss`'s copy of it). */
function trainRun(opts: SebowTrainOptions, cfg: SebowConfig, data: SebowData, ss: Weights, rng: Rng): TrainRun {
  const log = (s: string) => opts.onLog?.(s);
  const trainSet = cfg.backbone ? featureDataset(data.train, cfg.backbone, ss, opts.signal) : data.train;
  const testSet = cfg.backbone ? featureDataset(data.test, cfg.backbone, ss, opts.signal) : data.test;
  if (cfg.backbone) log(`feature net: ${trainSet.size + testSet.size} images → ${trainSet.height}×${trainSet.width}×${trainSet.channels} features`);
  const every = opts.testEvery ?? 0;
  return {
    opts,
    cfg,
    data,
    trainSet,
    testSet,
    fromFeatures: Boolean(cfg.backbone),
    rng,
    log,
    curve: (phase, fn) => ({ every, run: (step) => log(`${phase} step ${step}: held-out accuracy ${pct(evaluate(fn, testSet))}`) }),
  };
}

/** The wiring strength W[l][i][j] of the trained search space, measured on up to 2,000 training images. */
function measureWiring(run: TrainRun, ss: Weights): number[][][] {
  const { cfg, trainSet } = run;
  const meter = new WiringMeter(cfg.widths.length, cfg.groups);
  const wiringSample = Math.min(trainSet.size, 2000);
  for (let s = 0; s < wiringSample; s += 200) {
    const idx = Array.from({ length: Math.min(200, wiringSample - s) }, (_, i) => s + i);
    const { x, y } = batchOf(trainSet, idx);
    const arrays = tf.tidy(() => {
      const out = searchSpaceForward(cfg, ss, x, false, run.fromFeatures);
      return { routing: out.routing.map((ps) => ps.map((p) => p.arraySync())), arrival: out.arrival.map((a) => a.arraySync()) };
    });
    meter.add(arrays.routing, arrays.arrival);
    x.dispose();
    y.dispose();
  }
  return meter.wiring();
}

/**
 * The derived tree's weights (initialised from the search space), trained on the frozen features;
 * with a feature net and `fineTuneSteps`, then trained with it on the images at a tenth of the
 * learning rate. Returns the weights and the accuracy before that fine-tuning (NaN without it).
 */
async function trainTree(run: TrainRun, tree: SebowTree, ss: Weights): Promise<{ tw: Weights; treeAccuracyFrozen: number }> {
  const { opts, cfg, data, fromFeatures } = run;
  const tw = initTreeWeights(cfg, tree, ss);
  await fit(
    "tree",
    nllLoss((x) => treeForward(tree, tw, x, true, fromFeatures)),
    withoutBackbone(tw),
    run.trainSet,
    opts,
    opts.treeSteps,
    run.rng,
    run.curve("tree", (x) => treeForward(tree, tw, x, false, fromFeatures).probs),
  );
  let treeAccuracyFrozen = NaN;
  if (cfg.backbone && (opts.fineTuneSteps ?? 0) > 0) {
    treeAccuracyFrozen = evaluate((x) => treeForward(tree, tw, x, false, true).probs, run.testSet);
    run.log(`tree with the frozen feature net: held-out accuracy ${pct(treeAccuracyFrozen)}; fine-tuning the feature net with the tree`);
    const every = opts.testEvery ?? 0;
    await fit(
      "tree",
      nllLoss((x) => treeForward(tree, tw, x, true)),
      [...tw.values()],
      data.train,
      { ...opts, lr: opts.lr / 10 },
      opts.fineTuneSteps!,
      run.rng,
      { every, run: (step) => run.log(`tree fine-tune step ${step}: held-out accuracy ${pct(evaluate((x) => treeForward(tree, tw, x).probs, data.test))}`) },
    );
  }
  return { tw, treeAccuracyFrozen };
}

/**
 * A network of the search space's form (the search space, or the plain CNN with one group) trained
 * on the run's training set, its feature net frozen; `curveName` adds held-out accuracy lines.
 */
function fitSearchSpace(run: TrainRun, phase: TrainProgress["phase"], cfg: SebowConfig, w: Weights, steps: number, curveName?: string): Promise<void> {
  const probe = curveName === undefined ? undefined : run.curve(curveName, (x) => searchSpaceForward(cfg, w, x, false, run.fromFeatures).probs);
  return fit(
    phase,
    nllLoss((x) => searchSpaceForward(cfg, w, x, true, run.fromFeatures)),
    withoutBackbone(w),
    run.trainSet,
    run.opts,
    steps,
    run.rng,
    probe,
  );
}

/** The plain CNN of the same shape (plainCnnConfig), trained for as many steps as search and tree together unless `cnnSteps` says. */
async function trainPlainCnn(run: TrainRun, cnnCfg: SebowConfig, zooArrays: ZooArrays): Promise<Weights> {
  const { opts } = run;
  const cnn = initSearchSpace(cnnCfg, opts.seed + 1);
  if (run.cfg.backbone) addBackboneWeights(cnn, zooArrays);
  await fitSearchSpace(run, "cnn", cnnCfg, cnn, opts.cnnSteps ?? opts.searchSteps + opts.treeSteps);
  return cnn;
}

/** Train search space, derive, fine-tune the tree, train the plain CNN, test all three, write the checkpoint. */
export async function trainSebowModel(opts: SebowTrainOptions, backendName: string): Promise<SebowManifest> {
  const t0 = Date.now();
  const log = (s: string) => opts.onLog?.(s);
  opts.onPhase?.("data", "running");
  const data = loadSebowData(opts.dataset, opts.trainSize, opts.testSize);
  opts.onPhase?.("data", "done");
  const cfg = sebowConfig(opts, data.train);
  const zooArrays = attachBackbone(opts, cfg);
  log(
    `SeBoW on ${data.name}: ${data.train.size} training / ${data.test.size} test images, ${cfg.widths.length} layers × ${cfg.groups} filter groups, widths ${cfg.stemWidth}/${cfg.widths.join(",")}` +
      (cfg.backbone
        ? `; feature net: ${cfg.backbone.checkpoint} up to ${cfg.backbone.layer} (${cfg.backbone.channels} channels), frozen, then fine-tuned ${opts.fineTuneSteps ?? 0} steps with the tree`
        : ""),
  );
  const rng = new Rng(opts.seed);

  opts.onPhase?.("search", "running");
  const ss = initSearchSpace(cfg, opts.seed);
  if (cfg.backbone) addBackboneWeights(ss, zooArrays);
  const run = trainRun(opts, cfg, data, ss, rng);
  await fitSearchSpace(run, "search", cfg, ss, opts.searchSteps, "search space");
  opts.onPhase?.("search", "done");

  opts.onPhase?.("derive", "running");
  const wiring = measureWiring(run, ss);
  const tree = deriveTree(wiring, opts.derive);
  if (cfg.backbone) tree.backbone = cfg.backbone;
  log(
    `wiring ${JSON.stringify(wiring.map((l) => l.map((r) => r.map((v) => Math.round(v * 1000) / 1000))))}; derived tree: ${tree.nodes.length} nodes, ${leafCount(tree)} leaves`,
  );
  opts.onPhase?.("derive", "done");

  opts.onPhase?.("tree", "running");
  const { tw, treeAccuracyFrozen } = await trainTree(run, tree, ss);
  opts.onPhase?.("tree", "done");

  opts.onPhase?.("cnn", "running");
  const cnnCfg = plainCnnConfig(cfg);
  const cnn = await trainPlainCnn(run, cnnCfg, zooArrays);
  opts.onPhase?.("cnn", "done");

  const searchSpaceAccuracy = evaluate((x) => searchSpaceForward(cfg, ss, x).probs, data.test);
  const treeAccuracy = evaluate((x) => treeForward(tree, tw, x).probs, data.test);
  const treeGreedyAccuracy = greedyTreeAccuracy(tree, tw, data.test);
  const cnnAccuracy = evaluate((x) => searchSpaceForward(cnnCfg, cnn, x).probs, data.test);
  log(`test accuracy: search space ${pct(searchSpaceAccuracy)}, tree ${pct(treeAccuracy)} (greedy ${pct(treeGreedyAccuracy)}), plain CNN ${pct(cnnAccuracy)}`);
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
      searchSpaceAccuracy: round4(searchSpaceAccuracy),
      treeAccuracy: round4(treeAccuracy),
      treeGreedyAccuracy: round4(treeGreedyAccuracy),
      cnnAccuracy: round4(cnnAccuracy),
      ...(cfg.backbone ? { treeAccuracyFrozenBackbone: round4(treeAccuracyFrozen), fineTuneSteps: opts.fineTuneSteps ?? 0 } : {}),
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
    nllLoss((x) => treeForward(tree, tw, x, true)),
    withoutBackbone(tw),
    data.train,
    fitOpts,
    treeSteps,
    new Rng(m.seed + 7),
  );
  const treeAccuracy = round4(evaluate((x) => treeForward(tree, tw, x).probs, data.test));
  const treeGreedyAccuracy = round4(greedyTreeAccuracy(tree, tw, data.test));
  opts.onLog?.(`tree ${pct(treeAccuracy)} (greedy ${pct(treeGreedyAccuracy)})`);
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
