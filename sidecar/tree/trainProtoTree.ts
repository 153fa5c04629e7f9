// Training a ProtoTree (protoTree.ts) in the stages the task page shows: data → training → pruning
// → projection → visualisation (tree.proto TrainStage). As main_tree.py of the reference: gradient
// steps on the add-on layer and prototypes (and the backbone when it is not frozen) with the
// negative log-likelihood of the soft tree, the derivative-free leaf update after every step, then
// pruning, then projection of each prototype onto its nearest training patch (with the reference's
// class constraints), testing after each. "iterations" are optimizer steps over mini-batches
// (tree.proto TrainRequest; sidecar/tree/README.md "Training"). Deviations for a shared CPU, stated
// in sidecar/tree/README.md "Training": Adam (the reference uses AdamW) with one rate for add-on
// and prototypes, the backbone frozen by default (the reference freezes it for its first epochs
// only), and training/test subsets of the dataset's splits. `ddp` > 1 trains data-parallel over
// that many threads of this host (dataParallel.ts: each batch split into shards, gradients
// averaged, leaf-update terms summed, every step); the other stages run on the task's own thread.
//
// Command for platform trees:
//   npx tsx sidecar/tree/trainProtoTree.ts --dataset fashion-mnist --id <id> [--depth 8] [--iterations 300]
//       [--proto-dim 128] [--batch 64] [--train-size 5000] [--test-size 2000] [--lr 0.001] [--backbone <zoo id>]
//       [--layer layer3] [--fine-tune] [--pruning-threshold 0] [--seed 1] [--ddp 1]
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../inference/runtime/backend.ts";
import type { ImageDataset } from "../data/dataset.ts";
import { Rng } from "../data/prng.ts";
import { encodePng, type FloatImage } from "../data/png.ts";
import { readCheckpoint, type CheckpointManifest } from "../zoo/checkpoint.ts";
import { CHECKPOINT_DIR as ZOO_DIR } from "../zoo/checkpoint.ts";
import { loadZooNet } from "../zoo/zooNet.ts";
import type { WeightMap } from "../zoo/layers.ts";
import { savePlatformTree } from "./checkpoint.ts";
import { TrainArgError } from "./trainErrors.ts";

/** grpc.status.INVALID_ARGUMENT (the trainer stays free of the gRPC package). */
const INVALID_ARGUMENT = 3;
import { treeDatasets, loadTreeDataset } from "./treeDatasets.ts";
import { DataParallelStep, type BatchRows } from "./dataParallel.ts";
import {
  PROTOTREE_CATEGORY,
  addOn,
  allowedClasses,
  completeTree,
  greedyPath,
  initialTreeWeights,
  leafDistribution,
  makeBackbone,
  nodesOf,
  numPrototypesOf,
  patchBox,
  patchDistances,
  pruneStructure,
  similaritiesFromDistances,
  softProbabilities,
  type BackboneLayer,
  type Projection,
  type ProtoTree,
  type TreeStructure,
} from "./protoTree.ts";

export type StageName = "data" | "training" | "pruning" | "projection" | "visualisation";
export const STAGES: StageName[] = ["data", "training", "pruning", "projection", "visualisation"];

/** What a training run reports (the shape of tree.proto TrainEvent, without the proto's wrapping). */
export type TrainProgressEvent =
  | { kind: "log"; text: string; progress: number }
  | { kind: "stage"; name: StageName; state: "running" | "done" | "failed"; at: string; progress: number }
  | { kind: "scalar"; iteration: number; loss: number; trainAccuracy: number; testAccuracy: number; progress: number }
  | { kind: "image"; name: string; iteration: number; png: Uint8Array; caption: string; progress: number };

export interface ProtoTreeTrainOptions {
  dataset: string;
  depth: number;
  protoDim: number;
  iterations: number;
  batchSize: number;
  lr: number;
  /** Learning rate of the backbone when it is fine-tuned (util/args.py lr_net is 1e-5). */
  lrBackbone: number;
  trainSize: number;
  testSize: number;
  /** Zoo checkpoint id of the backbone; "" picks resnet-<dataset>. */
  backbone: string;
  layer: BackboneLayer | "";
  freezeBackbone: boolean;
  /** ≤ 0: 2 / classes (see pruningThresholdFor). */
  pruningThreshold: number;
  testEvery: number;
  seed: number;
  /** Threads the training steps run on (data parallel when > 1; dataParallel.ts). */
  ddp: number;
  command: string;
}

export const DEFAULT_TRAIN_OPTIONS: Omit<ProtoTreeTrainOptions, "dataset" | "command"> = {
  depth: 8,
  protoDim: 128,
  iterations: 100,
  batchSize: 64,
  lr: 0.001,
  lrBackbone: 1e-5,
  trainSize: 5000,
  testSize: 1000,
  backbone: "",
  layer: "",
  freezeBackbone: true,
  pruningThreshold: 0,
  testEvery: 25,
  seed: 1,
  ddp: 1,
};

export class TrainCancelledError extends Error {
  constructor() {
    super("training cancelled");
    this.name = "TrainCancelledError";
  }
}

/**
 * The reference prunes leaves whose largest class probability is ≤ 0.01 (util/args.py
 * pruning_threshold_leaves) on 200-class CUB, where a uniform leaf has 0.005. With 10 classes no
 * leaf can be below 0.1, so 0.01 would never prune; ≤ 0 here means that setting scaled to the
 * class count: 2 / C (= 0.01 at C = 200): a leaf at most twice as sure as a uniform guess decides nothing.
 */
export function pruningThresholdFor(threshold: number, numClasses: number): number {
  return threshold > 0 ? threshold : 2 / numClasses;
}

/** Stage weights of the whole task's progress (training dominates). */
const STAGE_SPAN: Record<StageName, [number, number]> = {
  data: [0, 0.05],
  training: [0.05, 0.85],
  pruning: [0.85, 0.87],
  projection: [0.87, 0.97],
  visualisation: [0.97, 1],
};

export interface TrainResult {
  tree: ProtoTree;
  testAccuracy: number;
  greedyAccuracy: number;
  testAccuracyBeforePruning: number;
  cnnAccuracy: number;
  leaves: number;
  leavesAfterPruning: number;
  elapsedMs: number;
}

/** Latent features of the backbone for a set of images, computed once when the backbone is frozen. */
class FeatureCache {
  private data: Float32Array | null = null;
  shape: [number, number, number] = [0, 0, 0];
  constructor(
    private ds: ImageDataset,
    private indices: Int32Array,
  ) {}
  fill(forward: (x: tf.Tensor4D) => tf.Tensor4D, check: () => void): void {
    const n = this.indices.length;
    for (let s = 0; s < n; s += 128) {
      check();
      const idx = this.indices.subarray(s, Math.min(n, s + 128));
      const f = tf.tidy(() => forward(imagesOf(this.ds, idx)));
      const [, h, w, c] = f.shape;
      if (!this.data) {
        this.shape = [h, w, c];
        this.data = new Float32Array(n * h * w * c);
      }
      this.data.set(f.dataSync(), s * h * w * c);
      f.dispose();
    }
  }
  /** Features of positions `pos` (into `indices`), as rows [n, h, w, c]. */
  rows(pos: ArrayLike<number>): BatchRows {
    const [h, w, c] = this.shape;
    const m = h * w * c;
    const buf = new Float32Array(pos.length * m);
    for (let i = 0; i < pos.length; i++) buf.set(this.data!.subarray(pos[i] * m, (pos[i] + 1) * m), i * m);
    return { data: buf, shape: [pos.length, h, w, c] };
  }
  batch(pos: ArrayLike<number>): tf.Tensor4D {
    const r = this.rows(pos);
    return tf.tensor4d(r.data, r.shape);
  }
}

export function imagesOf(ds: ImageDataset, idx: ArrayLike<number>): tf.Tensor4D {
  const r = imageRows(ds, idx);
  return tf.tensor4d(r.data, r.shape);
}

export function imageRows(ds: ImageDataset, idx: ArrayLike<number>): BatchRows {
  const n = ds.height * ds.width * ds.channels;
  const buf = new Float32Array(idx.length * n);
  for (let b = 0; b < idx.length; b++) buf.set(ds.images.subarray(idx[b] * n, (idx[b] + 1) * n), b * n);
  return { data: buf, shape: [idx.length, ds.height, ds.width, ds.channels] };
}

/** The crop of a latent cell's pixel box, upscaled ×4 for display. */
export function patchCrop(ds: ImageDataset, index: number, box: { top: number; left: number; height: number; width: number }, scale = 4): FloatImage {
  const C = ds.channels;
  const base = index * ds.height * ds.width * C;
  const H = box.height * scale,
    W = box.width * scale;
  const data = new Float32Array(H * W * C);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++)
      for (let c = 0; c < C; c++)
        data[(y * W + x) * C + c] = ds.images[base + ((box.top + Math.floor(y / scale)) * ds.width + box.left + Math.floor(x / scale)) * C + c];
  return { height: H, width: W, channels: C, data };
}

/**
 * The ResNet trained on the dataset (resnet-<dataset>); for an operator's 32×32 colour data
 * without one (CUB, Cars as read here), the scenes ResNet, whose input has that shape: its
 * features are generic edges and colours, not birds or cars, which the task log says.
 */
export function defaultBackbone(dataset: string, dir = process.env.CHECKPOINT_DIR ?? ZOO_DIR): string {
  const own = `resnet-${dataset}`;
  if (fs.existsSync(path.join(dir, `${own}.json`))) return own;
  return dataset === "cub" || dataset === "cars" ? "resnet-scenes" : own;
}

/** The stage whose latent grid is about 4×4 for the zoo's inputs (util/net.py cuts ResNets before pooling likewise). */
export function defaultLayer(zoo: CheckpointManifest): BackboneLayer {
  // Spatial size after the stem, then halved by stages 2..4.
  const size = Math.ceil(zoo.inputShape[0] / zoo.archConfig.stemStride);
  const stages: BackboneLayer[] = ["layer1", "layer2", "layer3", "layer4"];
  for (let s = 0; s < 4; s++) if (Math.ceil(size / 2 ** s) <= 4) return stages[s];
  return "layer4";
}

export async function trainProtoTree(opts: ProtoTreeTrainOptions, emit: (e: TrainProgressEvent) => void, signal?: AbortSignal): Promise<TrainResult> {
  // The replicas start now, so their backends load while this thread reads the data.
  const dp = new DataParallelStep(Math.max(1, Math.floor(opts.ddp || 1)));
  try {
    return await train(opts, dp, emit, signal);
  } finally {
    await dp.close();
  }
}

async function train(opts: ProtoTreeTrainOptions, dp: DataParallelStep, emit: (e: TrainProgressEvent) => void, signal?: AbortSignal): Promise<TrainResult> {
  const t0 = Date.now();
  const workers = dp.workers;
  const onWorkers = workers === 1 ? "on 1 worker thread" : `on ${workers} worker threads (data parallel)`;
  const backendName = tf.getBackend();
  const check = () => {
    if (signal?.aborted) throw new TrainCancelledError();
  };
  let progress = 0;
  const at = (stage: StageName, frac: number) =>
    (progress = STAGE_SPAN[stage][0] + (STAGE_SPAN[stage][1] - STAGE_SPAN[stage][0]) * Math.min(1, Math.max(0, frac)));
  const log = (text: string) => emit({ kind: "log", text, progress });
  const stage = (name: StageName, state: "running" | "done") => {
    at(name, state === "done" ? 1 : 0);
    emit({ kind: "stage", name, state, at: new Date().toISOString(), progress });
  };

  // ---- data
  stage("data", "running");
  const info = treeDatasets().find((d) => d.id === opts.dataset);
  if (!info)
    throw new Error(
      `dataset "${opts.dataset}" is not installed here; installed: ${treeDatasets()
        .map((d) => d.id)
        .join(", ")}`,
    );
  const data = loadTreeDataset(opts.dataset, { train: opts.trainSize, test: opts.testSize });
  check();
  const rng = new Rng(opts.seed);
  const trainIdx = rng.permutation(data.train.size).subarray(0, Math.min(opts.trainSize, data.train.size));
  const testIdx = Int32Array.from({ length: Math.min(opts.testSize, data.test.size) }, (_, i) => i);
  const C = data.train.classNames.length;
  const backboneId = opts.backbone || defaultBackbone(opts.dataset);
  const zoo = readCheckpoint(backboneId, process.env.CHECKPOINT_DIR ?? ZOO_DIR);
  // A backbone that does not fit the task's data is the request's mistake (INVALID_ARGUMENT), said in its words.
  if (zoo.manifest.arch !== "resnet")
    throw new TrainArgError(INVALID_ARGUMENT, `backbone ${backboneId} is a ${zoo.manifest.arch}; ProtoTree here uses the zoo's ResNet body`);
  const [H, W, Ch] = zoo.manifest.inputShape;
  if (H !== data.train.height || W !== data.train.width || Ch !== data.train.channels)
    throw new TrainArgError(
      INVALID_ARGUMENT,
      `backbone ${backboneId} takes ${H}×${W}×${Ch} images, ${opts.dataset} has ${data.train.height}×${data.train.width}×${data.train.channels}`,
    );
  if (zoo.manifest.classNames.length !== C || zoo.manifest.dataset !== opts.dataset)
    log(`note: backbone ${backboneId} was trained on ${zoo.manifest.dataset}, the tree on ${opts.dataset}`);
  const layer = opts.layer || defaultLayer(zoo.manifest);
  log(
    `ProtoTree on ${info.name}: ${trainIdx.length} training / ${testIdx.length} test images, ${C} classes; backbone ${backboneId} up to ${layer}` +
      ` (${opts.freezeBackbone ? "frozen" : "fine-tuned"}), depth ${opts.depth} (${numPrototypesOf(opts.depth)} prototypes, ${2 ** opts.depth} leaves), prototype dimension ${opts.protoDim}, on ${backendName}; training ${onWorkers}`,
  );

  // The plain CNN's accuracy on the same test split (the comparison the task and tree pages show).
  let cnnAccuracy = NaN;
  if (zoo.manifest.dataset === opts.dataset) {
    const net = loadZooNet(backboneId, process.env.CHECKPOINT_DIR ?? ZOO_DIR);
    let correct = 0;
    for (let s = 0; s < testIdx.length; s += 250) {
      const idx = testIdx.subarray(s, Math.min(testIdx.length, s + 250));
      const pred = tf.tidy(() => tf.argMax(net.forward(imagesOf(data.test, idx)), 1).dataSync());
      for (let i = 0; i < idx.length; i++) if (pred[i] === data.test.labels[idx[i]]) correct++;
    }
    net.dispose();
    cnnAccuracy = correct / testIdx.length;
    log(`backbone CNN accuracy on these ${testIdx.length} test images: ${(cnnAccuracy * 100).toFixed(2)} %`);
  }

  const bbWeights: WeightMap = new Map();
  for (const a of zoo.arrays) bbWeights.set(a.name, tf.variable(tf.tensor(a.data, a.shape), !opts.freezeBackbone));
  const backbone = makeBackbone(bbWeights, zoo.manifest.archConfig, layer);
  const latentShape = tf.tidy(() => backbone.forward(tf.zeros([1, H, W, Ch]) as tf.Tensor4D).shape);
  const channels = latentShape[3];
  const init = initialTreeWeights(rng, opts.depth, channels, opts.protoDim, C);
  const P = numPrototypesOf(opts.depth);
  const L = P + 1;
  const tree: ProtoTree = {
    manifest: {
      format: "metarank-prototree/1",
      category: PROTOTREE_CATEGORY,
      name: "",
      owner: "",
      dataset: opts.dataset,
      datasetName: info.name,
      classNames: data.train.classNames,
      inputShape: [H, W, Ch],
      depth: opts.depth,
      protoDim: opts.protoDim,
      backbone: {
        checkpoint: backboneId,
        arch: "resnet",
        archConfig: zoo.manifest.archConfig,
        layer,
        channels,
        fineTuned: !opts.freezeBackbone,
        weightsSha256: zoo.manifest.weightsSha256,
      },
      latentShape: [latentShape[1], latentShape[2]],
      pruningThreshold: pruningThresholdFor(opts.pruningThreshold, C),
      testAccuracy: NaN,
      greedyAccuracy: NaN,
      testAccuracyBeforePruning: NaN,
      cnnAccuracy,
      leaves: L,
      leavesAfterPruning: L,
      trainSize: trainIdx.length,
      testSize: testIdx.length,
      iterations: opts.iterations,
      batchSize: opts.batchSize,
      trainedAt: "",
      trainingSeconds: 0,
      backend: backendName,
      command: opts.command,
      pruned: { root: 0, children: [] },
      projections: [],
      weightsFile: "",
      weightsSha256: "",
      weights: [],
    },
    depth: opts.depth,
    numClasses: C,
    numPrototypes: P,
    numLeaves: L,
    backbone,
    addOnKernel: tf.variable(tf.tensor4d(init.addOnKernel, [1, 1, channels, opts.protoDim]), true),
    addOnBias: tf.variable(tf.tensor1d(init.addOnBias), true),
    prototypes: tf.variable(tf.tensor2d(init.prototypes, [P, opts.protoDim]), true),
    leafLogits: init.leafLogits,
    full: completeTree(opts.depth),
    pruned: completeTree(opts.depth),
    projections: new Array(P).fill(null),
  };

  const trainCache = new FeatureCache(data.train, trainIdx);
  const testCache = new FeatureCache(data.test, testIdx);
  if (opts.freezeBackbone) {
    trainCache.fill((x) => backbone.forward(x), check);
    testCache.fill((x) => backbone.forward(x), check);
  }
  /** Backbone features of positions in a subset, cached or computed (trainable when fine-tuning). */
  const featuresOf = (cache: FeatureCache, ds: ImageDataset, indices: Int32Array, pos: ArrayLike<number>, trainable: boolean) =>
    opts.freezeBackbone
      ? cache.batch(pos)
      : backbone.forward(
          imagesOf(
            ds,
            Array.from(pos, (p) => indices[p]),
          ),
          trainable,
        );

  /** Similarities [n, P] of a subset (plain arrays), in batches. */
  const simsOf = (cache: FeatureCache, ds: ImageDataset, indices: Int32Array) => {
    const n = indices.length;
    const sims = new Float32Array(n * P);
    for (let s = 0; s < n; s += 128) {
      check();
      const pos = Array.from({ length: Math.min(128, n - s) }, (_, i) => s + i);
      const out = tf.tidy(() =>
        similaritiesFromDistances(patchDistances(addOn(tree, featuresOf(cache, ds, indices, pos, false)), tree.prototypes as tf.Tensor2D)).sims.dataSync(),
      );
      sims.set(out, s * P);
    }
    return sims;
  };
  const evaluate = (structure: TreeStructure) => {
    const sims = simsOf(testCache, data.test, testIdx);
    const probs = softProbabilities(tree, sims, testIdx.length, structure);
    let soft = 0,
      greedy = 0;
    for (let i = 0; i < testIdx.length; i++) {
      const y = data.test.labels[testIdx[i]];
      let m = 0;
      for (let j = 1; j < C; j++) if (probs[i * C + j] > probs[i * C + m]) m = j;
      if (m === y) soft++;
      if (greedyPath(tree, sims, structure, i).predicted === y) greedy++;
    }
    return { soft: soft / testIdx.length, greedy: greedy / testIdx.length };
  };
  stage("data", "done");

  // ---- training
  stage("training", "running");
  const bbVars = [...bbWeights.values()];
  dp.init(
    {
      depth: opts.depth,
      numClasses: C,
      addOnKernel: tree.addOnKernel,
      addOnBias: tree.addOnBias,
      prototypes: tree.prototypes,
      backbone: opts.freezeBackbone ? null : backbone,
      backboneVars: opts.freezeBackbone ? [] : bbVars,
    },
    opts.lr,
    opts.lrBackbone,
  );
  if (workers > 1) {
    await dp.ready();
    log(
      `training on ${workers} worker threads: each batch of ${opts.batchSize} is split into ${workers} shards, gradients averaged and leaf updates summed every step`,
    );
  }
  const nBatches = Math.ceil(trainIdx.length / opts.batchSize);
  let order = rng.permutation(trainIdx.length);
  let epochStart = Float32Array.from(tree.leafLogits);
  let testAccuracyBeforePruning = NaN;
  const trainStart = Date.now();
  let stepMs = 0;
  for (let it = 1; it <= opts.iterations; it++) {
    check();
    const b = (it - 1) % nBatches;
    if (b === 0 && it > 1) {
      order = rng.permutation(trainIdx.length);
      epochStart = Float32Array.from(tree.leafLogits);
    }
    const pos = order.subarray(b * opts.batchSize, Math.min(trainIdx.length, (b + 1) * opts.batchSize));
    const labels = Int32Array.from(pos, (p) => data.train.labels[trainIdx[p]]);
    const rows = opts.freezeBackbone
      ? trainCache.rows(pos)
      : imageRows(
          data.train,
          Array.from(pos, (p) => trainIdx[p]),
        );
    // The gradient step and, after it, the derivative-free leaf update (train.py train_epoch).
    const s0 = Date.now();
    const { loss, correct } = await dp.step(rows, labels, tree.leafLogits, epochStart, nBatches);
    stepMs += Date.now() - s0;
    if (!Number.isFinite(loss)) throw new Error(`the loss became ${loss} at iteration ${it}; try a lower learning rate`);
    let testAccuracy = NaN;
    at("training", it / opts.iterations);
    if (it % opts.testEvery === 0 || it === opts.iterations) {
      testAccuracy = evaluate(tree.full).soft;
      log(
        `iteration ${it}/${opts.iterations} (${workers === 1 ? "1 worker" : `${workers} workers`}): loss ${loss.toFixed(4)}, batch accuracy ${((correct / labels.length) * 100).toFixed(1)} %, test accuracy ${(testAccuracy * 100).toFixed(2)} %`,
      );
      emitSamples(it);
    }
    testAccuracyBeforePruning = Number.isNaN(testAccuracy) ? testAccuracyBeforePruning : testAccuracy;
    emit({ kind: "scalar", iteration: it, loss, trainAccuracy: correct / labels.length, testAccuracy, progress });
  }
  await dp.close();
  log(
    `training: ${opts.iterations} steps ${onWorkers} in ${((Date.now() - trainStart) / 1000).toFixed(1)} s; the steps alone ${(stepMs / 1000).toFixed(1)} s, ${(opts.iterations / Math.max(stepMs / 1000, 1e-3)).toFixed(2)} steps/s`,
  );
  stage("training", "done");

  /** A few test images with the tree's greedy prediction (the task page's images as training goes). */
  function emitSamples(iteration: number) {
    const n = Math.min(3, testIdx.length);
    const pos = Array.from({ length: n }, (_, i) => i);
    const sims = tf.tidy(() =>
      similaritiesFromDistances(
        patchDistances(addOn(tree, featuresOf(testCache, data.test, testIdx, pos, false)), tree.prototypes as tf.Tensor2D),
      ).sims.dataSync(),
    ) as Float32Array;
    for (let i = 0; i < n; i++) {
      const g = greedyPath(tree, sims, tree.full, i);
      const idx = testIdx[i];
      const img: FloatImage = { height: H, width: W, channels: Ch, data: data.test.images.subarray(idx * H * W * Ch, (idx + 1) * H * W * Ch) as Float32Array };
      emit({
        kind: "image",
        name: `sample-${idx}`,
        iteration,
        png: encodePng(img),
        caption: `test image ${idx} (${data.test.classNames[data.test.labels[idx]]}): the tree routes it to leaf ${g.leaf} and predicts ${data.test.classNames[g.predicted]}`,
        progress,
      });
    }
  }

  // ---- pruning
  stage("pruning", "running");
  const threshold = tree.manifest.pruningThreshold;
  const { pruned } = pruneStructure(tree.full, (leaf) => Math.max(...leafDistribution(tree, leaf)), threshold);
  tree.pruned = pruned;
  const leavesAfterPruning = nodesOf(pruned).filter((n) => !pruned.children.has(n.node)).length;
  const prunedAcc = evaluate(pruned);
  log(
    `pruning (leaves with every class probability ≤ ${threshold.toFixed(4)}): ${L} → ${leavesAfterPruning} leaves; test accuracy ${(prunedAcc.soft * 100).toFixed(2)} %`,
  );
  stage("pruning", "done");

  // ---- projection
  stage("projection", "running");
  projectPrototypes(
    tree,
    (pos) => featuresOf(trainCache, data.train, trainIdx, pos, false),
    trainIdx,
    data.train.labels,
    check,
    (f) => at("projection", f),
  );
  const final = evaluate(pruned);
  log(
    `projection: each prototype replaced by its nearest training patch; test accuracy ${(final.soft * 100).toFixed(2)} % (greedy routing ${(final.greedy * 100).toFixed(2)} %)`,
  );
  stage("projection", "done");

  // ---- visualisation
  stage("visualisation", "running");
  const shown = nodesOf(pruned)
    .filter((n) => pruned.children.has(n.node))
    .slice(0, 15);
  for (const { node } of shown) {
    const pr = tree.projections[node];
    if (!pr) continue;
    const png = encodePng(patchCrop(data.train, pr.sample, patchBox(tree, pr.row, pr.col)));
    emit({
      kind: "image",
      name: `prototype-${node}`,
      iteration: opts.iterations,
      png,
      caption: `prototype of node ${node}: patch (${pr.row}, ${pr.col}) of training image ${pr.sample} (${data.train.classNames[pr.label]})`,
      progress,
    });
  }
  stage("visualisation", "done");

  Object.assign(tree.manifest, {
    testAccuracy: round4(final.soft),
    greedyAccuracy: round4(final.greedy),
    testAccuracyBeforePruning: round4(testAccuracyBeforePruning),
    cnnAccuracy: round4(cnnAccuracy),
    leavesAfterPruning,
    trainedAt: new Date().toISOString(),
    trainingSeconds: Math.round((Date.now() - t0) / 1000),
  });
  for (const v of [tree.addOnKernel, tree.addOnBias, tree.prototypes]) (v as unknown as { trainable: boolean }).trainable = false;
  return {
    tree,
    testAccuracy: final.soft,
    greedyAccuracy: final.greedy,
    testAccuracyBeforePruning,
    cnnAccuracy,
    leaves: L,
    leavesAfterPruning,
    elapsedMs: Date.now() - t0,
  };
}

const round4 = (v: number) => (Number.isFinite(v) ? Math.round(v * 10000) / 10000 : v);

/**
 * Projection as project.py project_with_class_constraints: each prototype becomes the latent
 * patch, over the training images whose label is the argmax class of some leaf below its node,
 * that is nearest to it (strictly nearer replaces; the first of equals is kept); the image and the
 * cell are recorded. Nodes of the pruned tree take their leaves there, removed nodes in the full tree.
 * `features(pos)` returns backbone features of training subset positions; `indices[pos]` is the
 * position's index in the train split, `labels` the split's labels.
 */
export function projectPrototypes(
  tree: ProtoTree,
  features: (pos: number[]) => tf.Tensor4D,
  indices: Int32Array,
  labels: Int32Array,
  check: () => void = () => {},
  onProgress: (f: number) => void = () => {},
): void {
  const P = tree.numPrototypes;
  const D = tree.manifest.protoDim;
  const allowed = Array.from({ length: P }, (_, h) => allowedClasses(tree, tree.pruned.children.has(h) ? tree.pruned : tree.full, h));
  const best = new Float64Array(P).fill(Infinity);
  const bestPatch = new Float32Array(P * D);
  const proj: Array<Projection | null> = new Array(P).fill(null);
  const n = indices.length;
  for (let s = 0; s < n; s += 64) {
    check();
    const pos = Array.from({ length: Math.min(64, n - s) }, (_, i) => s + i);
    const { z, dist, shape } = tf.tidy(() => {
      const zz = addOn(tree, features(pos));
      const d = patchDistances(zz, tree.prototypes as tf.Tensor2D);
      return { z: zz.dataSync() as Float32Array, dist: d.dataSync() as Float32Array, shape: zz.shape };
    });
    const [, h, w] = shape;
    const HW = h * w;
    for (let i = 0; i < pos.length; i++) {
      const label = labels[indices[pos[i]]];
      for (let p = 0; p < P; p++) {
        if (!allowed[p].has(label)) continue;
        for (let q = 0; q < HW; q++) {
          const d = dist[(i * HW + q) * P + p];
          if (d < best[p]) {
            best[p] = d;
            bestPatch.set(z.subarray((i * HW + q) * D, (i * HW + q + 1) * D), p * D);
            proj[p] = { sample: indices[pos[i]], label, row: Math.floor(q / w), col: q % w, distance: d };
          }
        }
      }
    }
    onProgress((s + pos.length) / n);
  }
  // A prototype no allowed image reached keeps its trained vector (and no projection record).
  const current = tree.prototypes.dataSync() as Float32Array;
  const next = Float32Array.from(current);
  for (let p = 0; p < P; p++) if (proj[p]) next.set(bestPatch.subarray(p * D, (p + 1) * D), p * D);
  tree.prototypes.assign(tf.tensor2d(next, [P, D]));
  tree.projections = proj;
}

async function main() {
  const { values } = parseArgs({
    options: {
      dataset: { type: "string" },
      id: { type: "string" },
      depth: { type: "string", default: "8" },
      iterations: { type: "string", default: "300" },
      "proto-dim": { type: "string", default: "128" },
      batch: { type: "string", default: "64" },
      "train-size": { type: "string", default: "5000" },
      "test-size": { type: "string", default: "2000" },
      lr: { type: "string", default: "0.001" },
      backbone: { type: "string", default: "" },
      layer: { type: "string", default: "" },
      "fine-tune": { type: "boolean", default: false },
      "pruning-threshold": { type: "string", default: "0" },
      "test-every": { type: "string", default: "50" },
      seed: { type: "string", default: "1" },
      ddp: { type: "string", default: "1" },
      out: { type: "string" },
    },
  });
  if (!values.dataset || !values.id) {
    process.stderr.write("usage: npx tsx sidecar/tree/trainProtoTree.ts --dataset fashion-mnist --id <id> [options]\n");
    process.exit(2);
  }
  const backend = await initBackend();
  const n = (v: string | undefined) => Number(v);
  const result = await trainProtoTree(
    {
      dataset: values.dataset,
      depth: n(values.depth),
      protoDim: n(values["proto-dim"]),
      iterations: n(values.iterations),
      batchSize: n(values.batch),
      lr: n(values.lr),
      lrBackbone: 1e-5,
      trainSize: n(values["train-size"]),
      testSize: n(values["test-size"]),
      backbone: values.backbone ?? "",
      layer: (values.layer ?? "") as BackboneLayer | "",
      freezeBackbone: !values["fine-tune"],
      pruningThreshold: n(values["pruning-threshold"]),
      testEvery: n(values["test-every"]),
      seed: n(values.seed),
      ddp: n(values.ddp),
      command: `npx tsx sidecar/tree/trainProtoTree.ts ${process.argv.slice(2).join(" ")}`,
    },
    (e) => {
      if (e.kind === "log") process.stderr.write(`${e.text}\n`);
      else if (e.kind === "stage") process.stderr.write(`[${e.name} ${e.state}] ${e.at}\n`);
    },
  );
  const id = savePlatformTree(result.tree, values.id, values.out);
  process.stderr.write(
    `wrote ${id} on ${backend.name}: test accuracy ${(result.testAccuracy * 100).toFixed(2)} % (greedy ${(result.greedyAccuracy * 100).toFixed(2)} %, before pruning ${(result.testAccuracyBeforePruning * 100).toFixed(2)} %), CNN ${(result.cnnAccuracy * 100).toFixed(2)} %, ${result.leaves} → ${result.leavesAfterPruning} leaves, ${(result.elapsedMs / 1000).toFixed(0)} s\n`,
  );
}

if (process.argv[1]?.endsWith("sidecar/tree/trainProtoTree.ts")) {
  main().catch((err) => {
    process.stderr.write(`trainProtoTree: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  });
}
