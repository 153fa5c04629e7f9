// The "data" stage of a ProtoTree training (trainProtoTree.ts): the task's dataset and zoo backbone
// read and checked against each other, the backbone CNN's own accuracy for comparison, and the
// untrained tree over that backbone.
import fs from "node:fs";
import path from "node:path";
import * as tf from "@tensorflow/tfjs";
import type { DatasetSplits } from "../data/dataset.ts";
import { Rng } from "../data/prng.ts";
import { readCheckpoint, CHECKPOINT_DIR as ZOO_DIR, type CheckpointManifest } from "../zoo/checkpoint.ts";
import { loadZooNet } from "../zoo/zooNet.ts";
import type { WeightMap } from "../zoo/layers.ts";
import { TrainArgError } from "./trainErrors.ts";
import { treeDatasets, loadTreeDataset, type TreeDatasetInfo } from "./treeDatasets.ts";
import { imagesOf } from "./treeBatches.ts";
import { PROTOTREE_CATEGORY, completeTree, initialTreeWeights, makeBackbone, numPrototypesOf, type BackboneLayer, type ProtoTree } from "./protoTree.ts";
import type { ProtoTreeTrainOptions } from "./trainProtoTree.ts";

/** grpc.status.INVALID_ARGUMENT (the trainer stays free of the gRPC package). */
const INVALID_ARGUMENT = 3;

/**
 * The reference prunes leaves whose largest class probability is ≤ 0.01 (util/args.py
 * pruning_threshold_leaves) on 200-class CUB, where a uniform leaf has 0.005. With 10 classes no
 * leaf can be below 0.1, so 0.01 would never prune; ≤ 0 here means that setting scaled to the
 * class count: 2 / C (= 0.01 at C = 200): a leaf at most twice as sure as a uniform guess decides nothing.
 */
export function pruningThresholdFor(threshold: number, numClasses: number): number {
  return threshold > 0 ? threshold : 2 / numClasses;
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

/** The task's data and backbone, checked against each other (the "data" stage). */
export interface TaskData {
  info: TreeDatasetInfo;
  data: DatasetSplits;
  rng: Rng;
  /** The training subset (a seeded permutation of the split) and the test subset (its first images). */
  trainIdx: Int32Array;
  testIdx: Int32Array;
  numClasses: number;
  backboneId: string;
  zoo: ReturnType<typeof readCheckpoint>;
  layer: BackboneLayer;
  inputShape: [number, number, number];
}

export function loadTaskData(opts: ProtoTreeTrainOptions, log: (text: string) => void, check: () => void): TaskData {
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
  return { info, data, rng, trainIdx, testIdx, numClasses: C, backboneId, zoo, layer, inputShape: [H, W, Ch] };
}

/** The plain CNN's accuracy on the same test split (the comparison the task and tree pages show); NaN when it was trained on other data. */
export function backboneCnnAccuracy(task: TaskData, opts: ProtoTreeTrainOptions, log: (text: string) => void): number {
  const { data, testIdx, backboneId } = task;
  if (task.zoo.manifest.dataset !== opts.dataset) return NaN;
  const net = loadZooNet(backboneId, process.env.CHECKPOINT_DIR ?? ZOO_DIR);
  let correct = 0;
  for (let s = 0; s < testIdx.length; s += 250) {
    const idx = testIdx.subarray(s, Math.min(testIdx.length, s + 250));
    const pred = tf.tidy(() => tf.argMax(net.forward(imagesOf(data.test, idx)), 1).dataSync());
    for (let i = 0; i < idx.length; i++) if (pred[i] === data.test.labels[idx[i]]) correct++;
  }
  net.dispose();
  const accuracy = correct / testIdx.length;
  log(`backbone CNN accuracy on these ${testIdx.length} test images: ${(accuracy * 100).toFixed(2)} %`);
  return accuracy;
}

/** The untrained tree over the zoo backbone (trainable when fine-tuned): its manifest so far and its initial weights. */
export function newTree(task: TaskData, opts: ProtoTreeTrainOptions, cnnAccuracy: number, backendName: string): { tree: ProtoTree; bbWeights: WeightMap } {
  const { zoo, layer, numClasses: C, inputShape } = task;
  const bbWeights: WeightMap = new Map();
  for (const a of zoo.arrays) bbWeights.set(a.name, tf.variable(tf.tensor(a.data, a.shape), !opts.freezeBackbone));
  const backbone = makeBackbone(bbWeights, zoo.manifest.archConfig, layer);
  const latentShape = tf.tidy(() => backbone.forward(tf.zeros([1, ...inputShape]) as tf.Tensor4D).shape);
  const channels = latentShape[3];
  const init = initialTreeWeights(task.rng, opts.depth, channels, opts.protoDim, C);
  const P = numPrototypesOf(opts.depth);
  const L = P + 1;
  const tree: ProtoTree = {
    manifest: {
      format: "metarank-prototree/1",
      category: PROTOTREE_CATEGORY,
      name: "",
      owner: "",
      dataset: opts.dataset,
      datasetName: task.info.name,
      classNames: task.data.train.classNames,
      inputShape,
      depth: opts.depth,
      protoDim: opts.protoDim,
      backbone: {
        checkpoint: task.backboneId,
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
      trainSize: task.trainIdx.length,
      testSize: task.testIdx.length,
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
  return { tree, bbWeights };
}
