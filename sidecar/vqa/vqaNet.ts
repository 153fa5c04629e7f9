// The visual question answering network (docs/vqa.md "The network"), written with plain tf
// ops over named tf.Variables:
//   image     [N, 32, 32, 3] → 3×3 convolutions + ReLU (strides `convStrides`) → [N, S, S, C]
//             → two coordinate channels appended (x, y ∈ [−1, 1]) → 1×1 projection to K channels.
//             The S×S map (4×4) keeps where things are, which position questions need.
//   question  ids [N, T] → embedding [N, T, D] (the "embedding layer") → GRU unrolled over the
//             T tokens (a pad, mask 0, leaves the state unchanged) → last state q [N, G].
//   fusion    FiLM (Perez et al. 2018), `filmLayers` times: m ← ReLU(γ(q) ⊙ A(m) + β(q)) at every
//             map position, γ = 1 + q·W_γ, β = q·W_β (the first A is the projection above, later
//             ones 1×1 convolutions) → flatten, concatenated with q → dense + ReLU → answer logits.
// `forward(image, embedded, mask)` is a pure function of the image and the embedded question
// (the mask only says which tokens are real), so gradients can be taken with respect to both,
// which is what IntegratedGradients over the two inputs needs.
import * as tf from "@tensorflow/tfjs";
import { Rng } from "../data/prng.ts";
import { conv2dSameTrainable } from "../zoo/convGrad.ts";

export interface VqaArch {
  imageSize: number;
  vocabSize: number;
  numAnswers: number;
  maxTokens: number;
  embedDim: number;
  /** Filters and strides of the 3×3 convolutions of the image encoder. */
  convFilters: number[];
  convStrides: number[];
  /** GRU state size. */
  gruUnits: number;
  /** Channels of the FiLM-modulated map. */
  filmUnits: number;
  /** FiLM layers (each: 1×1 transform, feature-wise affine from the question, ReLU). */
  filmLayers: number;
  /** Hidden units of the answer MLP. */
  mlpUnits: number;
}

/** The GRU's update gate, reset gate and candidate state. */
const GRU_GATES = ["update", "reset", "candidate"] as const;

export type VqaWeights = Map<string, tf.Variable>;

/**
 * a @ b whose gradients are plain products of explicitly transposed operands. Why: tfjs's
 * MatMul gradient multiplies with transposeA/transposeB set, which the wasm backend runs
 * about ten times slower than an untransposed product (measured on these layer sizes);
 * an explicit transpose costs little. Same values on every backend.
 */
export const matMul = tf.customGrad((...args: Array<tf.Tensor | tf.GradSaveFunc>) => {
  const a = args[0] as tf.Tensor2D,
    b = args[1] as tf.Tensor2D;
  (args[2] as tf.GradSaveFunc)([a, b]);
  return {
    value: tf.matMul(a, b),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sa, sb] = saved as tf.Tensor2D[];
      return [tf.matMul(dy as tf.Tensor2D, tf.transpose(sb)), tf.matMul(tf.transpose(sa), dy as tf.Tensor2D)];
    },
  };
}) as (a: tf.Tensor2D, b: tf.Tensor2D) => tf.Tensor2D;

function normal(rng: Rng, shape: number[], std: number): tf.Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  const v = new Float32Array(n);
  for (let i = 0; i < n; i++) v[i] = rng.normal() * std;
  return tf.tensor(v, shape);
}

/** Side of the image encoder's output map. */
export function mapSide(a: VqaArch): number {
  let side = a.imageSize;
  for (const s of a.convStrides) side = Math.ceil(side / s);
  return side;
}

/** Weight names and shapes in creation (= checkpoint) order, with the initialisation's standard deviation (0: zeros). */
export function weightSpecs(a: VqaArch): Array<{ name: string; shape: number[]; std: number }> {
  const specs: Array<{ name: string; shape: number[]; std: number }> = [];
  let cin = 3;
  a.convFilters.forEach((f, i) => {
    specs.push({ name: `conv${i + 1}/kernel`, shape: [3, 3, cin, f], std: Math.sqrt(2 / (9 * cin)) });
    specs.push({ name: `conv${i + 1}/bias`, shape: [f], std: 0 });
    cin = f;
  });
  const H = a.gruUnits,
    K = a.filmUnits;
  specs.push(
    { name: "embedding", shape: [a.vocabSize, a.embedDim], std: 1 },
    ...GRU_GATES.flatMap((g) => [
      { name: `gru/${g}/input`, shape: [a.embedDim, H], std: Math.sqrt(1 / a.embedDim) },
      { name: `gru/${g}/recurrent`, shape: [H, H], std: Math.sqrt(1 / H) },
      { name: `gru/${g}/bias`, shape: [H], std: 0 },
    ]),
  );
  for (let l = 1; l <= a.filmLayers; l++) {
    const kin = l === 1 ? cin + 2 : K;
    specs.push(
      { name: `film${l}/kernel`, shape: [kin, K], std: Math.sqrt(2 / kin) },
      { name: `film${l}/bias`, shape: [K], std: 0 },
      { name: `film${l}/gamma`, shape: [H, K], std: 0.1 / Math.sqrt(H) },
      { name: `film${l}/beta`, shape: [H, K], std: 0.1 / Math.sqrt(H) },
    );
  }
  const flat = mapSide(a) ** 2 * K + H;
  specs.push(
    { name: "mlp/kernel", shape: [flat, a.mlpUnits], std: Math.sqrt(2 / flat) },
    { name: "mlp/bias", shape: [a.mlpUnits], std: 0 },
    { name: "answer/kernel", shape: [a.mlpUnits, a.numAnswers], std: Math.sqrt(1 / a.mlpUnits) },
    { name: "answer/bias", shape: [a.numAnswers], std: 0 },
  );
  return specs;
}

export class VqaNet {
  constructor(
    readonly arch: VqaArch,
    readonly weights: VqaWeights,
  ) {
    for (const s of weightSpecs(arch)) {
      const w = weights.get(s.name);
      if (!w) throw new Error(`VQA network weight ${s.name} is missing`);
      if (w.shape.join("×") !== s.shape.join("×"))
        throw new Error(`VQA network weight ${s.name} has shape ${w.shape.join("×")}, expected ${s.shape.join("×")}`);
    }
  }

  /** A freshly initialised network (seeded: the same seed gives the same weights). */
  static init(arch: VqaArch, seed: number, trainable = true): VqaNet {
    const rng = new Rng(seed);
    const weights: VqaWeights = new Map();
    for (const s of weightSpecs(arch))
      weights.set(
        s.name,
        tf.tidy(() => tf.variable(s.std > 0 ? normal(rng, s.shape, s.std) : tf.zeros(s.shape), trainable)),
      );
    return new VqaNet(arch, weights);
  }

  /** A network over given arrays (a checkpoint's), not trainable. */
  static fromArrays(arch: VqaArch, arrays: Array<{ name: string; shape: number[]; data: Float32Array }>): VqaNet {
    const weights: VqaWeights = new Map();
    for (const a of arrays)
      weights.set(
        a.name,
        tf.tidy(() => tf.variable(tf.tensor(a.data, a.shape), false)),
      );
    return new VqaNet(arch, weights);
  }

  private w(name: string): tf.Variable {
    return this.weights.get(name)!;
  }

  private w2(name: string): tf.Tensor2D {
    return this.weights.get(name)! as tf.Tensor2D;
  }

  get parameterCount(): number {
    return [...this.weights.values()].reduce((s, v) => s + v.size, 0);
  }

  /** The embedding layer: token ids [N, T] → vectors [N, T, D]. */
  embed(ids: tf.Tensor2D): tf.Tensor3D {
    return tf.tidy(() => tf.gather(this.w("embedding"), tf.cast(ids, "int32")) as tf.Tensor3D);
  }

  /**
   * Image [N, H, W, 3] in [0, 1] → the projected feature map, flattened to [N, S·S, K]. The
   * convolutions' gradients (for training and attributions alike) are computed as forward
   * convolutions (sidecar/zoo/convGrad.ts: several times faster on wasm; the same values).
   */
  encodeImage(image: tf.Tensor4D): tf.Tensor3D {
    return tf.tidy(() => {
      let x = tf.mul(tf.sub(image, 0.5), 2) as tf.Tensor4D;
      this.arch.convFilters.forEach((_, i) => {
        const k = this.w(`conv${i + 1}/kernel`) as tf.Tensor4D;
        x = tf.relu(tf.add(conv2dSameTrainable(x, k, this.arch.convStrides[i]), this.w(`conv${i + 1}/bias`))) as tf.Tensor4D;
      });
      const [n, S, , C] = x.shape;
      const coords = new Float32Array(S * S * 2);
      for (let y = 0; y < S; y++)
        for (let xx = 0; xx < S; xx++) {
          coords[(y * S + xx) * 2] = S > 1 ? (2 * xx) / (S - 1) - 1 : 0;
          coords[(y * S + xx) * 2 + 1] = S > 1 ? (2 * y) / (S - 1) - 1 : 0;
        }
      const withCoords = tf.concat([tf.reshape(x, [n, S * S, C]), tf.tile(tf.tensor3d(coords, [1, S * S, 2]), [n, 1, 1])], 2);
      const proj = matMul(tf.reshape(withCoords, [n * S * S, C + 2]) as tf.Tensor2D, this.w2("film1/kernel"));
      return tf.reshape(tf.add(proj, this.w("film1/bias")), [n, S * S, this.arch.filmUnits]) as tf.Tensor3D;
    });
  }

  /** Embedded question [N, T, D] and mask [N, T] (1: token, 0: pad) → the GRU's last state [N, G]. */
  encodeQuestion(embedded: tf.Tensor3D, mask: tf.Tensor2D): tf.Tensor2D {
    return tf.tidy(() => {
      const [n, T, D] = embedded.shape;
      const H = this.arch.gruUnits;
      const flat = tf.reshape(embedded, [n * T, D]) as tf.Tensor2D;
      // The input projections of all time steps at once, then one [N, H] slice per step.
      const [xz, xr, xh] = GRU_GATES.map((g) => steps(tf.reshape(tf.add(matMul(flat, this.w2(`gru/${g}/input`)), this.w(`gru/${g}/bias`)), [n, T, H])));
      const [uz, ur, uh] = GRU_GATES.map((g) => this.w2(`gru/${g}/recurrent`));
      const m = steps(tf.reshape(mask, [n, T, 1]));
      let h: tf.Tensor2D = tf.zeros([n, H]);
      for (let t = 0; t < T; t++) {
        const z = tf.sigmoid(tf.add(xz[t], matMul(h, uz)));
        const r = tf.sigmoid(tf.add(xr[t], matMul(h, ur)));
        const cand = tf.tanh(tf.add(xh[t], matMul(tf.mul(r, h), uh)));
        // h ← h + m_t · z ⊙ (candidate − h): the GRU update where m_t = 1, no change on a pad.
        h = tf.add(h, tf.mul(tf.mul(m[t], z), tf.sub(cand, h)));
      }
      return h;
    });
  }

  /** FiLM fusion and answer MLP: image map [N, S·S, K] and question state [N, G] → answer logits [N, A]. */
  head(imageMap: tf.Tensor3D, question: tf.Tensor2D): tf.Tensor2D {
    return tf.tidy(() => {
      const [n, P, K] = imageMap.shape;
      let m: tf.Tensor3D = imageMap;
      for (let l = 1; l <= this.arch.filmLayers; l++) {
        if (l > 1)
          m = tf.reshape(tf.add(matMul(tf.reshape(m, [n * P, K]) as tf.Tensor2D, this.w2(`film${l}/kernel`)), this.w(`film${l}/bias`)), [
            n,
            P,
            K,
          ]) as tf.Tensor3D;
        const gamma = tf.reshape(tf.add(matMul(question, this.w2(`film${l}/gamma`)), 1), [n, 1, K]);
        const beta = tf.reshape(matMul(question, this.w2(`film${l}/beta`)), [n, 1, K]);
        m = tf.relu(tf.add(tf.mul(m, gamma), beta)) as tf.Tensor3D;
      }
      const flat = tf.concat([tf.reshape(m, [n, P * K]), question], 1) as tf.Tensor2D;
      const hidden = tf.relu(tf.add(matMul(flat, this.w2("mlp/kernel")), this.w("mlp/bias"))) as tf.Tensor2D;
      return tf.add(matMul(hidden, this.w2("answer/kernel")), this.w("answer/bias"));
    });
  }

  /** Answer logits [N, A] of images [N, H, W, 3] and embedded questions [N, T, D] with their mask [N, T]. */
  forward(image: tf.Tensor4D, embedded: tf.Tensor3D, mask: tf.Tensor2D): tf.Tensor2D {
    return tf.tidy(() => this.head(this.encodeImage(image), this.encodeQuestion(embedded, mask)));
  }

  /**
   * Training/evaluation form: each distinct image and each distinct question is encoded once
   * and shared. `images` [B, H, W, 3] and `imageOf` [N] (int32): the image of each row;
   * `questions` [U, T] (token ids) and `questionOf` [N] (int32): the question of each row.
   */
  forwardShared(images: tf.Tensor4D, imageOf: tf.Tensor1D, questions: tf.Tensor2D, questionOf: tf.Tensor1D): tf.Tensor2D {
    return tf.tidy(() => {
      const img = tf.gather(this.encodeImage(images), imageOf) as tf.Tensor3D;
      const q = tf.gather(this.encodeQuestion(this.embed(questions), maskOf(questions)), questionOf) as tf.Tensor2D;
      return this.head(img, q);
    });
  }

  dispose(): void {
    for (const v of this.weights.values()) v.dispose();
  }
}

/**
 * [N, T, H] → T tensors [N, H]. (tf.unstack of a single step has a broken gradient in tfjs
 * 4.22, its Unpack gradient stacks a lone tensor, so one step is a reshape.)
 */
function steps(x: tf.Tensor): tf.Tensor2D[] {
  const [n, T, H] = x.shape;
  return T === 1 ? [tf.reshape(x, [n, H])] : (tf.unstack(x, 1) as tf.Tensor2D[]);
}

/** 1 where a token id is not the pad id (0), else 0: [N, T] float32. */
export function maskOf(ids: tf.Tensor2D): tf.Tensor2D {
  return tf.tidy(() => tf.cast(tf.notEqual(ids, 0), "float32") as tf.Tensor2D);
}
