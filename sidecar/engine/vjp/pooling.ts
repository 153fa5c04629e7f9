// Backward rules of pooling and reductions. MaxPool sends each output's gradient to the one
// input element its window chose, read from the indices onnxruntime reports (the first maximum
// in scan order, as PyTorch's max_pool2d picks it), scattered with addition where windows
// overlap. AveragePool spreads g/divisor back over each window with a transposed depthwise
// convolution of ones, the divisor being what the forward divided by at each output position.
import { attrInt, int, ints, str, type OnnxNode } from "../onnxModel.ts";
import { UnsupportedGradientError, dims, intsOr, shapeOf, valueOf, windowPads, type VjpContext, type VjpRule } from "./context.ts";

/** MaxPool gets an Indices output in the forward graph (gradientGraph.ts adds it) and scatters. */
export const maxPool: VjpRule = (ctx, node, [g]) => {
  const x = node.input[0];
  if (!g || !ctx.needs(x)) return [null];
  const indices = node.output[1];
  if (!indices) throw new UnsupportedGradientError(node, "its indices output is missing");
  const flat = ctx.e.constInt64([-1]);
  const zeros = ctx.e.op("Reshape", [ctx.e.op("ConstantOfShape", [shapeOf(ctx, x)]), flat]);
  const scattered = ctx.e.op(
    "ScatterElements",
    [zeros, ctx.e.op("Reshape", [indices, flat]), ctx.e.op("Reshape", [g, flat])],
    [int("axis", 0), str("reduction", "add")],
  );
  return [ctx.e.op("Reshape", [scattered, shapeOf(ctx, x)])];
};

/**
 * What onnxruntime's AveragePool divides each output by: the window's size clipped to the padded
 * input (count_include_pad) or to the input itself.
 */
export function averageDivisors(inSize: number[], outSize: number[], kernel: number[], strides: number[], pads: number[], includePad: boolean): Float32Array {
  const [h, w] = inSize;
  const [ho, wo] = outSize;
  const out = new Float32Array(ho * wo);
  for (let i = 0; i < ho; i++) {
    for (let j = 0; j < wo; j++) {
      let hs = i * strides[0] - pads[0];
      let ws = j * strides[1] - pads[1];
      let he = Math.min(hs + kernel[0], h + pads[2]);
      let we = Math.min(ws + kernel[1], w + pads[3]);
      const padded = (he - hs) * (we - ws);
      hs = Math.max(hs, 0);
      ws = Math.max(ws, 0);
      he = Math.min(he, h);
      we = Math.min(we, w);
      out[i * wo + j] = includePad ? padded : (he - hs) * (we - ws);
    }
  }
  return out;
}

export const averagePool: VjpRule = (ctx, node, [g]) => {
  const x = node.input[0];
  if (!g || !ctx.needs(x)) return [null];
  const xd = dims(ctx, x, node);
  const yd = dims(ctx, node.output[0], node);
  if (xd.length !== 4) throw new UnsupportedGradientError(node, "only 2-D pooling is supported");
  const kernel = intsOr(node, "kernel_shape", 2, 1);
  const strides = intsOr(node, "strides", 2, 1);
  if (intsOr(node, "dilations", 2, 1).some((d) => d !== 1)) throw new UnsupportedGradientError(node, "dilated average pooling is not supported");
  const pads = windowPads(node, xd.slice(2), yd.slice(2), kernel, strides, [1, 1]);
  const divisors = averageDivisors(xd.slice(2), yd.slice(2), kernel, strides, pads, attrInt(node, "count_include_pad", 0) === 1);
  const scaled = ctx.e.op("Div", [g, ctx.e.constFloat([1, 1, yd[2], yd[3]], divisors, "divisors")]);
  const c = xd[1];
  const ones = ctx.e.constFloat([c, 1, kernel[0], kernel[1]], new Float32Array(c * kernel[0] * kernel[1]).fill(1), "window");
  const outPad: number[] = [];
  for (let i = 0; i < 2; i++) {
    const covered = (yd[2 + i] - 1) * strides[i] + kernel[i] - pads[i] - pads[2 + i];
    const extra = xd[2 + i] - covered;
    // ceil_mode windows reach past the padded input: crop what lies beyond it.
    if (extra < 0) pads[2 + i] += -extra;
    outPad.push(Math.max(0, extra));
  }
  const dx = ctx.e.op("ConvTranspose", [scaled, ones], [ints("strides", strides), int("group", c), ints("pads", pads), ints("output_padding", outPad)]);
  return [dx];
};

function spread(ctx: VjpContext, node: OnnxNode, g: string, x: string, axes: number[], keep: boolean, scale: number): string {
  const kept = keep ? g : ctx.e.op("Unsqueeze", [g, ctx.e.constInt64(axes, "axes")]);
  const expanded = ctx.e.op("Expand", [kept, shapeOf(ctx, x)]);
  return scale === 1 ? expanded : ctx.e.op("Mul", [expanded, ctx.e.scalar(scale)]);
}

export const globalAveragePool: VjpRule = (ctx, node, [g]) => {
  const x = node.input[0];
  if (!g || !ctx.needs(x)) return [null];
  const count = dims(ctx, x, node)
    .slice(2)
    .reduce((a, b) => a * b, 1);
  return [spread(ctx, node, g, x, [], true, 1 / count)];
};

function reductionAxes(ctx: VjpContext, node: OnnxNode): number[] {
  const rank = dims(ctx, node.input[0], node).length;
  const given = node.attribute?.find((a) => a.name === "axes")?.ints?.map(Number) ?? valueOf(ctx, node.input[1]);
  if (!given || given.length === 0) {
    if (attrInt(node, "noop_with_empty_axes", 0)) throw new UnsupportedGradientError(node, "noop_with_empty_axes is not supported");
    return Array.from({ length: rank }, (_, i) => i);
  }
  return given.map((a) => (a < 0 ? a + rank : a)).sort((a, b) => a - b);
}

const reduction =
  (mean: boolean): VjpRule =>
  (ctx, node, [g]) => {
    const x = node.input[0];
    if (!g || !ctx.needs(x)) return node.input.map(() => null);
    const axes = reductionAxes(ctx, node);
    const xd = dims(ctx, x, node);
    const count = axes.reduce((a, ax) => a * xd[ax], 1);
    return [spread(ctx, node, g, x, axes, attrInt(node, "keepdims", 1) === 1, mean ? 1 / count : 1), ...node.input.slice(1).map(() => null)];
  };
export const reduceMean = reduction(true);
export const reduceSumRule = reduction(false);
