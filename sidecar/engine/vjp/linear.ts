// Backward rules of the linear operators: Conv (its input gradient is the transposed
// convolution with the same weights), Gemm and MatMul (products with the other operand
// transposed, reduced over broadcast batch axes).
import { attrFloat, attrInt, float, int, ints, tensorValues, type OnnxTensor } from "../onnxModel.ts";
import { UnsupportedGradientError, dims, intsOr, reduceTo, transposeLast2, windowPads, type Grad, type VjpContext, type VjpRule } from "./context.ts";

/**
 * ConvTranspose(g, W) with the Conv's strides, dilations, groups and pads gives ∂/∂X; the
 * output padding restores rows and columns a strided Conv never read (they get zero gradient).
 */
export const conv: VjpRule = (ctx, node, [g]) => {
  const [x, w] = node.input;
  if (!g || !ctx.needs(x)) return [null, null, null];
  if (ctx.needs(w)) throw new UnsupportedGradientError(node, "weights computed from the input are not supported");
  const xd = dims(ctx, x, node);
  const yd = dims(ctx, node.output[0], node);
  const wd = dims(ctx, w, node);
  const n = xd.length - 2;
  const kernel = wd.slice(2);
  const strides = intsOr(node, "strides", n, 1);
  const dil = intsOr(node, "dilations", n, 1);
  const pads = windowPads(node, xd.slice(2), yd.slice(2), kernel, strides, dil);
  const init = ctx.initializers.get(w);
  if (init && strides.every((st) => st === 1) && n === 2 && pads.every((p, i) => p <= (kernel[i % n] - 1) * dil[i % n])) {
    return [flippedConv(ctx, g, init, wd, dil, pads, attrInt(node, "group", 1)), null, null];
  }
  const outPad: number[] = [];
  for (let i = 0; i < n; i++) {
    const covered = (yd[2 + i] - 1) * strides[i] + (kernel[i] - 1) * dil[i] + 1 - pads[i] - pads[n + i];
    const extra = xd[2 + i] - covered;
    if (extra < 0) pads[n + i] += -extra;
    outPad.push(Math.max(0, extra));
  }
  const dx = ctx.e.op(
    "ConvTranspose",
    [g, w],
    [ints("strides", strides), ints("dilations", dil), int("group", attrInt(node, "group", 1)), ints("pads", pads), ints("output_padding", outPad)],
  );
  return [dx, null, null];
};

/**
 * A stride-1 Conv's input gradient as a Conv ("full" correlation with the kernel flipped and its
 * channel axes swapped within each group): the same values as ConvTranspose, but onnxruntime runs
 * it on its fast blocked-layout convolution kernels, where ConvTranspose goes through col2im.
 */
function flippedConv(ctx: VjpContext, g: string, w: OnnxTensor, wd: number[], dil: number[], pads: number[], group: number): string {
  const [co, cig, kh, kw] = wd;
  const cog = co / group;
  const src = tensorValues(w);
  const out = new Float32Array(src.length);
  // W'[gi·cig + i, o, y, x] = W[gi·cog + o, i, kh−1−y, kw−1−x]
  for (let gi = 0; gi < group; gi++)
    for (let o = 0; o < cog; o++)
      for (let i = 0; i < cig; i++)
        for (let y = 0; y < kh; y++)
          for (let x = 0; x < kw; x++)
            out[(((gi * cig + i) * cog + o) * kh + y) * kw + x] = src[(((gi * cog + o) * cig + i) * kh + (kh - 1 - y)) * kw + (kw - 1 - x)];
  const flipped = ctx.e.constFloat([cig * group, cog, kh, kw], out, "flipped_kernel");
  const full = [(kh - 1) * dil[0] - pads[0], (kw - 1) * dil[1] - pads[1], (kh - 1) * dil[0] - pads[2], (kw - 1) * dil[1] - pads[3]];
  return ctx.e.op("Conv", [g, flipped], [ints("dilations", dil), int("group", group), ints("pads", full)]);
}

/** Y = α·op(A)·op(B) + β·C. */
export const gemm: VjpRule = (ctx, node, [g]) => {
  const [a, b, c] = node.input;
  if (!g) return [null, null, null];
  const alpha = attrFloat(node, "alpha", 1);
  const beta = attrFloat(node, "beta", 1);
  const tA = attrInt(node, "transA", 0);
  const tB = attrInt(node, "transB", 0);
  const gemmOf = (p: string, q: string, ta: number, tb: number) => ctx.e.op("Gemm", [p, q], [float("alpha", alpha), int("transA", ta), int("transB", tb)]);
  // d op(A) = α g op(B)ᵀ; for transA the gradient of A is its transpose: α op(B) gᵀ.
  const da = ctx.needs(a) ? (tA ? gemmOf(b, g, tB, 1) : gemmOf(g, b, 0, 1 - tB)) : null;
  // d op(B) = α op(A)ᵀ g; for transB: α gᵀ op(A).
  const db = ctx.needs(b) ? (tB ? gemmOf(g, a, 1, tA) : gemmOf(a, g, 1 - tA, 0)) : null;
  let dc: Grad = null;
  if (c && ctx.needs(c)) dc = reduceTo(ctx, beta === 1 ? g : ctx.e.op("Mul", [g, ctx.e.scalar(beta)]), node.output[0], c, node);
  return [da, db, dc];
};

/** numpy matmul of operands of rank ≥ 2: dA = g·Bᵀ, dB = Aᵀ·g, each summed over broadcast axes. */
export const matMul: VjpRule = (ctx, node, [g]) => {
  const [a, b] = node.input;
  if (!g) return [null, null];
  const ad = dims(ctx, a, node);
  const bd = dims(ctx, b, node);
  if (ad.length < 2 || bd.length < 2) throw new UnsupportedGradientError(node, "vector operands (rank 1) are not supported");
  const batch = dims(ctx, node.output[0], node).slice(0, -2);
  const da = ctx.needs(a) ? reduceTo(ctx, ctx.e.op("MatMul", [g, transposeLast2(ctx, b, bd.length)]), [...batch, ...ad.slice(-2)], a, node) : null;
  const db = ctx.needs(b) ? reduceTo(ctx, ctx.e.op("MatMul", [transposeLast2(ctx, a, ad.length), g]), [...batch, ...bd.slice(-2)], b, node) : null;
  return [da, db];
};
