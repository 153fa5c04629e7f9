// TCAV (Kim et al. 2018), laid out as captum.concept.TCAV computes it (docs/concepts.md):
//   for a class k, a layer l and a CAV v_C (cav.ts), each input x of class k has the directional
//   derivative S(x) = ∇_{a_l} f_k(x) · v_C (the layer gradient of the class logit, flattened);
//   sign_count = share of inputs with S(x) > 0; magnitude = Σ max(S, 0) / Σ |S|.
// One CAV per (concept, random set); the concept's scores over R random sets are compared by a
// two-sided Student t-test (scipy.stats.ttest_ind, as Captum's TCAV tutorial does) with R scores
// of random "concepts": baseline set i against random set i, a different random set each time,
// so the baseline carries the set-to-set variance of random examples as Kim et al.'s random-vs-
// random comparison does (one fixed random concept would not); p < 0.05 = significant.
import * as tf from "@tensorflow/tfjs";
import ttest2 from "@stdlib/stats-ttest2";
import type { Net } from "../inference/net.ts";
import { layerGradients } from "../inference/attribution/gradients.ts";
import { trainCav, type Cav, type CavOptions } from "./cav.ts";

export interface TcavScore {
  signCount: number;
  magnitude: number;
}

/** Scores of one CAV over the inputs' flattened layer gradients. */
export function tcavScore(gradients: Float32Array[], cav: Float32Array): TcavScore {
  let positive = 0,
    posSum = 0,
    absSum = 0;
  for (const g of gradients) {
    let s = 0;
    for (let i = 0; i < g.length; i++) s += g[i] * cav[i];
    if (s > 0) {
      positive++;
      posSum += s;
    }
    absSum += Math.abs(s);
  }
  return { signCount: gradients.length ? positive / gradients.length : 0, magnitude: absSum > 0 ? posSum / absSum : 0 };
}

const meanOf = (a: number[]) => (a.length ? a.reduce((s, v) => s + v, 0) / a.length : 0);
const stdOf = (a: number[]) => {
  const m = meanOf(a);
  return a.length ? Math.sqrt(a.reduce((s, v) => s + (v - m) ** 2, 0) / a.length) : 0;
};

export interface Significance {
  pValue: number;
  significant: boolean;
}

/**
 * Two-sided Student t-test with pooled variance (scipy's ttest_ind default) of the concept's scores
 * against the random baseline's. Both samples constant (the t statistic undefined): equal means are
 * not significant, different ones are.
 */
export function significance(concept: number[], random: number[], alpha = 0.05): Significance {
  if (concept.length < 2 || random.length < 2) return { pValue: NaN, significant: false };
  if (stdOf(concept) + stdOf(random) < 1e-12) {
    const same = Math.abs(meanOf(concept) - meanOf(random)) < 1e-12;
    return { pValue: same ? 1 : 0, significant: !same };
  }
  const r = ttest2(concept, random, { variance: "equal", alternative: "two-sided", alpha });
  return { pValue: r.pValue, significant: r.pValue < alpha };
}

/** Flattened activations of `layer` for a batch (one Float32Array per image). */
export function layerActivations(net: Net, images: tf.Tensor4D, layer: string, batch = 64): Float32Array[] {
  if (!net.layers.includes(layer)) throw new RangeError(`layer "${layer}" is not one of this model's layers (${net.layers.join(", ")})`);
  const rows: Float32Array[] = [];
  for (let start = 0; start < images.shape[0]; start += batch) {
    const count = Math.min(batch, images.shape[0] - start);
    let flat: Float32Array | null = null;
    tf.tidy(() => {
      const xs = tf.slice(images, [start, 0, 0, 0], [count, -1, -1, -1]);
      net.forward(xs, { training: false, tap: { layer, fn: (a) => void (flat = a.dataSync() as Float32Array) } });
    });
    if (!flat) throw new RangeError(`layer "${layer}" was not reached by the forward pass`);
    const dim = (flat as Float32Array).length / count;
    for (let k = 0; k < count; k++) rows.push((flat as Float32Array).slice(k * dim, (k + 1) * dim));
  }
  return rows;
}

/** Flattened ∂ logit[target] / ∂ activation of `layer`, one row per image (Captum's LayerGradientXActivation without the activation). */
export async function layerTargetGradients(net: Net, images: tf.Tensor4D, layer: string, target: number): Promise<Float32Array[]> {
  const { activation, gradients } = await layerGradients(net, images, target, layer);
  activation.dispose();
  const flat = gradients.dataSync() as Float32Array;
  gradients.dispose();
  const dim = flat.length / images.shape[0];
  return Array.from({ length: images.shape[0] }, (_, k) => flat.slice(k * dim, (k + 1) * dim));
}

/** Where trained CAVs are kept between requests (store.ts keeps them on disk). */
export interface CavStore {
  get(key: string): Cav | undefined;
  set(key: string, cav: Cav): void;
}

export interface ExampleSet {
  /** Identifies the examples (a concept's name and version, or a hash of its pictures): part of the CAV cache key. */
  key: string;
  images: tf.Tensor4D;
}

export interface TcavRequest {
  net: Net;
  /** Cache key of the model (a checkpoint id and its weights' checksum). */
  modelKey: string;
  layers: string[];
  /** Class whose inputs are scored. */
  target: number;
  /** Inputs of that class (the TCAV sample). */
  inputs: tf.Tensor4D;
  /** Inputs whose own directional derivatives are reported (the image the user picked), if any. */
  probe?: tf.Tensor4D;
  concepts: ExampleSet[];
  /** R random sets: the counter-examples of every CAV. */
  randomSets: ExampleSet[];
  /** R further random sets, each scored as a "random concept" against random set i: the baseline. */
  baselineSets: ExampleSet[];
  cav?: CavOptions;
  store?: CavStore;
  /** Called after each CAV (done of total) so a long request can report progress. */
  onProgress?: (done: number, total: number) => void;
}

export interface ConceptLayerResult {
  layer: string;
  /** sign_count per random set. */
  scores: number[];
  magnitudes: number[];
  mean: number;
  std: number;
  /** Mean held-out accuracy of the concept's CAVs. */
  cavAccuracy: number;
  pValue: number;
  significant: boolean;
  /** For each probe image: the share of the R CAVs along which its class logit increases. */
  probe: number[];
}

export interface TcavResult {
  concepts: { key: string; layers: ConceptLayerResult[] }[];
  /** The random baseline per layer (baseline set i against random set i). */
  random: { layer: string; scores: number[]; mean: number; std: number }[];
  cavsTrained: number;
  cavsReused: number;
}

export async function runTcav(req: TcavRequest): Promise<TcavResult> {
  const R = req.randomSets.length;
  if (R < 2 || req.baselineSets.length !== R) throw new RangeError("TCAV needs R ≥ 2 random sets and as many baseline sets");
  const total = req.layers.length * (req.concepts.length + 1) * R;
  let done = 0,
    trained = 0,
    reused = 0;
  const results: TcavResult = { concepts: req.concepts.map((c) => ({ key: c.key, layers: [] })), random: [], cavsTrained: 0, cavsReused: 0 };
  for (const layer of req.layers) {
    const grads = await layerTargetGradients(req.net, req.inputs, layer, req.target);
    const probeGrads = req.probe ? await layerTargetGradients(req.net, req.probe, layer, req.target) : [];
    const acts = new Map<string, Float32Array[]>();
    const activationsOf = (set: ExampleSet) => {
      let a = acts.get(set.key);
      if (!a) acts.set(set.key, (a = layerActivations(req.net, set.images, layer)));
      return a;
    };
    const cavOf = (positive: ExampleSet, negative: ExampleSet, seed: number): Cav => {
      const key = [req.modelKey, layer, positive.key, negative.key, JSON.stringify(req.cav ?? {}), seed].join("|");
      let cav = req.store?.get(key);
      if (cav) reused++;
      else {
        cav = trainCav(activationsOf(positive), activationsOf(negative), { ...req.cav, seed });
        trained++;
        req.store?.set(key, cav);
      }
      req.onProgress?.(++done, total);
      return cav;
    };
    const scoreAgainstRandoms = (positive: (i: number) => ExampleSet) => {
      const out = { scores: [] as number[], magnitudes: [] as number[], accuracies: [] as number[], probe: probeGrads.map(() => 0) };
      for (let i = 0; i < R; i++) {
        const cav = cavOf(positive(i), req.randomSets[i], i);
        const s = tcavScore(grads, cav.vector);
        out.scores.push(s.signCount);
        out.magnitudes.push(s.magnitude);
        out.accuracies.push(cav.accuracy);
        probeGrads.forEach((g, p) => {
          if (tcavScore([g], cav.vector).signCount > 0) out.probe[p] += 1 / R;
        });
      }
      return out;
    };
    const baseline = scoreAgainstRandoms((i) => req.baselineSets[i]);
    results.random.push({ layer, scores: baseline.scores, mean: meanOf(baseline.scores), std: stdOf(baseline.scores) });
    req.concepts.forEach((concept, c) => {
      const r = scoreAgainstRandoms(() => concept);
      const sig = significance(r.scores, baseline.scores);
      results.concepts[c].layers.push({
        layer,
        scores: r.scores,
        magnitudes: r.magnitudes,
        mean: meanOf(r.scores),
        std: stdOf(r.scores),
        cavAccuracy: meanOf(r.accuracies),
        pValue: sig.pValue,
        significant: sig.significant,
        probe: r.probe,
      });
    });
  }
  results.cavsTrained = trained;
  results.cavsReused = reused;
  return results;
}
