// The tree models the pages serve are committed artefacts (sidecar/tree/checkpoints/, recipes and
// curves in sidecar/zoo/README.md "Tree models"). Each must be within 5 points of the platform's
// best classifier on its data (Fashion-MNIST ≥ 87.5 %, scenes ≥ 91 %). The manifests claim it; a
// slice of the same held-out images (the first 200 of the test split) re-measured here agrees with
// the claim, so a checkpoint that no longer matches its figure fails.
import * as tf from "@tensorflow/tfjs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { openTreeDir, platformTreeDir } from "../../sidecar/tree/checkpoint.ts";
import { latent, patchDistances, similaritiesFromDistances, softProbabilities } from "../../sidecar/tree/protoTree.ts";
import { readFashionMnistSplit } from "../../sidecar/data/fashionMnist.ts";
import { generateScenesSplit } from "../../sidecar/data/scenes.ts";
import { imagesOf } from "../../sidecar/tree/treeBatches.ts";
import { loadSebow, sebowCheckpointDir } from "../../sidecar/tree/sebowCheckpoint.ts";
import { evaluate as sebowAccuracy } from "../../sidecar/tree/sebowData.ts";
import { treeForward } from "../../sidecar/tree/sebow.ts";

const SLICE = 200;

beforeAll(async () => {
  await initBackend("wasm");
});

/** Soft accuracy of a committed ProtoTree on the first `n` test images (its served, pruned tree). */
function protoTreeAccuracy(id: string, n: number): { accuracy: number; claimed: number } {
  const tree = openTreeDir(path.join(platformTreeDir(), id), id);
  // The test split alone (the whole of Fashion-MNIST's training split is not needed here).
  const test = tree.manifest.dataset === "scenes" ? generateScenesSplit("test", n) : readFashionMnistSplit("test");
  const data = { test };
  const idx = Int32Array.from({ length: n }, (_, i) => i);
  const sims = tf.tidy(
    () => similaritiesFromDistances(patchDistances(latent(tree, imagesOf(data.test, idx)), tree.prototypes as tf.Tensor2D)).sims.dataSync() as Float32Array,
  );
  const probs = softProbabilities(tree, sims, n, tree.pruned);
  const C = tree.numClasses;
  let right = 0;
  for (let i = 0; i < n; i++) {
    let m = 0;
    for (let j = 1; j < C; j++) if (probs[i * C + j] > probs[i * C + m]) m = j;
    if (m === data.test.labels[i]) right++;
  }
  return { accuracy: right / n, claimed: tree.manifest.testAccuracy };
}

describe("the committed tree models", () => {
  it.each([
    ["prototree-fashion-mnist", 0.875],
    ["prototree-scenes", 0.91],
  ] as const)("%s: its held-out accuracy reaches the target and a slice re-measures it", (id, target) => {
    const { accuracy, claimed } = protoTreeAccuracy(id, SLICE);
    expect(claimed).toBeGreaterThanOrEqual(target);
    // 200 images: the sampling error is about ±2 points.
    expect(Math.abs(accuracy - claimed)).toBeLessThan(0.06);
  });

  it("sebow-scenes: the derived tree reaches the target and a slice re-measures it", () => {
    const m = loadSebow(path.join(sebowCheckpointDir(), "sebow-scenes"));
    try {
      expect(m.manifest.treeAccuracy).toBeGreaterThanOrEqual(0.91);
      // A tree, not a single path: DI has decisions to explain.
      expect(m.manifest.leaves).toBeGreaterThanOrEqual(2);
      const accuracy = sebowAccuracy((x) => treeForward(m.manifest.tree, m.tree, x).probs, generateScenesSplit("test", SLICE));
      expect(Math.abs(accuracy - m.manifest.treeAccuracy)).toBeLessThan(0.06);
    } finally {
      m.dispose();
    }
  });
});
