// Gradient kernels that tfjs-backend-wasm 4.22 does not ship, built from kernels it
// does have. Without Conv2DBackpropFilter, tf.variableGrads through tf.conv2d or
// tf.fused.conv2d throws on wasm, so no model could train there; the depthwise pair
// is what separable/Inception-style blocks need, and UnsortedSegmentSum is the
// gradient of tf.gather.
//
// Each kernel runs ordinary tf ops inside tf.tidy. Ops run from inside a kernel are
// not recorded on the gradient tape (the engine only tapes at kernel depth 0), so
// these compose with autodiff like native kernels. The result tensor's data is
// handed to the engine by taking an extra backend reference on it before the
// temporary tensor is disposed, the same way the Identity kernel shares data.
import * as tf from "@tensorflow/tfjs";
import type { KernelConfig, KernelFunc, TensorInfo, NamedAttrMap, NamedTensorInfoMap } from "@tensorflow/tfjs";

interface RefCountingBackend {
  incRef(dataId: object): void;
}

type Wrap = <R extends tf.Rank>(info: TensorInfo) => tf.Tensor<R>;

/**
 * Wraps an op-level implementation as a kernel returning one output. `wrap` views a
 * kernel input as a tensor; it takes its own backend reference first, so disposing
 * the view at the end of the tidy leaves the caller's tensor intact.
 */
function opKernel(impl: (inputs: NamedTensorInfoMap, attrs: NamedAttrMap, wrap: Wrap) => tf.Tensor): KernelFunc {
  return ({ inputs, attrs, backend }) => {
    const rc = backend as unknown as RefCountingBackend;
    const wrap: Wrap = <R extends tf.Rank>(info: TensorInfo) => {
      rc.incRef(info.dataId);
      return tf.engine().makeTensorFromTensorInfo(info) as tf.Tensor<R>;
    };
    const out = tf.tidy(() => impl(inputs, attrs ?? {}, wrap));
    rc.incRef(out.dataId);
    const info: TensorInfo = { dataId: out.dataId, shape: out.shape, dtype: out.dtype };
    out.dispose();
    return info;
  };
}

type PadAttr = "valid" | "same" | number | tf.backend_util.ExplicitPadding;

/** x zero-padded by the conv's padding, with enough extra rows/cols for the last window. */
function padForConv(x: tf.Tensor4D, info: tf.backend_util.Conv2DInfo): tf.Tensor4D {
  const { top, left } = info.padInfo;
  const needH = (info.outHeight - 1) * info.strideHeight + (info.filterHeight - 1) * info.dilationHeight + 1;
  const needW = (info.outWidth - 1) * info.strideWidth + (info.filterWidth - 1) * info.dilationWidth + 1;
  const bottom = Math.max(0, needH - top - info.inHeight);
  const right = Math.max(0, needW - left - info.inWidth);
  if (top === 0 && left === 0 && bottom === 0 && right === 0) return x;
  return tf.pad(x, [
    [0, 0],
    [top, bottom],
    [left, right],
    [0, 0],
  ]);
}

/** The input values under kernel tap (kh, kw) for every output position: [N, outH, outW, C]. */
function tapSlice(xPad: tf.Tensor4D, info: tf.backend_util.Conv2DInfo, kh: number, kw: number): tf.Tensor4D {
  const h0 = kh * info.dilationHeight;
  const w0 = kw * info.dilationWidth;
  return tf.stridedSlice(
    xPad,
    [0, h0, w0, 0],
    [xPad.shape[0], h0 + (info.outHeight - 1) * info.strideHeight + 1, w0 + (info.outWidth - 1) * info.strideWidth + 1, xPad.shape[3]],
    [1, info.strideHeight, info.strideWidth, 1],
  ) as tf.Tensor4D;
}

function conv2dInfo(
  xShape: number[],
  filterShape: number[],
  strides: number | [number, number],
  pad: PadAttr,
  dilations: number | [number, number],
  dimRoundingMode: "floor" | "round" | "ceil" | undefined,
  depthwise: boolean,
): tf.backend_util.Conv2DInfo {
  return tf.backend_util.computeConv2DInfo(
    xShape as [number, number, number, number],
    filterShape as [number, number, number, number],
    strides,
    dilations,
    pad as "valid" | "same" | number,
    dimRoundingMode,
    depthwise,
    "channelsLast",
  );
}

/**
 * dW[kh,kw,ci,co] = Σ_{n,oh,ow} xPad[n, oh·s + kh, ow·s + kw, ci] · dy[n,oh,ow,co], as
 * one im2col matMul: the K·K tap slices concatenated on the channel axis give
 * [P, KH·KW·Ci], whose transpose times dy [P, Co] is the filter gradient in
 * (kh, kw, ci) row order.
 */
export function conv2dBackpropFilterImpl(
  x: tf.Tensor4D,
  dy: tf.Tensor4D,
  filterShape: [number, number, number, number],
  strides: number | [number, number],
  pad: PadAttr,
  dimRoundingMode?: "floor" | "round" | "ceil",
): tf.Tensor4D {
  const info = conv2dInfo(x.shape, filterShape, strides, pad, 1, dimRoundingMode, false);
  const xPad = padForConv(x, info);
  const taps: tf.Tensor4D[] = [];
  for (let kh = 0; kh < info.filterHeight; kh++) {
    for (let kw = 0; kw < info.filterWidth; kw++) taps.push(tapSlice(xPad, info, kh, kw));
  }
  const P = x.shape[0] * info.outHeight * info.outWidth;
  const cols = (taps.length === 1 ? taps[0] : tf.concat(taps, 3)).reshape([P, taps.length * info.inChannels]);
  const grad = tf.matMul(cols, dy.reshape([P, info.outChannels]), true, false);
  return grad.reshape(filterShape);
}

/** dW[kh,kw,c,m] = Σ_{n,oh,ow} xPad[n, oh·s + kh·d, ow·s + kw·d, c] · dy[n,oh,ow,c·M + m]. */
export function depthwiseBackpropFilterImpl(
  x: tf.Tensor4D,
  dy: tf.Tensor4D,
  filterShape: [number, number, number, number],
  strides: number | [number, number],
  pad: PadAttr,
  dilations: number | [number, number],
  dimRoundingMode?: "floor" | "round" | "ceil",
): tf.Tensor4D {
  const info = conv2dInfo(x.shape, filterShape, strides, pad, dilations, dimRoundingMode, true);
  const C = info.inChannels;
  const M = filterShape[3];
  const P = x.shape[0] * info.outHeight * info.outWidth;
  const xPad = padForConv(x, info);
  const dyR = dy.reshape([P, C, M]);
  const rows: tf.Tensor[] = [];
  for (let kh = 0; kh < info.filterHeight; kh++) {
    for (let kw = 0; kw < info.filterWidth; kw++) {
      const xs = tapSlice(xPad, info, kh, kw).reshape([P, C, 1]);
      rows.push(tf.sum(tf.mul(xs, dyR), 0)); // [C, M]
    }
  }
  return tf.stack(rows).reshape(filterShape);
}

/**
 * dx for a depthwise conv: every tap (kh, kw) sends Σ_m dy[..., c·M+m]·W[kh,kw,c,m]
 * back to input position (oh·s + kh·d, ow·s + kw·d). Stride is undone by interleaving
 * zeros (pad a unit axis to s, then merge), the tap offset by padding, and the conv's
 * own padding by a final slice.
 */
export function depthwiseBackpropInputImpl(
  xShape: [number, number, number, number],
  dy: tf.Tensor4D,
  filter: tf.Tensor4D,
  strides: number | [number, number],
  pad: PadAttr,
  dilations: number | [number, number],
  dimRoundingMode?: "floor" | "round" | "ceil",
): tf.Tensor4D {
  const info = conv2dInfo(xShape, filter.shape, strides, pad, dilations, dimRoundingMode, true);
  const [N, H, W, C] = xShape;
  const M = filter.shape[3];
  const { top, left } = info.padInfo;
  const sH = info.strideHeight;
  const sW = info.strideWidth;
  const OH = info.outHeight;
  const OW = info.outWidth;
  const fullH = Math.max(top + H, (OH - 1) * sH + (info.filterHeight - 1) * info.dilationHeight + 1);
  const fullW = Math.max(left + W, (OW - 1) * sW + (info.filterWidth - 1) * info.dilationWidth + 1);
  const dyR = dy.reshape([N, OH, OW, C, M]);
  let acc: tf.Tensor4D | null = null;
  for (let kh = 0; kh < info.filterHeight; kh++) {
    for (let kw = 0; kw < info.filterWidth; kw++) {
      const w = tf.slice(filter, [kh, kw, 0, 0], [1, 1, C, M]).reshape([C, M]);
      let contrib = tf.sum(tf.mul(dyR, w), 4) as tf.Tensor4D; // [N, OH, OW, C]
      if (sH > 1 || sW > 1) {
        contrib = tf
          .pad(contrib.reshape([N, OH, 1, OW, 1, C]), [
            [0, 0],
            [0, 0],
            [0, sH - 1],
            [0, 0],
            [0, sW - 1],
            [0, 0],
          ])
          .reshape([N, OH * sH, OW * sW, C]);
      }
      const h0 = kh * info.dilationHeight;
      const w0 = kw * info.dilationWidth;
      const spanH = (OH - 1) * sH + 1;
      const spanW = (OW - 1) * sW + 1;
      const placed = tf.pad(tf.slice(contrib, [0, 0, 0, 0], [N, spanH, spanW, C]), [
        [0, 0],
        [h0, fullH - h0 - spanH],
        [w0, fullW - w0 - spanW],
        [0, 0],
      ]) as tf.Tensor4D;
      acc = acc ? (tf.add(acc, placed) as tf.Tensor4D) : placed;
    }
  }
  return tf.slice(acc as tf.Tensor4D, [0, top, left, 0], [N, H, W, C]);
}

/** out[s, ...] = Σ_{i: ids[i] = s} x[i, ...], as oneHot(ids)ᵀ · x. */
export function unsortedSegmentSumImpl(x: tf.Tensor, segmentIds: tf.Tensor, numSegments: number): tf.Tensor {
  const n = segmentIds.size;
  const rest = x.shape.slice(segmentIds.rank);
  const restSize = rest.reduce((a, b) => a * b, 1);
  const oneHot = tf.oneHot(segmentIds.reshape([n]).toInt(), numSegments).toFloat();
  const out = tf.matMul(oneHot, x.toFloat().reshape([n, restSize]), true, false);
  return out.reshape([numSegments, ...rest]).cast(x.dtype);
}

/** A kernel for "wasm" over an op-level implementation (opKernel). */
const wasmKernel = (kernelName: string, impl: Parameters<typeof opKernel>[0]): KernelConfig => ({
  kernelName,
  backendName: "wasm",
  kernelFunc: opKernel(impl),
});

type Rounding = "floor" | "round" | "ceil" | undefined;
const shape4 = (attr: unknown) => attr as [number, number, number, number];
/** The window attributes the convolution gradients share: strides, padding, dilations (1 when absent) and rounding. */
const windowAttrs = (attrs: NamedAttrMap) =>
  [attrs.strides as [number, number], attrs.pad as PadAttr, (attrs.dilations as [number, number] | undefined) ?? 1, attrs.dimRoundingMode as Rounding] as const;

const conv2dBackpropFilterConfig = wasmKernel("Conv2DBackpropFilter", (inputs, attrs, wrap) => {
  if (attrs.dataFormat === "NCHW") throw new Error("Conv2DBackpropFilter on wasm supports NHWC only");
  const [strides, pad, , rounding] = windowAttrs(attrs);
  return conv2dBackpropFilterImpl(
    wrap<tf.Rank.R4>(inputs.x as TensorInfo),
    wrap<tf.Rank.R4>(inputs.dy as TensorInfo),
    shape4(attrs.filterShape),
    strides,
    pad,
    rounding,
  );
});

const depthwiseFilterConfig = wasmKernel("DepthwiseConv2dNativeBackpropFilter", (inputs, attrs, wrap) =>
  depthwiseBackpropFilterImpl(
    wrap<tf.Rank.R4>(inputs.x as TensorInfo),
    wrap<tf.Rank.R4>(inputs.dy as TensorInfo),
    shape4(attrs.filterShape),
    ...windowAttrs(attrs),
  ),
);

const depthwiseInputConfig = wasmKernel("DepthwiseConv2dNativeBackpropInput", (inputs, attrs, wrap) =>
  depthwiseBackpropInputImpl(
    shape4(attrs.inputShape),
    wrap<tf.Rank.R4>(inputs.dy as TensorInfo),
    wrap<tf.Rank.R4>(inputs.filter as TensorInfo),
    ...windowAttrs(attrs),
  ),
);

const unsortedSegmentSumConfig = wasmKernel("UnsortedSegmentSum", (inputs, attrs, wrap) =>
  unsortedSegmentSumImpl(wrap(inputs.x as TensorInfo), wrap(inputs.segmentIds as TensorInfo), attrs.numSegments as number),
);

export const WASM_GRADIENT_KERNELS: KernelConfig[] = [conv2dBackpropFilterConfig, depthwiseFilterConfig, depthwiseInputConfig, unsortedSegmentSumConfig];

/** Registers the kernels above for "wasm", skipping any that a newer wasm build already has. */
export function registerWasmGradientKernels(): string[] {
  const registered: string[] = [];
  for (const config of WASM_GRADIENT_KERNELS) {
    if (tf.getKernel(config.kernelName, "wasm") == null) {
      tf.registerKernel(config);
      registered.push(config.kernelName);
    }
  }
  return registered;
}
