// The ProtoTree's maths (sidecar/tree/protoTree.ts) on trees small enough to compute by hand:
// distances and similarities, soft routing, greedy routing, the derivative-free leaf update,
// pruning (prune.py's rule) and projection (project.py's class-constrained nearest patch).
import { beforeAll, describe, expect, it } from "vitest";
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { Rng } from "../../sidecar/data/prng.ts";
import {
  completeTree,
  forward,
  greedyPath,
  leafDistribution,
  leafPathProbabilities,
  leafUpdate,
  leavesBelow,
  nodesOf,
  patchDistances,
  pruneStructure,
  similaritiesFromDistances,
  softProbabilities,
  type Backbone,
  type ProtoTree,
} from "../../sidecar/tree/protoTree.ts";
import { projectPrototypes } from "../../sidecar/tree/projection.ts";

beforeAll(async () => {
  await initBackend("wasm");
});

const LN3 = Math.log(3);

/**
 * Depth 2 (internal nodes 0, 1, 2; leaves 3, 4, 5, 6), 2 classes, one image whose latent grid is
 * 1×2 with D = 2: patches z0 = (0, 0), z1 = (1, 0).
 * Prototypes: p0 = (1, 1): distances √2, 1 → min 1 at patch 1, s0 = e^−1 = 0.367879
 *             p1 = (0, 0.5): 0.5, √1.25 → min 0.5 at patch 0, s1 = e^−0.5 = 0.606531
 *             p2 = (3, 0): 3, 2 → min 2 at patch 1, s2 = e^−2 = 0.135335
 * Leaf path probabilities (right child gets s, left 1 − s):
 *   leaf 3 = (1−s0)(1−s1) = 0.248720, leaf 4 = (1−s0)s1 = 0.383400,
 *   leaf 5 = s0(1−s2) = 0.318092,     leaf 6 = s0·s2 = 0.049787
 * Leaf logits [0,0], [ln3,0], [0,ln3], [0,0] → distributions (.5,.5), (.75,.25), (.25,.75), (.5,.5)
 * ŷ0 = .248720·.5 + .383400·.75 + .318092·.25 + .049787·.5 = 0.516327, ŷ1 = 0.483673
 * Greedy: s0 < .5 → left to node 1; s1 > .5 → right → leaf 4 → class 0.
 */
const Z = [0, 0, 1, 0];
const PROTOS = [1, 1, 0, 0.5, 3, 0];
const LOGITS = Float32Array.from([0, 0, LN3, 0, 0, LN3, 0, 0]);
const small = { leafLogits: LOGITS, numClasses: 2, numPrototypes: 3 };

describe("routing on a hand-computed depth-2 tree", () => {
  it("distances, similarities and argmin patches", () => {
    const { minDist, sims, argmin } = tf.tidy(() => {
      const d = patchDistances(tf.tensor4d(Z, [1, 1, 2, 2]), tf.tensor2d(PROTOS, [3, 2]));
      const s = similaritiesFromDistances(d);
      return { minDist: s.minDist.arraySync()[0], sims: s.sims.arraySync()[0], argmin: tf.argMin(d, 1).arraySync() as number[][] };
    });
    expect(minDist[0]).toBeCloseTo(1, 5);
    expect(minDist[1]).toBeCloseTo(0.5, 5);
    expect(minDist[2]).toBeCloseTo(2, 5);
    expect(sims[0]).toBeCloseTo(0.367879, 5);
    expect(sims[1]).toBeCloseTo(0.606531, 5);
    expect(sims[2]).toBeCloseTo(0.135335, 5);
    expect(argmin[0]).toEqual([1, 0, 1]);
  });

  it("leaf path probabilities, soft prediction and greedy path", () => {
    const sims = Float32Array.from([Math.exp(-1), Math.exp(-0.5), Math.exp(-2)]);
    const pa = tf.tidy(() => leafPathProbabilities(tf.tensor2d(sims, [1, 3]), 2).arraySync()[0]);
    [0.24872, 0.3834, 0.318092, 0.049787].forEach((v, i) => expect(pa[i]).toBeCloseTo(v, 5));
    expect(Array.from(leafDistribution(small, 4))).toEqual([expect.closeTo(0.75, 6), expect.closeTo(0.25, 6)]);
    const probs = softProbabilities(small, sims, 1, completeTree(2));
    expect(probs[0]).toBeCloseTo(0.516327, 5);
    expect(probs[1]).toBeCloseTo(0.483673, 5);
    const g = greedyPath(small, sims, completeTree(2));
    expect(g).toEqual({ nodes: [0, 1], directions: ["left", "right"], leaf: 4, predicted: 0 });
  });

  it("the derivative-free leaf update (train.py)", () => {
    // Label 0; each leaf gets pa·dist₀/ŷ0 in class 0: leaf 3 .124360/.516327 = 0.240855,
    // leaf 4 .287550/.516327 = 0.556915, leaf 5 .079523/.516327 = 0.154017, leaf 6 .024894/.516327 = 0.048213
    // (they sum to 1: the image's unit of evidence is shared by the leaves that explain it).
    const pa = Float32Array.from([0.24872006, 0.3834005, 0.31809237, 0.04978707]);
    const yPred = Float32Array.from([0.51632703, 0.48367297]);
    // One batch per epoch: the epoch-start logits are removed entirely, leaving the update.
    const logits = Float32Array.from(LOGITS);
    leafUpdate(logits, Float32Array.from(LOGITS), 1, pa, [0], yPred, 2);
    [0.240855, 0, 0.556915, 0, 0.154017, 0, 0.048213, 0].forEach((v, i) => expect(logits[i]).toBeCloseTo(v, 5));
    // Two batches per epoch: half the epoch-start logits stay: leaf 4 class 0 = ln3/2 + 0.556915 = 1.106221,
    // leaf 5 class 1 = ln3/2 = 0.549306 (no class-1 evidence in this batch).
    const half = Float32Array.from(LOGITS);
    leafUpdate(half, Float32Array.from(LOGITS), 2, pa, [0], yPred, 2);
    expect(half[2]).toBeCloseTo(1.106221, 5);
    expect(half[5]).toBeCloseTo(0.549306, 5);
    expect(half[0]).toBeCloseTo(0.240855, 5);
  });

  it("forward() agrees with a brute-force computation through the add-on layer", () => {
    // Identity backbone and add-on kernel: the latent is sigmoid(x).
    const rng = new Rng(7);
    const B = 3,
      h = 2,
      w = 2,
      D = 3,
      depth = 2;
    const x = Float32Array.from({ length: B * h * w * D }, () => rng.normal());
    const protos = Float32Array.from({ length: 3 * D }, () => rng.float());
    const tree = identityTree(
      depth,
      D,
      protos,
      Float32Array.from({ length: 4 * 2 }, () => rng.normal()),
    );
    const input = tf.tensor4d(x, [B, h, w, D]);
    const out = forward(tree, input, tree.full);
    input.dispose();
    for (let b = 0; b < B; b++)
      for (let p = 0; p < 3; p++) {
        let best = Infinity,
          arg = -1;
        for (let q = 0; q < h * w; q++) {
          let d2 = 0;
          for (let c = 0; c < D; c++) d2 += (1 / (1 + Math.exp(-x[(b * h * w + q) * D + c])) - protos[p * D + c]) ** 2;
          if (Math.sqrt(d2) < best) [best, arg] = [Math.sqrt(d2), q];
        }
        expect(out.minDist[b * 3 + p]).toBeCloseTo(best, 4);
        expect(out.sims[b * 3 + p]).toBeCloseTo(Math.exp(-best), 4);
        expect(out.argmin[b * 3 + p]).toBe(arg);
      }
    for (let b = 0; b < B; b++) expect(out.probs[b * 2] + out.probs[b * 2 + 1]).toBeCloseTo(1, 5);
    tree.prototypes.dispose();
  });
});

function identityTree(depth: number, D: number, protos: Float32Array, leafLogits: Float32Array): ProtoTree {
  const P = 2 ** depth - 1;
  const backbone: Backbone = { weights: new Map(), config: { width: 1, stemStride: 1 }, layer: "layer1", forward: (x) => x };
  const eye = new Float32Array(D * D);
  for (let i = 0; i < D; i++) eye[i * D + i] = 1;
  return {
    manifest: { protoDim: D, inputShape: [2, 2, D], latentShape: [2, 2] } as ProtoTree["manifest"],
    depth,
    numClasses: leafLogits.length / (P + 1),
    numPrototypes: P,
    numLeaves: P + 1,
    backbone,
    addOnKernel: tf.variable(tf.tensor4d(eye, [1, 1, D, D])),
    addOnBias: tf.variable(tf.zeros([D])),
    prototypes: tf.variable(tf.tensor2d(protos, [P, D])),
    leafLogits,
    full: completeTree(depth),
    pruned: completeTree(depth),
    projections: new Array(P).fill(null),
  };
}

describe("pruning (prune.py)", () => {
  const maxOf = (logits: Float32Array, C: number, P: number) => (leaf: number) =>
    Math.max(...leafDistribution({ leafLogits: logits, numClasses: C, numPrototypes: P }, leaf));

  it("removes a non-deciding leaf with its parent; the sibling takes the parent's place", () => {
    // Depth 3: internal 0..6, leaves 7..14, 2 classes, τ = 0.6. Leaf 7 is uniform (max .5 ≤ .6):
    // its parent 3 is removed and leaf 8 hangs under node 1. Leaves 13 and 14 are both uniform:
    // node 6 is prunable (all its leaves ≤ τ), so 13 and 14 are not pruned on their own; node 6 is
    // removed with its parent 2, whose place under the root its sibling 5 takes.
    const logits = new Float32Array(8 * 2).fill(0);
    for (const leaf of [8, 9, 10, 11, 12]) logits[(leaf - 7) * 2] = 2; // max e²/(e²+1) = 0.88
    const { pruned } = pruneStructure(completeTree(3), maxOf(logits, 2, 7), 0.6);
    expect(pruned.children.get(0)).toEqual([1, 5]);
    expect(pruned.children.get(1)).toEqual([8, 4]);
    expect(pruned.children.get(5)).toEqual([11, 12]);
    expect([...pruned.children.keys()].sort()).toEqual([0, 1, 4, 5]);
    expect(leavesBelow(pruned, 0)).toEqual([8, 9, 10, 11, 12]);
  });

  it("never removes the root: the root's children stay even when they decide nothing", () => {
    // Depth 2, every leaf below node 1 uniform: node 1 is prunable but its parent is the root
    // (prune.py: "parent cannot be root since root would then be removed"); its leaves are
    // dropped from the list because node 1 covers them, so nothing changes.
    const logits = Float32Array.from([0, 0, 0, 0, 3, 0, 0, 3]);
    const { pruned, removed } = pruneStructure(completeTree(2), maxOf(logits, 2, 3), 0.6);
    expect(removed).toEqual([]);
    expect(nodesOf(pruned).length).toBe(7);
  });

  it("invariants on random trees: kept greedy paths predict the same; removed leaves decided nothing", () => {
    const rng = new Rng(11);
    const depth = 5,
      C = 4,
      P = 31;
    for (let trial = 0; trial < 20; trial++) {
      // Half the leaves near uniform, half confident.
      const logits = Float32Array.from({ length: (P + 1) * C }, () => 0);
      for (let k = 0; k <= P; k++) if (rng.float() < 0.5) logits[k * C + rng.int(0, C - 1)] = 3 + rng.float();
      const tree = { leafLogits: logits, numClasses: C, numPrototypes: P };
      const tau = 2 / C;
      const full = completeTree(depth);
      const { pruned } = pruneStructure(full, maxOf(logits, C, P), tau);
      const kept = new Set(leavesBelow(pruned, pruned.root));
      for (const leaf of leavesBelow(full, 0)) if (!kept.has(leaf)) expect(Math.max(...leafDistribution(tree, leaf))).toBeLessThanOrEqual(tau);
      for (let s = 0; s < 50; s++) {
        const sims = Float32Array.from({ length: P }, () => rng.float());
        const g = greedyPath(tree, sims, full);
        if (kept.has(g.leaf)) {
          const gp = greedyPath(tree, sims, pruned);
          expect(gp.leaf).toBe(g.leaf);
          expect(gp.predicted).toBe(g.predicted);
        }
      }
    }
  });
});

describe("projection (project.py, with class constraints)", () => {
  it("each projected prototype is exactly a training patch of an allowed class, and its nearest one", () => {
    const rng = new Rng(5);
    const depth = 2,
      D = 4,
      N = 12,
      h = 2,
      w = 3;
    const x = Float32Array.from({ length: N * h * w * D }, () => 2 * rng.normal());
    const labels = Int32Array.from({ length: N }, (_, i) => i % 3);
    // Leaves 3, 4 → classes 0, 1; leaves 5, 6 → class 2. Node 2 may only project from class 2.
    const logits = Float32Array.from([5, 0, 0, 0, 5, 0, 0, 0, 5, 0, 0, 5]);
    const protos = Float32Array.from({ length: 3 * D }, () => rng.float());
    const tree = identityTree(depth, D, protos, logits);
    tree.manifest.latentShape = [h, w];
    const indices = Int32Array.from({ length: N }, (_, i) => i);
    const features = (pos: number[]) =>
      tf.tensor4d(Float32Array.from(pos.flatMap((p) => Array.from(x.subarray(p * h * w * D, (p + 1) * h * w * D)))), [pos.length, h, w, D]);
    projectPrototypes(tree, features, indices, labels);
    const z = tf.tidy(() => tf.sigmoid(tf.tensor4d(x, [N, h * w, 1, D])).dataSync());
    const after = tree.prototypes.dataSync();
    const allowed = [new Set([0, 1, 2]), new Set([0, 1]), new Set([2])];
    for (let p = 0; p < 3; p++) {
      const pr = tree.projections[p]!;
      expect(pr).not.toBeNull();
      expect(allowed[p].has(labels[pr.sample])).toBe(true);
      const q = pr.row * w + pr.col;
      const patch = z.subarray((pr.sample * h * w + q) * D, (pr.sample * h * w + q + 1) * D);
      expect(Array.from(after.subarray(p * D, (p + 1) * D))).toEqual(Array.from(patch));
      // Nearest to the prototype before projection among allowed images' patches.
      const dist = (i: number, qq: number) => Math.hypot(...Array.from({ length: D }, (_, c) => z[(i * h * w + qq) * D + c] - protos[p * D + c]));
      for (let i = 0; i < N; i++)
        if (allowed[p].has(labels[i])) for (let qq = 0; qq < h * w; qq++) expect(dist(pr.sample, q)).toBeLessThanOrEqual(dist(i, qq) + 1e-5);
      expect(pr.distance).toBeCloseTo(dist(pr.sample, q), 4);
    }
    tree.prototypes.dispose();
  });
});
