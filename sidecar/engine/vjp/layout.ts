// Backward rules of the operators that move values without changing them: reshapes, transposes,
// concatenation and splits, slices and pads, and a constant single-index Gather (a ViT's class
// token). Each gives the gradient the input's layout back; the batch axis is never sliced.
import { attrInt, int, ints, type OnnxNode } from "../onnxModel.ts";
import { PROBE_BATCH } from "../probe.ts";
import { UnsupportedGradientError, dims, reshapeLike, shapeOf, valueOf, type Grad, type VjpContext, type VjpRule } from "./context.ts";

const rest = (node: OnnxNode): Grad[] => node.input.slice(1).map(() => null);

export const identity: VjpRule = (ctx, node, [g]) => [g && ctx.needs(node.input[0]) ? g : null, ...rest(node)];

/** Flatten, Reshape, Squeeze, Unsqueeze: the gradient takes the input's shape back. */
export const reshape: VjpRule = (ctx, node, [g]) => [g && ctx.needs(node.input[0]) ? reshapeLike(ctx, g, node.input[0]) : null, ...rest(node)];

export const transpose: VjpRule = (ctx, node, [g]) => {
  const x = node.input[0];
  if (!g || !ctx.needs(x)) return [null];
  const rank = dims(ctx, x, node).length;
  const perm = node.attribute?.find((a) => a.name === "perm")?.ints?.map(Number) ?? Array.from({ length: rank }, (_, i) => rank - 1 - i);
  const inverse = new Array<number>(rank);
  perm.forEach((p, i) => (inverse[p] = i));
  return [ctx.e.op("Transpose", [g], [ints("perm", inverse)])];
};

const axisOf = (ctx: VjpContext, node: OnnxNode, value: string) => {
  const rank = dims(ctx, value, node).length;
  const axis = attrInt(node, "axis", 0);
  return axis < 0 ? axis + rank : axis;
};

function sliceAxis(ctx: VjpContext, g: string, axis: number, start: number, end: number): string {
  return ctx.e.op("Slice", [g, ctx.e.constInt64([start]), ctx.e.constInt64([end]), ctx.e.constInt64([axis])]);
}

export const concat: VjpRule = (ctx, node, [g]) => {
  const y = node.output[0];
  const axis = axisOf(ctx, node, y);
  if (!g) return node.input.map(() => null);
  if (axis === 0) throw new UnsupportedGradientError(node, "concatenation along the batch axis is not supported");
  let offset = 0;
  return node.input.map((v) => {
    const size = dims(ctx, v, node)[axis];
    const start = offset;
    offset += size;
    return ctx.needs(v) ? sliceAxis(ctx, g, axis, start, start + size) : null;
  });
};

/** The parts' gradients joined again, zeros standing in for parts nothing used. */
export const split: VjpRule = (ctx, node, gOut) => {
  const x = node.input[0];
  if (!ctx.needs(x) || gOut.every((g) => !g)) return node.input.map(() => null);
  const axis = axisOf(ctx, node, x);
  const parts = node.output.map((o, i) => gOut[i] ?? ctx.e.op("ConstantOfShape", [shapeOf(ctx, o)]));
  return [ctx.e.op("Concat", parts, [int("axis", axis)]), ...rest(node)];
};

/** Slice with unit steps: the gradient padded with zeros where the slice left values out. */
export const slice: VjpRule = (ctx, node, [g]) => {
  const x = node.input[0];
  if (!g || !ctx.needs(x)) return node.input.map(() => null);
  const xd = dims(ctx, x, node);
  const rank = xd.length;
  const starts = valueOf(ctx, node.input[1]);
  const ends = valueOf(ctx, node.input[2]);
  if (!starts || !ends) throw new UnsupportedGradientError(node, "its bounds depend on the input");
  const axes = (valueOf(ctx, node.input[3]) ?? starts.map((_, i) => i)).map((a) => (a < 0 ? a + rank : a));
  const steps = valueOf(ctx, node.input[4]) ?? starts.map(() => 1);
  if (steps.some((s) => s < 1)) throw new UnsupportedGradientError(node, "slices with a negative step are not supported");
  const bounds = axes.map((axis, i) => {
    const d = xd[axis];
    const clamp = (v: number) => Math.min(d, Math.max(0, v < 0 ? v + d : v));
    const s = clamp(starts[i]);
    const e = Math.max(s, clamp(ends[i]));
    if (axis === 0 && (s !== 0 || e !== d || steps[i] !== 1)) throw new UnsupportedGradientError(node, "slicing the batch axis is not supported");
    return { axis, s, e, step: steps[i], n: Math.ceil((e - s) / steps[i]) };
  });
  // g's dims, the batch (axis 0) kept by Reshape's 0.
  const cur = [...xd];
  for (const b of bounds) cur[b.axis] = b.n;
  cur[0] = 0;
  let grad = g;
  const pads = new Array<number>(2 * rank).fill(0);
  for (const { axis, s, step, n } of bounds) {
    let len = n;
    if (step > 1) {
      // Every step-th element (x[:, 0::2] of a Swin patch merging): each of g's rows followed by
      // step − 1 rows of zeros, cut where the input ends; the start and the rest are padded below.
      const padsU = new Array<number>(2 * (rank + 1)).fill(0);
      padsU[rank + 1 + axis + 1] = step - 1;
      const spread = ctx.e.op("Pad", [ctx.e.op("Unsqueeze", [grad, ctx.e.constInt64([axis + 1], "axes")]), ctx.e.constInt64(padsU, "pads")]);
      len = Math.min(n * step, xd[axis] - s);
      cur[axis] = n * step;
      grad = ctx.e.op("Reshape", [spread, ctx.e.constInt64(cur)]);
      if (len < n * step) grad = ctx.e.op("Slice", [grad, ctx.e.constInt64([0]), ctx.e.constInt64([len]), ctx.e.constInt64([axis])]);
      cur[axis] = len;
    }
    pads[axis] = s;
    pads[rank + axis] = xd[axis] - s - len;
  }
  return [ctx.e.op("Pad", [grad, ctx.e.constInt64(pads, "pads")]), ...rest(node)];
};

/** Constant padding: the gradient is the unpadded window of g. */
export const pad: VjpRule = (ctx, node, [g]) => {
  const x = node.input[0];
  if (!g || !ctx.needs(x)) return node.input.map(() => null);
  const mode = node.attribute?.find((a) => a.name === "mode")?.s;
  if (mode && Buffer.from(mode).toString() !== "constant") throw new UnsupportedGradientError(node, "only constant padding is supported");
  const xd = dims(ctx, x, node);
  const rank = xd.length;
  const given = valueOf(ctx, node.input[1]) ?? node.attribute?.find((a) => a.name === "pads")?.ints?.map(Number);
  if (!given) throw new UnsupportedGradientError(node, "its pads depend on the input");
  const axes = (valueOf(ctx, node.input[3]) ?? Array.from({ length: given.length / 2 }, (_, i) => i)).map((a) => (a < 0 ? a + rank : a));
  const k = axes.length;
  if (given.some((p) => p < 0)) throw new UnsupportedGradientError(node, "negative pads (cropping) are not supported");
  const starts = axes.map((_, i) => given[i]);
  const ends = axes.map((a, i) => given[i] + xd[a]);
  if (axes.includes(0) && (given[axes.indexOf(0)] !== 0 || given[k + axes.indexOf(0)] !== 0)) {
    throw new UnsupportedGradientError(node, "padding the batch axis is not supported");
  }
  const safeEnds = axes.map((a, i) => (a === 0 ? Number.MAX_SAFE_INTEGER : ends[i]));
  return [ctx.e.op("Slice", [g, ctx.e.constInt64(starts), ctx.e.constInt64(safeEnds), ctx.e.constInt64(axes)]), ...rest(node)];
};

/** Gather of one constant index (x[:, 0]): g put back at that index, zeros elsewhere. */
export const gather: VjpRule = (ctx, node, [g]) => {
  const [x, idx] = node.input;
  if (!g || !ctx.needs(x)) return [null, null];
  const index = valueOf(ctx, idx);
  const idxDims = ctx.probe.get(idx)?.dims ?? ctx.initializers.get(idx)?.dims ?? [];
  if (!index || index.length !== 1 || idxDims.length > 1) throw new UnsupportedGradientError(node, "only a constant single index is supported");
  const axis = axisOf(ctx, node, x);
  const xd = dims(ctx, x, node);
  // Axis 0 is the batch unless the probe's batch of PROBE_BATCH images left it another size (a
  // Swin block's q, k, v = qkv[0], qkv[1], qkv[2] after moving the three to the front).
  if (axis === 0 && xd[0] === PROBE_BATCH) throw new UnsupportedGradientError(node, "gathering along the batch axis is not supported");
  const k = index[0] < 0 ? index[0] + xd[axis] : index[0];
  const g1 = idxDims.length === 0 ? ctx.e.op("Unsqueeze", [g, ctx.e.constInt64([axis], "axes")]) : g;
  const pads = new Array<number>(2 * xd.length).fill(0);
  pads[axis] = k;
  pads[xd.length + axis] = xd[axis] - k - 1;
  return [ctx.e.op("Pad", [g1, ctx.e.constInt64(pads, "pads")]), null];
};
