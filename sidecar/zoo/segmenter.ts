// The zoo's segmentation network: FCN-style (Long et al. 2015) on the zoo's ResNet body
// (architectures.ts resnetBody, without its pooling and classifier). A 1×1 convolution
// scores the 7 classes on the last stage (layer4, stride 8); as in FCN-8s, 1×1 scores of
// layer3 and layer2 are added after bilinear upsampling, because at 32×32 pixels layer4
// alone is a 4×4 grid, too coarse for the objects' edges; the sum is upsampled bilinearly
// to the input size. Output: per-pixel logits [N, H, W, classes].
// Its checkpoints use the zoo's format (checkpoint.ts) with `task: "segmentation"`, in a
// folder of their own (checkpoints/segmentation/) so the classification catalogue, which
// lists the top folder, never offers a segmenter as a classifier.
import path from "node:path";
import * as tf from "@tensorflow/tfjs";
import type { ForwardOptions } from "../inference/net.ts";
import { resnetBody, type ArchConfig } from "./architectures.ts";
import { CheckpointError, checkpointDir, readCheckpoint, readManifest, type CheckpointManifest } from "./checkpoint.ts";
import { InferOps, type Ops, type WeightMap } from "./layers.ts";
import { checkForward, serveChecked, servedFields } from "./zooNet.ts";

export const SEGMENTER_ARCH = "fcn-resnet";
/** GradCAM's layer: the backbone's last convolutional stage (Captum's tutorial uses backbone.layer4). */
export const SEGMENTER_CAM_LAYER = "layer4";

export interface SegmenterManifest extends CheckpointManifest {
  task: "segmentation";
  segArch: typeof SEGMENTER_ARCH;
  /** Mean IoU over all classes (background included) on the held-out test split, in [0, 1]. */
  meanIoU: number;
  /** IoU per class on the test split, in class order. */
  perClassIoU: number[];
  /** Best validation mean IoU (the split training stopped on). */
  valMeanIoU: number;
  command: string;
}

/** Bilinear resize with torch's align_corners=False convention (half-pixel centres). */
export function upsample(x: tf.Tensor4D, size: [number, number]): tf.Tensor4D {
  if (x.shape[1] === size[0] && x.shape[2] === size[1]) return x;
  return tf.image.resizeBilinear(x, size, false, true);
}

/** The network as a function of (ops, input): per-pixel logits [N, H, W, numClasses]. */
export function segmenterForward(ops: Ops, x: tf.Tensor4D, numClasses: number, cfg: ArchConfig): tf.Tensor4D {
  const [, , l2, l3, l4] = [null, ...resnetBody(ops, x, cfg)] as [null, tf.Tensor4D, tf.Tensor4D, tf.Tensor4D, tf.Tensor4D];
  let score = ops.conv("score4", l4, numClasses, { kernel: 1 });
  score = tf.add(upsample(score, [l3.shape[1], l3.shape[2]]), ops.conv("score3", l3, numClasses, { kernel: 1 }));
  score = tf.add(upsample(score, [l2.shape[1], l2.shape[2]]), ops.conv("score2", l2, numClasses, { kernel: 1 }));
  return upsample(score, [x.shape[1], x.shape[2]]);
}

/**
 * A served segmenter: the attribution engine's view of it (segmentation/classSum.ts wraps it into a
 * Net). `M` is its manifest: the zoo's, or an imported ONNX network's (onnx/graphNet.ts ImportedSegmenter).
 */
export interface Segmenter<M extends CheckpointManifest = SegmenterManifest> {
  id: string;
  manifest: M;
  inputShape: [number, number, number];
  classNames: string[];
  layers: string[];
  defaultCamLayer: string;
  /** Per-pixel logits [N, H, W, classes]. */
  forward(x: tf.Tensor4D, opts?: ForwardOptions): tf.Tensor4D;
  trainableVariables(): tf.Variable[];
  dispose(): void;
}

export function segmenterFromWeights(manifest: SegmenterManifest, weights: WeightMap): Segmenter {
  return {
    ...servedFields(manifest, weights),
    forward(x, opts = {}) {
      checkForward(manifest, x, opts);
      return segmenterForward(new InferOps(weights, opts.relu ?? "normal", opts.tap), x, manifest.classNames.length, manifest.archConfig);
    },
  };
}

/** Where segmentation checkpoints live: SEG_CHECKPOINT_DIR, else checkpoints/segmentation under the zoo's folder. */
export function segCheckpointDir(): string {
  return process.env.SEG_CHECKPOINT_DIR ?? path.join(checkpointDir(), "segmentation");
}

export function readSegManifest(id: string, dir = segCheckpointDir()): SegmenterManifest {
  const m = readManifest(id, dir) as SegmenterManifest;
  if (m.task !== "segmentation" || m.segArch !== SEGMENTER_ARCH) throw new CheckpointError(`checkpoint "${id}" is not a segmentation network`);
  return m;
}

/** Load a segmentation checkpoint (size, checksum and one forward pass verified); throws CheckpointError. */
export function loadSegmenter(id: string, dir = segCheckpointDir()): Segmenter {
  readSegManifest(id, dir);
  const { manifest, arrays } = readCheckpoint(id, dir);
  return serveChecked(
    manifest,
    arrays,
    (weights) => segmenterFromWeights(manifest as SegmenterManifest, weights),
    (message) => `checkpoint "${id}" does not fit ${SEGMENTER_ARCH}: ${message}`,
  );
}

/** Per-pixel argmax of logits [1, H, W, K] → H × W class ids. */
export function argmaxMask(logits: tf.Tensor4D): Uint8Array {
  return tf.tidy(() => Uint8Array.from(tf.argMax(logits, 3).dataSync()));
}

/** Accumulates a confusion matrix (truth × prediction) and reads IoU from it. */
export class IoUMeter {
  readonly confusion: Float64Array;
  constructor(readonly numClasses: number) {
    this.confusion = new Float64Array(numClasses * numClasses);
  }
  add(truth: ArrayLike<number>, pred: ArrayLike<number>): void {
    for (let i = 0; i < truth.length; i++) this.confusion[truth[i] * this.numClasses + pred[i]]++;
  }
  /** IoU per class: TP / (TP + FP + FN); NaN for a class absent from both truth and prediction. */
  perClass(): number[] {
    const k = this.numClasses;
    return Array.from({ length: k }, (_, c) => {
      let row = 0,
        col = 0;
      for (let j = 0; j < k; j++) {
        row += this.confusion[c * k + j];
        col += this.confusion[j * k + c];
      }
      const tp = this.confusion[c * k + c];
      const union = row + col - tp;
      return union > 0 ? tp / union : NaN;
    });
  }
  /** Mean over the classes that occur (VOC's mean IoU). */
  mean(): number {
    const v = this.perClass().filter((x) => !Number.isNaN(x));
    return v.length ? v.reduce((a, b) => a + b, 0) / v.length : 0;
  }
  pixelAccuracy(): number {
    let tp = 0,
      all = 0;
    for (let c = 0; c < this.numClasses; c++) tp += this.confusion[c * this.numClasses + c];
    for (const v of this.confusion) all += v;
    return all ? tp / all : 0;
  }
}
