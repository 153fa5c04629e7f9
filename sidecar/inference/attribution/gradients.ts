// The one gradient helper every gradient-based attribution method uses (Captum's
// compute_gradients / compute_layer_gradients_and_eval): the gradient of the selected
// output — logit `target` of each row — with respect to the input or to one tapped
// layer's activation, with a chosen ReLU back-propagation mode, in batches.
//
// Input-only gradients never compute weight gradients: the net's weights are not
// differentiation sources (tf.grad is taken w.r.t. x alone, and tfjs prunes every
// tape node whose inputs do not depend on x). The one exception in tfjs is
// tf.fused.conv2d with a linear activation under a gradient tape: its custom
// gradient computes the filter gradient eagerly. While this helper runs, that
// Conv2DBackpropFilter call is answered with zeros instead (the value is discarded
// by the tape because the filter does not depend on x), so no filter gradient work
// is done on any backend.
import * as tf from "@tensorflow/tfjs";
import type { KernelConfig, TensorInfo } from "@tensorflow/tfjs";
import type { Net, ReluMode } from "../net.ts";

export interface GradientOptions {
  /** How ReLUs back-propagate (GuidedBackprop: "guided", Deconvolution: "deconv"). */
  relu?: ReluMode;
  /** Rows per forward/backward pass; larger is faster, smaller uses less memory. */
  batchSize?: number;
}

export const DEFAULT_GRADIENT_BATCH = 32;

/** One target per row, or the same target for every row. */
export type Targets = number | ArrayLike<number>;

function targetAt(target: Targets, i: number): number {
  return typeof target === "number" ? target : target[i];
}

/** Per-row target logits out[i, t_i]; the gradient of their sum w.r.t. row i is that row's alone. */
function pickTargets(out: tf.Tensor2D, target: Targets, offset: number): tf.Tensor1D {
  const [n, classes] = out.shape;
  const idx = targetIndices(target, offset, n, classes);
  // A 0/1 selection matrix (tf.oneHot rejects single-output models).
  const select = new Float32Array(n * classes);
  for (let i = 0; i < n; i++) select[i * classes + idx[i]] = 1;
  return tf.sum(tf.mul(out, tf.tensor2d(select, [n, classes])), 1) as tf.Tensor1D;
}

function targetIndices(target: Targets, offset: number, count: number, classes: number): Int32Array {
  const idx = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const t = targetAt(target, offset + i);
    if (!Number.isInteger(t) || t < 0 || t >= classes) {
      throw new RangeError(`target ${t} is not an output index of this model (0..${classes - 1})`);
    }
    idx[i] = t;
  }
  return idx;
}

// ---- skipping filter gradients of fused convolutions ----------------------------

let skipFilterGradients = 0;
const patchedBackends = new Set<string>();

/**
 * Wraps the active backend's Conv2DBackpropFilter/DepthwiseConv2dNativeBackpropFilter
 * so that, while `skipFilterGradients` is set, they return zeros of the filter shape
 * without touching x or dy. Outside this helper the original kernels run unchanged.
 */
function ensureFilterGradientSkip(): void {
  const backendName = tf.getBackend();
  if (patchedBackends.has(backendName)) return;
  for (const kernelName of ["Conv2DBackpropFilter", "DepthwiseConv2dNativeBackpropFilter"]) {
    const original = tf.getKernel(kernelName, backendName);
    if (!original) continue;
    const wrapped: KernelConfig = {
      ...original,
      kernelFunc: (args) => {
        if (skipFilterGradients > 0) {
          const shape = args.attrs!.filterShape as number[];
          const size = shape.reduce((a, b) => a * b, 1);
          const dataId = (args.backend as tf.KernelBackend).write(new Float32Array(size), shape, "float32");
          const info: TensorInfo = { dataId, shape, dtype: "float32" };
          return info;
        }
        return original.kernelFunc(args);
      },
    };
    tf.unregisterKernel(kernelName, backendName);
    tf.registerKernel(wrapped);
  }
  patchedBackends.add(backendName);
}

function withoutFilterGradients<T>(fn: () => T): T {
  ensureFilterGradientSkip();
  skipFilterGradients++;
  try {
    return fn();
  } finally {
    skipFilterGradients--;
  }
}

// ---- the native runtime ---------------------------------------------------------
// A net served by onnxruntime (net.native, sidecar/engine/nativeModel.ts) answers gradients from
// its derived gradient graph; the tfjs tape below remains for nets without one (a graph whose
// operators the gradient graphs do not cover says why in net.nativeGradients).

function targetList(target: Targets, n: number): ArrayLike<number> | number {
  return typeof target === "number" ? target : Array.from({ length: n }, (_, i) => target[i]);
}

function pickRows(logits: Float32Array, classes: number, target: Targets, n: number): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = logits[i * classes + targetAt(target, i)];
  return out;
}

/** NCHW (how ONNX holds feature maps) to the NHWC the attribution code reads. */
function fromNchw(data: Float32Array, dims: number[]): tf.Tensor {
  const t = tf.tensor(data, dims);
  if (dims.length !== 4) return t;
  const out = tf.transpose(t, [0, 2, 3, 1]);
  t.dispose();
  return out;
}

// ---- public helpers -------------------------------------------------------------

function rowsOf(x: tf.Tensor4D, start: number, count: number): tf.Tensor4D {
  return start === 0 && count === x.shape[0] ? x : tf.slice(x, [start, 0, 0, 0], [count, -1, -1, -1]);
}

/**
 * ∂ logit[target_i] / ∂ x_i for every row i of an NHWC batch. The caller owns the result.
 */
export async function inputGradients(net: Net, x: tf.Tensor4D, target: Targets, opts: GradientOptions = {}): Promise<tf.Tensor4D> {
  return (await inputGradientsAndOutputs(net, x, target, opts)).gradients;
}

/**
 * Gradients as above plus the target logits F(x_i) from the same forward pass
 * (what IntegratedGradients needs for its convergence delta without a second pass).
 */
export async function inputGradientsAndOutputs(
  net: Net,
  x: tf.Tensor4D,
  target: Targets,
  opts: GradientOptions = {},
): Promise<{ gradients: tf.Tensor4D; outputs: Float32Array }> {
  const n = x.shape[0];
  if (net.native && net.nativeGradients === true) {
    targetIndices(target, 0, n, net.native.classes);
    const r = await net.native.gradients(x.dataSync() as Float32Array, n, targetList(target, n), opts.relu ?? "normal", opts.batchSize);
    return { gradients: tf.tensor4d(r.gradients, x.shape), outputs: pickRows(r.logits, net.native.classes, target, n) };
  }
  const batch = Math.max(1, opts.batchSize ?? DEFAULT_GRADIENT_BATCH);
  const outputs = new Float32Array(n);
  const parts: tf.Tensor4D[] = [];
  try {
    for (let start = 0; start < n; start += batch) {
      const count = Math.min(batch, n - start);
      let picked: tf.Tensor1D | null = null;
      const g = withoutFilterGradients(
        () =>
          tf.tidy(() =>
            tf.grad((inp: tf.Tensor) => {
              const out = net.forward(inp as tf.Tensor4D, { relu: opts.relu ?? "normal", training: false });
              const rows = pickTargets(out, target, start);
              picked = tf.keep(tf.clone(rows));
              return tf.sum(rows) as tf.Scalar;
            })(rowsOf(x, start, count)),
          ) as tf.Tensor4D,
      );
      outputs.set((picked as tf.Tensor1D | null)!.dataSync(), start);
      (picked as tf.Tensor1D | null)!.dispose();
      parts.push(g);
    }
  } catch (e) {
    tf.dispose(parts);
    throw e;
  }
  const gradients = parts.length === 1 ? parts[0] : (tf.concat(parts, 0) as tf.Tensor4D);
  if (parts.length > 1) tf.dispose(parts);
  return { gradients, outputs };
}

/** The target logits F(x_i), on the native runtime where the net has one. */
export async function targetOutputsOf(net: Net, x: tf.Tensor4D, target: Targets): Promise<Float32Array> {
  if (!net.native) return targetOutputs(net, x, target);
  const n = x.shape[0];
  targetIndices(target, 0, n, net.native.classes);
  return pickRows(await net.native.logits(x.dataSync() as Float32Array, n), net.native.classes, target, n);
}

/** The target logits F(x_i) alone, batched, without any gradient bookkeeping (tfjs). */
export function targetOutputs(net: Net, x: tf.Tensor4D, target: Targets, batchSize = 64): Float32Array {
  const n = x.shape[0];
  const out = new Float32Array(n);
  for (let start = 0; start < n; start += batchSize) {
    const count = Math.min(batchSize, n - start);
    const vals = tf.tidy(() => {
      const logits = net.forward(rowsOf(x, start, count), { training: false });
      return pickTargets(logits, target, start);
    });
    out.set(vals.dataSync(), start);
    vals.dispose();
  }
  return out;
}

/**
 * The activation of `layer` and ∂ logit[target_i] / ∂ activation_i (Captum's
 * compute_layer_gradients_and_eval). The gradient source is a zero tensor added to the
 * layer's output through the net's tap, so the forward values are unchanged and the
 * gradient w.r.t. it equals the gradient w.r.t. the activation.
 */
export async function layerGradients(
  net: Net,
  x: tf.Tensor4D,
  target: Targets,
  layer: string,
  opts: GradientOptions = {},
): Promise<{ activation: tf.Tensor; gradients: tf.Tensor }> {
  if (!net.layers.includes(layer)) {
    throw new RangeError(`layer "${layer}" is not one of this model's layers (${net.layers.join(", ")})`);
  }
  const n = x.shape[0];
  if (net.native && net.nativeGradients === true) {
    targetIndices(target, 0, n, net.native.classes);
    const r = await net.native.layerGradients(x.dataSync() as Float32Array, n, targetList(target, n), layer, opts.batchSize);
    return { activation: fromNchw(r.activation, r.dims), gradients: fromNchw(r.gradients, r.dims) };
  }
  const batch = Math.max(1, opts.batchSize ?? DEFAULT_GRADIENT_BATCH);
  const acts: tf.Tensor[] = [];
  const grads: tf.Tensor[] = [];
  try {
    for (let start = 0; start < n; start += batch) {
      const count = Math.min(batch, n - start);
      const xs = rowsOf(x, start, count);
      let shape: number[] | null = null;
      tf.tidy(() => {
        net.forward(xs, { training: false, tap: { layer, fn: (a) => void (shape = a.shape) } });
      });
      if (!shape) throw new RangeError(`layer "${layer}" was not reached by the forward pass`);
      let act: tf.Tensor | null = null;
      const g = withoutFilterGradients(() =>
        tf.tidy(() => {
          const zero = tf.zeros(shape as number[]);
          return tf.grad((z: tf.Tensor) => {
            const out = net.forward(xs, {
              relu: opts.relu ?? "normal",
              training: false,
              tap: {
                layer,
                fn: (a) => {
                  act = tf.keep(tf.clone(a));
                  return tf.add(a, z);
                },
              },
            });
            return tf.sum(pickTargets(out, target, start)) as tf.Scalar;
          })(zero);
        }),
      );
      if (xs !== x) xs.dispose();
      acts.push(act!);
      grads.push(g);
    }
  } catch (e) {
    tf.dispose([...acts, ...grads]);
    throw e;
  }
  if (acts.length === 1) return { activation: acts[0], gradients: grads[0] };
  const activation = tf.concat(acts, 0);
  const gradients = tf.concat(grads, 0);
  tf.dispose([...acts, ...grads]);
  return { activation, gradients };
}
