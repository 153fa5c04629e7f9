// SeBoW with a feature net in front of its stem (sidecar/tree/sebow.ts SebowBackbone, docs/sebow.md
// "The committed model"): the zoo's ResNet body cut at a stage, its weights carried as `bb/…`.
// Training reads features computed once (fromFeatures); serving, DI's input gradients and SPI run
// on images. Both must be the same network: forward passes from images and from the precomputed
// features agree, the tree keeps its own copy of the feature net, and a gradient reaches the pixels
// through it.
import * as tf from "@tensorflow/tfjs";
import { beforeAll, describe, expect, it } from "vitest";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { readCheckpoint } from "../../sidecar/zoo/checkpoint.ts";
import {
  BACKBONE_PREFIX,
  backboneFeatures,
  deriveTree,
  initSearchSpace,
  initTreeWeights,
  searchSpaceForward,
  stemInputChannels,
  treeForward,
  type SebowConfig,
  type Weights,
} from "../../sidecar/tree/sebow.ts";

let cfg: SebowConfig;
let ss: Weights;

beforeAll(async () => {
  await initBackend("wasm");
  const zoo = readCheckpoint("resnet-scenes-v2");
  cfg = {
    inputShape: [32, 32, 3],
    numClasses: 6,
    stemWidth: 8,
    widths: [8, 8],
    groups: 2,
    backbone: {
      checkpoint: "resnet-scenes-v2",
      arch: "resnet",
      archConfig: zoo.manifest.archConfig,
      layer: "layer3",
      channels: 32,
      weightsSha256: zoo.manifest.weightsSha256,
    },
  };
  ss = initSearchSpace(cfg, 3);
  for (const a of zoo.arrays) ss.set(`${BACKBONE_PREFIX}${a.name}`, tf.variable(tf.tensor(a.data, a.shape), true));
});

describe("SeBoW with a feature net", () => {
  it("reads the stage's features: the stem takes its channels, images and precomputed features give the same output", () => {
    expect(stemInputChannels(cfg)).toBe(32);
    expect(ss.get("stem/kernel")!.shape).toEqual([3, 3, 32, 8]);
    const x = tf.randomUniform([3, 32, 32, 3], 0, 1, "float32", 5) as tf.Tensor4D;
    const f = backboneFeatures(cfg.backbone!, ss, x);
    expect(f.shape).toEqual([3, 8, 8, 32]);
    const fromImages = searchSpaceForward(cfg, ss, x).probs.arraySync();
    const fromFeatures = searchSpaceForward(cfg, ss, f, false, true).probs.arraySync();
    for (let i = 0; i < 3; i++) for (let c = 0; c < 6; c++) expect(fromImages[i][c]).toBeCloseTo(fromFeatures[i][c], 5);

    const tree = {
      ...deriveTree(
        [
          [[0.5, 0.5]],
          [
            [0.6, 0.4],
            [0.4, 0.6],
          ],
        ],
        { threshold: 0.3, maxChildren: 2, maxLeaves: 4 },
      ),
      backbone: cfg.backbone,
    };
    const tw = initTreeWeights(cfg, tree, ss);
    // The tree's own copy of every feature-net weight (fine-tuned separately from the search space's).
    const bb = [...ss.keys()].filter((k) => k.startsWith(BACKBONE_PREFIX));
    expect(bb.length).toBeGreaterThan(10);
    for (const k of bb) expect(tw.get(k)).not.toBe(ss.get(k));
    const a = treeForward(tree, tw, x).probs.arraySync();
    const b = treeForward(tree, tw, f, false, true).probs.arraySync();
    for (let i = 0; i < 3; i++) for (let c = 0; c < 6; c++) expect(a[i][c]).toBeCloseTo(b[i][c], 5);
    tf.dispose([x, f]);
  });

  it("passes DI's gradient through the feature net to the pixels", () => {
    const x = tf.randomUniform([1, 32, 32, 3], 0, 1, "float32", 9) as tf.Tensor4D;
    const g = tf.grad((img: tf.Tensor) => tf.sum(tf.log(searchSpaceForward(cfg, ss, img as tf.Tensor4D).routing[0][0])))(x);
    expect(g.shape).toEqual([1, 32, 32, 3]);
    expect(tf.max(tf.abs(g)).dataSync()[0]).toBeGreaterThan(0);
    tf.dispose([x, g]);
  });
});
