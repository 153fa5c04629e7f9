// SeBoW's maths (sidecar/tree/sebow.ts) on cases small enough to compute by hand: 1×1 images with
// one channel, so a 3×3 "same" convolution is its centre weight times the pixel plus the bias.
import * as tf from "@tensorflow/tfjs";
import { beforeAll, describe, expect, it } from "vitest";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import {
  WiringMeter,
  deriveTree,
  greedyPath,
  initSearchSpace,
  initTreeWeights,
  leafCount,
  searchSpaceForward,
  treeForward,
  type SebowConfig,
  type SebowTree,
  type Weights,
} from "../../sidecar/tree/sebow.ts";

beforeAll(async () => {
  await initBackend("wasm");
});

const cfg: SebowConfig = { inputShape: [1, 1, 1], numClasses: 2, stemWidth: 1, widths: [1, 1], groups: 2 };
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Set a weight by hand: conv kernels get only their centre tap (all a 1×1 image sees). */
function set(w: Weights, name: string, values: number[]) {
  const v = w.get(name)!;
  if (name.endsWith("/kernel") && v.shape.length === 4) {
    const k = new Float32Array(9);
    k[4] = values[0];
    v.assign(tf.tensor(k, v.shape));
  } else v.assign(tf.tensor(values, v.shape));
}

function handWeights(): Weights {
  const w = initSearchSpace(cfg, 7);
  set(w, "stem/kernel", [1]);
  set(w, "stem/bias", [0]);
  // Root router: logits (ln 3, 0)·h0 → p = (0.75, 0.25) for h0 = 1.
  set(w, "R0.G0/kernel", [Math.log(3), 0]);
  set(w, "R0.G0/bias", [0, 0]);
  set(w, "L1.G0/kernel", [2]);
  set(w, "L1.G0/bias", [0]);
  set(w, "L1.G1/kernel", [-1]);
  set(w, "L1.G1/bias", [1]);
  // Layer-1 routers: block 0 uniform, block 1 (0.75, 0.25) whatever its input.
  set(w, "R1.G0/kernel", [0, 0]);
  set(w, "R1.G0/bias", [0, 0]);
  set(w, "R1.G1/kernel", [0, 0]);
  set(w, "R1.G1/bias", [Math.log(3), 0]);
  for (const g of [0, 1]) {
    set(w, `L2.G${g}/kernel`, [1]);
    set(w, `L2.G${g}/bias`, [0]);
  }
  set(w, "S0/kernel", [1, -1]);
  set(w, "S0/bias", [0, 0]);
  set(w, "S1/kernel", [-1, 1]);
  set(w, "S1/bias", [0, 0]);
  return w;
}

describe("SearchSpaceModel forward", () => {
  it("routes, mixes parents' features by edge mass and mixes the solvers by arrival probability", () => {
    const w = handWeights();
    const out = tf.tidy(() => {
      const o = searchSpaceForward(cfg, w, tf.ones([1, 1, 1, 1]) as tf.Tensor4D);
      return {
        probs: o.probs.arraySync()[0],
        r0: o.routing[0][0].arraySync()[0],
        r1: o.routing[1].map((p) => p.arraySync()[0]),
        arrival: o.arrival.map((a) => a.arraySync()[0]),
        h1: o.features[1].map((h) => h.dataSync()[0]),
        h2: o.features[2].map((h) => h.dataSync()[0]),
      };
    });
    // By hand: h0 = 1; p0 = (0.75, 0.25); h1 = (2·1, relu(1 − 1)) = (2, 0).
    expect(out.r0[0]).toBeCloseTo(0.75, 6);
    expect(out.arrival[1][0]).toBeCloseTo(0.75, 6);
    expect(out.arrival[1][1]).toBeCloseTo(0.25, 6);
    expect(out.h1).toEqual([2, 0]);
    // Edges: 0→0 0.375, 0→1 0.375, 1→0 0.1875, 1→1 0.0625; π2 = (0.5625, 0.4375).
    expect(out.r1[1][0]).toBeCloseTo(0.75, 6);
    expect(out.arrival[2][0]).toBeCloseTo(0.5625, 6);
    expect(out.arrival[2][1]).toBeCloseTo(0.4375, 6);
    // Inputs of layer 2: (0.375·2 + 0.1875·0)/0.5625 = 4/3 and (0.375·2 + 0.0625·0)/0.4375 = 12/7.
    expect(out.h2[0]).toBeCloseTo(4 / 3, 5);
    expect(out.h2[1]).toBeCloseTo(12 / 7, 5);
    // Solvers: softmax(4/3, −4/3) and softmax(−12/7, 12/7); mixture by π2.
    const p0 = 0.5625 * sigmoid(8 / 3) + 0.4375 * sigmoid(-24 / 7);
    expect(out.probs[0]).toBeCloseTo(p0, 5);
    expect(out.probs[0] + out.probs[1]).toBeCloseTo(1, 6);
  });
});

describe("wiring and derivation", () => {
  it("measures the wiring as routing weighted by arrival probability", () => {
    const meter = new WiringMeter(1, 2);
    // Two images reach the root with π = 1; its routing (0.9, 0.1) and (0.5, 0.5) → W = (0.7, 0.3).
    meter.add(
      [
        [
          [
            [0.9, 0.1],
            [0.5, 0.5],
          ],
        ],
      ],
      [[[1], [1]]],
    );
    expect(meter.wiring()[0][0][0]).toBeCloseTo(0.7, 10);
    const m2 = new WiringMeter(2, 2);
    // Layer 1: image A reaches block 0 with 0.8 and routes (1, 0); image B reaches it with 0.2 and routes (0, 1).
    m2.add(
      [
        [
          [
            [0.8, 0.2],
            [0.2, 0.8],
          ],
        ],
        [
          [
            [1, 0],
            [0, 1],
          ],
          [
            [0.5, 0.5],
            [0.5, 0.5],
          ],
        ],
      ],
      [
        [[1], [1]],
        [
          [0.8, 0.2],
          [0.2, 0.8],
        ],
      ],
    );
    // W1[0] = (0.8·1 + 0.2·0, 0.8·0 + 0.2·1) / (0.8 + 0.2) = (0.8, 0.2).
    expect(m2.wiring()[1][0][0]).toBeCloseTo(0.8, 10);
    expect(m2.wiring()[1][0][1]).toBeCloseTo(0.2, 10);
  });

  it("derives the expected tree from a crafted wiring", () => {
    const wiring = [
      [[0.6, 0.35, 0.05]],
      [
        [0.2, 0.7, 0.1],
        [0.34, 0.33, 0.33],
        [0.9, 0.05, 0.05],
      ],
    ];
    const tree = deriveTree(wiring, { threshold: 0.3, maxChildren: 2, maxLeaves: 8 });
    const shape = tree.nodes.map((n) => `${n.id}:L${n.layer}G${n.group}>${n.children.join(",")}`);
    // Root keeps G0 (0.6) and G1 (0.35); G0 keeps only G1 (0.7; 0.2 < 0.3); G1 keeps G0 and G1 (two at most, not G2).
    expect(shape).toEqual(["n0:L0G0>n1,n2", "n1:L1G0>n3", "n2:L1G1>n4,n5", "n3:L2G1>", "n4:L2G0>", "n5:L2G1>"]);
    expect(leafCount(tree)).toBe(3);
    // A leaf budget of 2 stops the second branching.
    const small = deriveTree(wiring, { threshold: 0.3, maxChildren: 2, maxLeaves: 2 });
    expect(leafCount(small)).toBe(2);
    expect(small.nodes.find((n) => n.id === "n2")!.children).toHaveLength(1);
    // A threshold above every second choice gives a chain (a plain CNN path).
    expect(leafCount(deriveTree(wiring, { threshold: 0.95, maxChildren: 2, maxLeaves: 8 }))).toBe(1);
  });
});

describe("NeuralDecisionTree", () => {
  it("copies the kept router columns and routes softly with the product of routing probabilities", () => {
    const w = handWeights();
    // Derived from a wiring where the root keeps both blocks and each layer-1 node keeps one child.
    const tree: SebowTree = deriveTree(
      [
        [[0.75, 0.25]],
        [
          [0.9, 0.1],
          [0.2, 0.8],
        ],
      ],
      { threshold: 0.25, maxChildren: 2, maxLeaves: 8 },
    );
    expect(tree.nodes.map((n) => n.children.length)).toEqual([2, 1, 1, 0, 0]);
    const tw = initTreeWeights(cfg, tree, w);
    expect(Array.from(tw.get("n0.router/kernel")!.dataSync())).toEqual([Math.fround(Math.log(3)), 0]);
    expect(tw.has("n1.router/kernel")).toBe(false);
    const o = treeForward(tree, tw, tf.ones([1, 1, 1, 1]) as tf.Tensor4D);
    const out = { probs: o.probs.arraySync()[0], routing: new Map([...o.routing].map(([k, v]) => [k, v.arraySync()[0]])) };
    // Leaves: n3 = L2.G0 after L1.G0 (h = 2) → softmax(2, −2); n4 = L2.G1 after L1.G1 (h = 0) → (0.5, 0.5).
    expect(out.probs[0]).toBeCloseTo(0.75 * sigmoid(4) + 0.25 * 0.5, 5);
    expect(greedyPath(tree, out.routing)).toEqual(["n0", "n1", "n3"]);
  });
});
