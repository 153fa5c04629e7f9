// TCAV's parts on cases whose answers are known by hand (docs/concepts.md).
import { beforeAll, describe, expect, it } from "vitest";
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import type { Net } from "../../sidecar/inference/net.ts";
import { trainCav } from "../../sidecar/concepts/cav.ts";
import { runTcav, significance, tcavScore } from "../../sidecar/concepts/tcav.ts";
import { Rng } from "../../sidecar/data/prng.ts";

beforeAll(async () => {
  await initBackend("cpu");
});

describe("tcavScore", () => {
  it("counts the inputs with a positive directional derivative and the positive share of |S|", () => {
    // S = g·v = 1, −1, 2 → sign_count 2/3, magnitude (1 + 2) / (1 + 1 + 2) = 3/4.
    const g = [new Float32Array([1, 5]), new Float32Array([-1, 7]), new Float32Array([2, -3])];
    const s = tcavScore(g, new Float32Array([1, 0]));
    expect(s.signCount).toBeCloseTo(2 / 3, 12);
    expect(s.magnitude).toBeCloseTo(3 / 4, 12);
  });
});

describe("significance (Student's two-sample t-test, scipy.stats.ttest_ind)", () => {
  it("matches the textbook value", () => {
    // t = (2.5 − 4.5) / sqrt(5/3 · (1/4 + 1/4)) = −2.1909, df 6 → two-sided p = 0.07099 (scipy).
    const r = significance([1, 2, 3, 4], [3, 4, 5, 6]);
    expect(r.pValue).toBeCloseTo(0.07099, 4);
    expect(r.significant).toBe(false);
    expect(significance([0.9, 0.95, 1, 0.97], [0.4, 0.6, 0.5, 0.45]).significant).toBe(true);
  });
  it("decides constant samples without dividing by zero", () => {
    expect(significance([1, 1, 1], [0.5, 0.5, 0.5])).toEqual({ pValue: 0, significant: true });
    expect(significance([1, 1, 1], [1, 1, 1])).toEqual({ pValue: 1, significant: false });
  });
});

describe("trainCav", () => {
  it("finds the direction that separates the concept from the random set", () => {
    // Concept examples = random noise + 3·e_2: the CAV must point along +e_2.
    const rng = new Rng(7);
    const noise = () => Float32Array.from({ length: 6 }, () => rng.normal());
    const random = Array.from({ length: 40 }, noise);
    const concept = Array.from({ length: 40 }, () => {
      const x = noise();
      x[2] += 3;
      return x;
    });
    const cav = trainCav(concept, random, { seed: 1 });
    expect(cav.vector[2]).toBeGreaterThan(0.85);
    expect(cav.accuracy).toBeGreaterThan(0.9);
    let norm = 0;
    for (const v of cav.vector) norm += v * v;
    expect(norm).toBeCloseTo(1, 5);
  });
});

/**
 * A linear toy: the layer "feat" is the input itself (4 values), logits = feat · W. Its gradient
 * w.r.t. the layer is W[:, k] for every input, so with a CAV ≈ e_j the TCAV score of class k is
 * exactly 1 when W[j, k] > 0 and 0 when W[j, k] < 0, for every input and every random set.
 */
function linearToy(W: number[][]): Net {
  const w = tf.tensor2d(W);
  return {
    id: "toy",
    inputShape: [1, 1, 4],
    classNames: ["a", "b"],
    layers: ["feat"],
    forward(x, opts = {}) {
      return tf.tidy(() => {
        let feat: tf.Tensor = x.reshape([x.shape[0], 4]);
        if (opts.tap?.layer === "feat") feat = opts.tap.fn(feat) ?? feat;
        return tf.matMul(feat as tf.Tensor2D, w) as tf.Tensor2D;
      });
    },
    trainableVariables: () => [],
  };
}

describe("runTcav on the linear toy", () => {
  it("gives 1 for a concept the class weight points along, 0 against it, and a random concept no significance", async () => {
    const net = linearToy([
      [0.5, -0.5],
      [2, -1],
      [0, 0],
      [-1, 1],
    ]);
    const rng = new Rng(3);
    const set = (shift: number[] | null, n = 30) =>
      tf.tensor4d(Array.from({ length: n }, () => [0, 1, 2, 3].map((i) => rng.normal() * 0.5 + (shift ? shift[i] : 0))).flat(), [n, 1, 1, 4]);
    const inputs = set(null, 20);
    const res = await runTcav({
      net,
      modelKey: "toy",
      layers: ["feat"],
      target: 0,
      inputs,
      concepts: [
        { key: "along-e1", images: set([0, 4, 0, 0]) },
        { key: "along-e3", images: set([0, 0, 0, 4]) },
      ],
      randomSets: Array.from({ length: 5 }, (_, i) => ({ key: `random-${i}`, images: set(null) })),
      baselineSets: Array.from({ length: 5 }, (_, i) => ({ key: `baseline-${i}`, images: set(null) })),
    });
    const [e1, e3] = res.concepts.map((c) => c.layers[0]);
    // W[1, 0] = 2 > 0: every input's derivative along e_1 is positive.
    expect(e1.scores).toEqual([1, 1, 1, 1, 1]);
    expect(e1.significant).toBe(true);
    // W[3, 0] = −1 < 0: never positive.
    expect(e3.scores).toEqual([0, 0, 0, 0, 0]);
    // Random vs random: the CAV direction is arbitrary, so each baseline score is 0 or 1 here;
    // the p-values are the t-test of each concept's five scores against those five.
    const baseline = res.random[0].scores;
    expect(baseline).toHaveLength(5);
    for (const s of baseline) expect([0, 1]).toContain(s);
    expect(e1.pValue).toBe(significance(e1.scores, baseline).pValue);
    expect(e3.pValue).toBe(significance(e3.scores, baseline).pValue);
    expect(res.cavsTrained).toBe(15);
  });
});
