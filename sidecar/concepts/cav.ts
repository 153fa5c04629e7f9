// Concept activation vectors (Kim et al. 2018, as captum.concept trains them; docs/concepts.md).
// A CAV is the normal of a linear classifier that separates a concept's layer activations from
// a random set's. Captum's DefaultClassifier is scikit-learn's SGDClassifier (hinge loss, L2
// penalty alpha = 0.01) fitted on a shuffled 67 % of the examples, with its accuracy measured on
// the other 33 %; this module trains the same model (a linear SVM by stochastic sub-gradient
// descent with the 1/(alpha·t) step, Pegasos, with an unregularised intercept) deterministically
// from a seed. Labels: concept +1, random −1, so the CAV points towards the concept.
import { Rng } from "../data/prng.ts";

export interface CavOptions {
  /** L2 penalty (scikit-learn's alpha; Captum's default classifier uses 0.01). */
  alpha?: number;
  /** Passes over the training examples at most (scikit-learn's max_iter). */
  maxEpochs?: number;
  /** Stop when the training loss improves by less than this over 5 passes (scikit-learn's tol, n_iter_no_change). */
  tol?: number;
  /** Share of the examples held out to measure the classifier (Captum's test_split_ratio). */
  testSplit?: number;
  seed?: number;
}

export interface Cav {
  /** Unit vector in the flattened activation space, pointing from the random set towards the concept. */
  vector: Float32Array;
  /** Accuracy of the classifier on the held-out share (how well the layer separates the concept). */
  accuracy: number;
  epochs: number;
}

const dot = (w: Float32Array, x: Float32Array) => {
  let s = 0;
  for (let i = 0; i < w.length; i++) s += w[i] * x[i];
  return s;
};

/** Fits the linear SVM of concept (+1) against random (−1) rows and returns its normalised weights. */
export function trainCav(concept: Float32Array[], random: Float32Array[], opts: CavOptions = {}): Cav {
  if (!concept.length || !random.length) throw new RangeError("a CAV needs examples of the concept and of the random set");
  const dim = concept[0].length;
  for (const r of [...concept, ...random]) if (r.length !== dim) throw new RangeError("activations of different sizes");
  const alpha = opts.alpha ?? 0.01,
    maxEpochs = opts.maxEpochs ?? 1000,
    tol = opts.tol ?? 1e-3,
    testSplit = opts.testSplit ?? 0.33;
  const rng = new Rng(opts.seed ?? 0);
  const rows = [...concept.map((x) => ({ x, y: 1 })), ...random.map((x) => ({ x, y: -1 }))];
  const order = rng.permutation(rows.length);
  const nTest = Math.min(rows.length - 2, Math.max(1, Math.round(rows.length * testSplit)));
  const test = Array.from(order.subarray(0, nTest), (i) => rows[i]);
  const train = Array.from(order.subarray(nTest), (i) => rows[i]);

  // Features are scaled by the mean row norm so one step size suits every layer; the direction
  // of w is what TCAV uses and it is unchanged by a common scale.
  let norm = 0;
  for (const r of train) norm += Math.sqrt(dot(r.x, r.x));
  const scale = train.length && norm > 0 ? train.length / norm : 1;

  const w = new Float32Array(dim);
  let b = 0,
    t = 1,
    best = Infinity,
    stale = 0,
    epochs = 0;
  // Pegasos's step 1/(alpha·t) starts huge; scikit-learn's "optimal" schedule offsets t by t0
  // so the first step is about 1. The same offset here.
  const t0 = 1 / alpha;
  for (; epochs < maxEpochs;) {
    epochs++;
    const perm = rng.permutation(train.length);
    let loss = 0;
    for (const k of perm) {
      const { x, y } = train[k];
      const eta = 1 / (alpha * (t0 + t++));
      const margin = y * (dot(w, x) * scale + b);
      const shrink = 1 - eta * alpha;
      for (let i = 0; i < dim; i++) w[i] *= shrink;
      if (margin < 1) {
        const step = eta * y * scale;
        for (let i = 0; i < dim; i++) w[i] += step * x[i];
        b += eta * y;
        loss += 1 - margin;
      }
    }
    loss /= train.length;
    if (loss > best - tol) {
      if (++stale >= 5) break;
    } else stale = 0;
    best = Math.min(best, loss);
  }
  let correct = 0;
  for (const { x, y } of test) if ((dot(w, x) * scale + b) * y > 0) correct++;
  const len = Math.sqrt(dot(w, w));
  if (!(len > 0)) throw new RangeError("the concept and random activations could not be separated at all (zero CAV)");
  for (let i = 0; i < dim; i++) w[i] /= len;
  return { vector: w, accuracy: correct / test.length, epochs };
}
