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
import { parseArgs } from "node:util";
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../inference/runtime/backend.ts";
import type { DatasetSplits, ImageDataset } from "../data/dataset.ts";
import { encodePng, type FloatImage } from "../data/png.ts";
import { savePlatformTree } from "./checkpoint.ts";
import { DataParallelStep } from "./dataParallel.ts";
import { FeatureCache, imageRows, imagesOf } from "./treeBatches.ts";
import { patchCrop, projectPrototypes } from "./projection.ts";
import { backboneCnnAccuracy, loadTaskData, newTree, type TaskData } from "./protoTreeSetup.ts";
import {
  addOn,
  greedyPath,
  leafDistribution,
  nodesOf,
  numPrototypesOf,
  patchBox,
  patchDistances,
  pruneStructure,
  similaritiesFromDistances,
  softProbabilities,
  type BackboneLayer,
  type ProtoTree,
  type TreeManifest,
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

/** Stage weights of the whole task's progress (training dominates). */
const STAGE_SPAN: Record<StageName, [number, number]> = {
  data: [0, 0.05],
  training: [0.05, 0.85],
  pruning: [0.85, 0.87],
  projection: [0.87, 0.97],
  visualisation: [0.97, 1],
};

/** The trained tree and the figures its manifest records (unrounded here). */
export type TrainResult = { tree: ProtoTree; elapsedMs: number } & Pick<
  TreeManifest,
  "testAccuracy" | "greedyAccuracy" | "testAccuracyBeforePruning" | "cnnAccuracy" | "leaves" | "leavesAfterPruning"
>;

export async function trainProtoTree(opts: ProtoTreeTrainOptions, emit: (e: TrainProgressEvent) => void, signal?: AbortSignal): Promise<TrainResult> {
  // The replicas start now, so their backends load while this thread reads the data.
  const dp = new DataParallelStep(Math.max(1, Math.floor(opts.ddp || 1)));
  try {
    return await train(opts, dp, emit, signal);
  } finally {
    await dp.close();
  }
}

/** The task's events: the stage it is in, its progress over the whole task (STAGE_SPAN) and its log. */
class Reporter {
  progress = 0;
  constructor(readonly emit: (e: TrainProgressEvent) => void) {}
  at(stage: StageName, frac: number): void {
    this.progress = STAGE_SPAN[stage][0] + (STAGE_SPAN[stage][1] - STAGE_SPAN[stage][0]) * Math.min(1, Math.max(0, frac));
  }
  log(text: string): void {
    this.emit({ kind: "log", text, progress: this.progress });
  }
  stage(name: StageName, state: "running" | "done"): void {
    this.at(name, state === "done" ? 1 : 0);
    this.emit({ kind: "stage", name, state, at: new Date().toISOString(), progress: this.progress });
  }
}

/** The tree's view of the task's subsets: backbone features (cached when frozen), similarities and test accuracy. */
class TreeSubsets {
  readonly trainCache: FeatureCache;
  readonly testCache: FeatureCache;
  constructor(
    private task: TaskData,
    private tree: ProtoTree,
    private freezeBackbone: boolean,
    private check: () => void,
  ) {
    this.trainCache = new FeatureCache(task.data.train, task.trainIdx);
    this.testCache = new FeatureCache(task.data.test, task.testIdx);
    if (freezeBackbone) {
      this.trainCache.fill((x) => tree.backbone.forward(x), check);
      this.testCache.fill((x) => tree.backbone.forward(x), check);
    }
  }
  /** Backbone features of positions in the training subset, cached or computed (trainable when fine-tuning). */
  trainFeatures(pos: ArrayLike<number>): tf.Tensor4D {
    return this.featuresOf(this.trainCache, this.task.data.train, this.task.trainIdx, pos);
  }
  testFeatures(pos: ArrayLike<number>): tf.Tensor4D {
    return this.featuresOf(this.testCache, this.task.data.test, this.task.testIdx, pos);
  }
  private featuresOf(cache: FeatureCache, ds: ImageDataset, indices: Int32Array, pos: ArrayLike<number>): tf.Tensor4D {
    return this.freezeBackbone
      ? cache.batch(pos)
      : this.tree.backbone.forward(
          imagesOf(
            ds,
            Array.from(pos, (p) => indices[p]),
          ),
          false,
        );
  }
  /** Similarities [n, P] of test positions `pos`. */
  testSimilarities(pos: number[]): Float32Array {
    return tf.tidy(() =>
      similaritiesFromDistances(patchDistances(addOn(this.tree, this.testFeatures(pos)), this.tree.prototypes as tf.Tensor2D)).sims.dataSync(),
    ) as Float32Array;
  }
  /** Soft and greedy accuracy of a structure of the tree on the test subset. */
  evaluate(structure: TreeStructure): { soft: number; greedy: number } {
    const { data, testIdx } = this.task;
    const C = this.task.numClasses;
    const P = this.tree.numPrototypes;
    const n = testIdx.length;
    const sims = new Float32Array(n * P);
    for (let s = 0; s < n; s += 128) {
      this.check();
      const pos = Array.from({ length: Math.min(128, n - s) }, (_, i) => s + i);
      sims.set(this.testSimilarities(pos), s * P);
    }
    const probs = softProbabilities(this.tree, sims, n, structure);
    let soft = 0,
      greedy = 0;
    for (let i = 0; i < n; i++) {
      const y = data.test.labels[testIdx[i]];
      let m = 0;
      for (let j = 1; j < C; j++) if (probs[i * C + j] > probs[i * C + m]) m = j;
      if (m === y) soft++;
      if (greedyPath(this.tree, sims, structure, i).predicted === y) greedy++;
    }
    return { soft: soft / n, greedy: greedy / n };
  }
}

async function train(opts: ProtoTreeTrainOptions, dp: DataParallelStep, emit: (e: TrainProgressEvent) => void, signal?: AbortSignal): Promise<TrainResult> {
  const t0 = Date.now();
  const report = new Reporter(emit);
  const check = () => {
    if (signal?.aborted) throw new TrainCancelledError();
  };

  report.stage("data", "running");
  const task = loadTaskData(opts, (text) => report.log(text), check);
  const { info, trainIdx, testIdx, backboneId, layer } = task;
  report.log(
    `ProtoTree on ${info.name}: ${trainIdx.length} training / ${testIdx.length} test images, ${task.numClasses} classes; backbone ${backboneId} up to ${layer}` +
      ` (${opts.freezeBackbone ? "frozen" : "fine-tuned"}), depth ${opts.depth} (${numPrototypesOf(opts.depth)} prototypes, ${2 ** opts.depth} leaves), prototype dimension ${opts.protoDim}, on ${tf.getBackend()}; training ${onWorkers(dp.workers)}`,
  );
  const cnnAccuracy = backboneCnnAccuracy(task, opts, (text) => report.log(text));
  const { tree, bbWeights } = newTree(task, opts, cnnAccuracy, tf.getBackend());
  const subsets = new TreeSubsets(task, tree, opts.freezeBackbone, check);
  report.stage("data", "done");

  report.stage("training", "running");
  const testAccuracyBeforePruning = await trainingSteps(task, tree, [...bbWeights.values()], subsets, opts, dp, report, check);
  report.stage("training", "done");

  report.stage("pruning", "running");
  const leavesAfterPruning = prune(tree, subsets, report);
  report.stage("pruning", "done");

  report.stage("projection", "running");
  projectPrototypes(
    tree,
    (pos) => subsets.trainFeatures(pos),
    trainIdx,
    task.data.train.labels,
    check,
    (f) => report.at("projection", f),
  );
  const final = subsets.evaluate(tree.pruned);
  report.log(
    `projection: each prototype replaced by its nearest training patch; test accuracy ${(final.soft * 100).toFixed(2)} % (greedy routing ${(final.greedy * 100).toFixed(2)} %)`,
  );
  report.stage("projection", "done");

  report.stage("visualisation", "running");
  emitPrototypes(tree, task.data, opts.iterations, report);
  report.stage("visualisation", "done");

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
    leaves: tree.numLeaves,
    leavesAfterPruning,
    elapsedMs: Date.now() - t0,
  };
}

const onWorkers = (workers: number) => (workers === 1 ? "on 1 worker thread" : `on ${workers} worker threads (data parallel)`);

/**
 * The "training" stage: `opts.iterations` gradient steps over mini-batches of the training subset
 * (reshuffled every epoch), each followed by the derivative-free leaf update (train.py
 * train_epoch), testing every `opts.testEvery` steps. Returns the last test accuracy.
 */
async function trainingSteps(
  task: TaskData,
  tree: ProtoTree,
  bbVars: tf.Variable[],
  subsets: TreeSubsets,
  opts: ProtoTreeTrainOptions,
  dp: DataParallelStep,
  report: Reporter,
  check: () => void,
): Promise<number> {
  const { data, trainIdx, rng } = task;
  const workers = dp.workers;
  dp.init(
    {
      depth: opts.depth,
      numClasses: task.numClasses,
      addOnKernel: tree.addOnKernel,
      addOnBias: tree.addOnBias,
      prototypes: tree.prototypes,
      backbone: opts.freezeBackbone ? null : tree.backbone,
      backboneVars: opts.freezeBackbone ? [] : bbVars,
    },
    opts.lr,
    opts.lrBackbone,
  );
  if (workers > 1) {
    await dp.ready();
    report.log(
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
      ? subsets.trainCache.rows(pos)
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
    report.at("training", it / opts.iterations);
    if (it % opts.testEvery === 0 || it === opts.iterations) {
      testAccuracy = subsets.evaluate(tree.full).soft;
      report.log(
        `iteration ${it}/${opts.iterations} (${workers === 1 ? "1 worker" : `${workers} workers`}): loss ${loss.toFixed(4)}, batch accuracy ${((correct / labels.length) * 100).toFixed(1)} %, test accuracy ${(testAccuracy * 100).toFixed(2)} %`,
      );
      emitSamples(task, tree, subsets, it, report);
    }
    testAccuracyBeforePruning = Number.isNaN(testAccuracy) ? testAccuracyBeforePruning : testAccuracy;
    report.emit({ kind: "scalar", iteration: it, loss, trainAccuracy: correct / labels.length, testAccuracy, progress: report.progress });
  }
  await dp.close();
  report.log(
    `training: ${opts.iterations} steps ${onWorkers(workers)} in ${((Date.now() - trainStart) / 1000).toFixed(1)} s; the steps alone ${(stepMs / 1000).toFixed(1)} s, ${(opts.iterations / Math.max(stepMs / 1000, 1e-3)).toFixed(2)} steps/s`,
  );
  return testAccuracyBeforePruning;
}

/** A few test images with the tree's greedy prediction (the task page's images as training goes). */
function emitSamples(task: TaskData, tree: ProtoTree, subsets: TreeSubsets, iteration: number, report: Reporter): void {
  const { data, testIdx } = task;
  const [H, W, Ch] = task.inputShape;
  const n = Math.min(3, testIdx.length);
  const sims = subsets.testSimilarities(Array.from({ length: n }, (_, i) => i));
  for (let i = 0; i < n; i++) {
    const g = greedyPath(tree, sims, tree.full, i);
    const idx = testIdx[i];
    const img: FloatImage = { height: H, width: W, channels: Ch, data: data.test.images.subarray(idx * H * W * Ch, (idx + 1) * H * W * Ch) as Float32Array };
    report.emit({
      kind: "image",
      name: `sample-${idx}`,
      iteration,
      png: encodePng(img),
      caption: `test image ${idx} (${data.test.classNames[data.test.labels[idx]]}): the tree routes it to leaf ${g.leaf} and predicts ${data.test.classNames[g.predicted]}`,
      progress: report.progress,
    });
  }
}

/** The "pruning" stage: leaves that decide nothing are cut (prune.py); returns the leaves left. */
function prune(tree: ProtoTree, subsets: TreeSubsets, report: Reporter): number {
  const threshold = tree.manifest.pruningThreshold;
  const { pruned } = pruneStructure(tree.full, (leaf) => Math.max(...leafDistribution(tree, leaf)), threshold);
  tree.pruned = pruned;
  const leavesAfterPruning = nodesOf(pruned).filter((n) => !pruned.children.has(n.node)).length;
  const prunedAcc = subsets.evaluate(pruned);
  report.log(
    `pruning (leaves with every class probability ≤ ${threshold.toFixed(4)}): ${tree.numLeaves} → ${leavesAfterPruning} leaves; test accuracy ${(prunedAcc.soft * 100).toFixed(2)} %`,
  );
  return leavesAfterPruning;
}

/** The "visualisation" stage: the patch each of the first 15 internal nodes' prototype was projected onto. */
function emitPrototypes(tree: ProtoTree, data: DatasetSplits, iteration: number, report: Reporter): void {
  const pruned = tree.pruned;
  const shown = nodesOf(pruned)
    .filter((n) => pruned.children.has(n.node))
    .slice(0, 15);
  for (const { node } of shown) {
    const pr = tree.projections[node];
    if (!pr) continue;
    const png = encodePng(patchCrop(data.train, pr.sample, patchBox(tree, pr.row, pr.col)));
    report.emit({
      kind: "image",
      name: `prototype-${node}`,
      iteration,
      png,
      caption: `prototype of node ${node}: patch (${pr.row}, ${pr.col}) of training image ${pr.sample} (${data.train.classNames[pr.label]})`,
      progress: report.progress,
    });
  }
}

const round4 = (v: number) => (Number.isFinite(v) ? Math.round(v * 10000) / 10000 : v);

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
