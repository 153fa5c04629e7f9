// One served network on onnxruntime: its forward session, and gradient sessions built on first
// use per ReLU rule and per tapped layer (gradientGraph.ts), with batches sized from the
// network's activation memory so that no method runs out of memory at any input size.
// Everything goes in and out as flat Float32Arrays in the platform's NHWC pixel layout.
import type * as ortTypes from "onnxruntime-node";
import { buildGradientGraph, GRAD_INPUT, GRAD_SEED, layerGradName } from "./gradientGraph.ts";
import { NativeRunStopped } from "./nativeGuard.ts";
import { probeModel, PROBE_BATCH, type Probe } from "./probe.ts";
import { chosenProvider, createSession, ort, type ProviderName } from "./runtime.ts";
import { PIXELS, serveModel, type ServeOptions } from "./servedModel.ts";
import type { ReluRule } from "./vjp/context.ts";

/** Activation memory one batch may use (ENGINE_MEMORY_MB, default 1024 MiB per worker). */
export function memoryBudgetBytes(): number {
  const mb = Number(process.env.ENGINE_MEMORY_MB);
  return (Number.isFinite(mb) && mb > 0 ? mb : 1024) * 1024 * 1024;
}
/** A backward pass keeps the forward's activations and adds gradients of about the same size. */
const GRADIENT_MEMORY_FACTOR = 3;
const MAX_BATCH = 256;

export interface LayerGradients {
  /** The layer's activation as the graph holds it (NCHW for feature maps). */
  activation: Float32Array;
  gradients: Float32Array;
  dims: number[];
  logits: Float32Array;
}

export class NativeModel {
  private gradientSessions = new Map<string, Promise<ortTypes.InferenceSession>>();

  private constructor(
    readonly id: string,
    readonly provider: ProviderName,
    private served: Uint8Array,
    private forwardSession: ortTypes.InferenceSession,
    private probe: Probe,
    readonly inputShape: readonly [number, number, number],
    readonly classes: number,
    /** Bytes of all activations of one image's forward pass (the probe's sum). */
    readonly bytesPerImage: number,
    private threads?: number,
  ) {}

  static async load(id: string, onnx: Uint8Array, opts: ServeOptions & { provider?: ProviderName; threads?: number }): Promise<NativeModel> {
    const served = serveModel(onnx, opts);
    const probe = await probeModel(served.bytes, PIXELS, opts.inputShape);
    const logits = probe.get(served.output);
    if (!logits || logits.dims.length !== 2) throw new Error(`${id}: the graph gives [${logits?.dims.join(", ")}], expected [N, classes]`);
    let floats = 0;
    for (const v of probe.values()) if (v.type === "float32") floats += v.dims.reduce((a, b) => a * b, 1);
    const provider = opts.provider ?? chosenProvider();
    const session = await createSession(served.bytes, { provider, threads: opts.threads });
    return new NativeModel(id, provider, served.bytes, session, probe, opts.inputShape, logits.dims[1], (floats / PROBE_BATCH) * 4, opts.threads);
  }

  private get imageSize(): number {
    return this.inputShape[0] * this.inputShape[1] * this.inputShape[2];
  }

  /** Rows per run: forward passes, or forward and backward passes. */
  batchSize(kind: "forward" | "gradient"): number {
    const per = this.bytesPerImage * (kind === "gradient" ? GRADIENT_MEMORY_FACTOR : 1);
    return Math.max(1, Math.min(MAX_BATCH, Math.floor(memoryBudgetBytes() / Math.max(1, per))));
  }

  private pixels(x: Float32Array, start: number, count: number): ortTypes.Tensor {
    const size = this.imageSize;
    const [h, w, c] = this.inputShape;
    return new ort.Tensor("float32", x.subarray(start * size, (start + count) * size), [count, h, w, c]);
  }

  /** Logits [n, classes] of n images (NHWC, flat). */
  async logits(x: Float32Array, n: number): Promise<Float32Array> {
    const out = new Float32Array(n * this.classes);
    const batch = this.batchSize("forward");
    for (let start = 0; start < n; start += batch) {
      const count = Math.min(batch, n - start);
      const r = await this.forwardSession.run({ [PIXELS]: this.pixels(x, start, count) });
      const y = r[this.forwardSession.outputNames[0]];
      out.set(y.data as Float32Array, start * this.classes);
      y.dispose?.();
    }
    return out;
  }

  private gradientSession(relu: ReluRule, layer?: string): Promise<ortTypes.InferenceSession> {
    const key = `${relu}|${layer ?? ""}`;
    let s = this.gradientSessions.get(key);
    if (!s) {
      s = buildGradientGraph(this.served, PIXELS, this.probe, { relu, layers: layer ? [layer] : [] }).then((g) =>
        createSession(g.bytes, { provider: this.provider, threads: this.threads }),
      );
      // A graph that cannot be built is reported to each caller, not cached as a failure forever.
      s.catch(() => this.gradientSessions.delete(key));
      this.gradientSessions.set(key, s);
    }
    return s;
  }

  /**
   * Builds the gradient graph now (true), or says why it cannot be (the error's message). A job
   * stopped while the session was being made is not an answer about the model: that rethrows.
   */
  async gradientSupport(relu: ReluRule = "normal"): Promise<true | string> {
    try {
      await this.gradientSession(relu);
      return true;
    } catch (err) {
      if (err instanceof NativeRunStopped) throw err;
      return (err as Error).message;
    }
  }

  private seeds(targets: ArrayLike<number> | number, start: number, count: number): ortTypes.Tensor {
    const seed = new Float32Array(count * this.classes);
    for (let i = 0; i < count; i++) {
      const t = typeof targets === "number" ? targets : targets[start + i];
      if (!Number.isInteger(t) || t < 0 || t >= this.classes) throw new RangeError(`target ${t} is not an output index of this model (0..${this.classes - 1})`);
      seed[i * this.classes + t] = 1;
    }
    return new ort.Tensor("float32", seed, [count, this.classes]);
  }

  /** ∂ logit[target_i] / ∂ x_i (NHWC, flat) and every row's logits, in memory-sized batches. */
  async gradients(
    x: Float32Array,
    n: number,
    targets: ArrayLike<number> | number,
    relu: ReluRule = "normal",
    batchSize?: number,
  ): Promise<{ gradients: Float32Array; logits: Float32Array }> {
    const session = await this.gradientSession(relu);
    const size = this.imageSize;
    const gradients = new Float32Array(n * size);
    const logits = new Float32Array(n * this.classes);
    await this.inGradientBatches(session, x, n, targets, batchSize, (r, start) => {
      gradients.set(r[GRAD_INPUT].data as Float32Array, start * size);
      logits.set(r[session.outputNames[0]].data as Float32Array, start * this.classes);
    });
    return { gradients, logits };
  }

  /** A value's activation and ∂ logit[target_i] / ∂ activation (Captum's compute_layer_gradients_and_eval). */
  async layerGradients(x: Float32Array, n: number, targets: ArrayLike<number> | number, layer: string, batchSize?: number): Promise<LayerGradients> {
    const session = await this.gradientSession("normal", layer);
    const dims = this.probe.get(layer)?.dims;
    if (!dims) throw new RangeError(`layer "${layer}" is not a value of this model`);
    const per = dims.slice(1).reduce((a, b) => a * b, 1);
    const activation = new Float32Array(n * per);
    const gradients = new Float32Array(n * per);
    const logits = new Float32Array(n * this.classes);
    await this.inGradientBatches(session, x, n, targets, batchSize, (r, start) => {
      activation.set(r[layer].data as Float32Array, start * per);
      gradients.set(r[layerGradName(layer)].data as Float32Array, start * per);
      logits.set(r[session.outputNames[0]].data as Float32Array, start * this.classes);
    });
    return { activation, gradients, dims: [n, ...dims.slice(1)], logits };
  }

  /**
   * Runs a gradient session over n images in batches (at most `batchSize`, and what the gradient
   * graph's memory allows), handing each batch's outputs and first row to `take` before they are freed.
   */
  private async inGradientBatches(
    session: ortTypes.InferenceSession,
    x: Float32Array,
    n: number,
    targets: ArrayLike<number> | number,
    batchSize: number | undefined,
    take: (r: ortTypes.InferenceSession.OnnxValueMapType, start: number) => void,
  ): Promise<void> {
    const batch = Math.min(batchSize ?? Infinity, this.batchSize("gradient"));
    for (let start = 0; start < n; start += batch) {
      const count = Math.min(batch, n - start);
      const r = await session.run({ [PIXELS]: this.pixels(x, start, count), [GRAD_SEED]: this.seeds(targets, start, count) });
      take(r, start);
      for (const t of Object.values(r)) t.dispose?.();
    }
  }

  async release(): Promise<void> {
    await this.forwardSession.release();
    for (const s of this.gradientSessions.values()) await (await s.catch(() => null))?.release();
    this.gradientSessions.clear();
  }
}
