// Backward rules of the pointwise nonlinearities, with PyTorch's conventions at the kinks
// (ReLU and ReLU6 pass nothing at exactly 0 or 6; Hardswish and Hardsigmoid as
// torch.nn.functional defines their derivatives), and the three ReLU rules of Captum's
// GuidedBackprop and Deconvolution hooks, which apply to Relu nodes only (nn.ReLU), as
// sidecar/zoo/relu.ts applies them to the zoo's own networks:
//   normal:  dx = dy · [x > 0]
//   guided:  dx = dy · [x > 0] · [dy > 0]
//   deconv:  dx = max(dy, 0)
import { attrFloat, attrInt, int, type OnnxNode } from "../onnxModel.ts";
import { UnsupportedGradientError, asFloat, reduceSum, valueOf, type VjpContext, type VjpRule } from "./context.ts";

const mask = (ctx: VjpContext, g: string, cond: string) => ctx.e.op("Mul", [g, asFloat(ctx, cond)]);
const positive = (ctx: VjpContext, x: string) => ctx.e.op("Greater", [x, ctx.e.scalar(0)]);

/** A rule for a one-input op whose gradient is g times a factor built from X and Y. */
const pointwise =
  (factor: (ctx: VjpContext, x: string, y: string, node: OnnxNode) => string): VjpRule =>
  (ctx, node, [g]) =>
    g && ctx.needs(node.input[0])
      ? [ctx.e.op("Mul", [g, factor(ctx, node.input[0], node.output[0], node)]), ...node.input.slice(1).map(() => null)]
      : node.input.map(() => null);

export const relu: VjpRule = (ctx, node, [g]) => {
  const x = node.input[0];
  if (!g || !ctx.needs(x)) return [null];
  if (ctx.relu === "deconv") return [ctx.e.op("Relu", [g])];
  if (ctx.relu === "guided") return [mask(ctx, ctx.e.op("Relu", [g]), positive(ctx, x))];
  return [mask(ctx, g, positive(ctx, x))];
};

export const leakyRelu: VjpRule = (ctx, node, [g]) => {
  const x = node.input[0];
  if (!g || !ctx.needs(x)) return [null];
  const alpha = attrFloat(node, "alpha", 0.01);
  return [ctx.e.op("Where", [positive(ctx, x), g, ctx.e.op("Mul", [g, ctx.e.scalar(alpha)])])];
};

/** PRelu with a constant slope (the learned one of a served model). */
export const pRelu: VjpRule = (ctx, node, [g]) => {
  const [x, slope] = node.input;
  if (!g || !ctx.needs(x)) return [null, null];
  return [ctx.e.op("Where", [positive(ctx, x), g, ctx.e.op("Mul", [g, slope])]), null];
};

/** Clip as ReLU6 (hardtanh) back-propagates: nothing at or beyond either bound. */
export const clip: VjpRule = (ctx, node, [g]) => {
  const x = node.input[0];
  if (!g || !ctx.needs(x)) return node.input.map(() => null);
  const lo = valueOf(ctx, node.input[1])?.[0] ?? (node.input.length < 2 ? attrFloat(node, "min", -Infinity) : -Infinity);
  const hi = valueOf(ctx, node.input[2])?.[0] ?? (node.input.length < 3 ? attrFloat(node, "max", Infinity) : Infinity);
  let cond: string | null = null;
  if (Number.isFinite(lo)) cond = ctx.e.op("Greater", [x, ctx.e.scalar(lo)]);
  if (Number.isFinite(hi)) {
    const below = ctx.e.op("Less", [x, ctx.e.scalar(hi)]);
    cond = cond ? ctx.e.op("And", [cond, below]) : below;
  }
  return [cond ? mask(ctx, g, cond) : g, ...node.input.slice(1).map(() => null)];
};

export const sigmoid = pointwise((ctx, _x, y) => ctx.e.op("Mul", [y, ctx.e.op("Sub", [ctx.e.scalar(1), y])]));
export const tanh = pointwise((ctx, _x, y) => ctx.e.op("Sub", [ctx.e.scalar(1), ctx.e.op("Mul", [y, y])]));
export const exp = pointwise((_ctx, _x, y) => y);
export const log = pointwise((ctx, x) => ctx.e.op("Reciprocal", [x]));
export const sqrt = pointwise((ctx, _x, y) => ctx.e.op("Div", [ctx.e.scalar(0.5), y]));
export const reciprocal = pointwise((ctx, _x, y) => ctx.e.op("Neg", [ctx.e.op("Mul", [y, y])]));
export const abs = pointwise((ctx, x) => ctx.e.op("Sign", [x]));
/** erf'(x) = 2/√π · exp(−x²): GELU as PyTorch exports it at opset 17 (x·½·(1 + erf(x/√2))). */
export const erf = pointwise((ctx, x) =>
  ctx.e.op("Mul", [ctx.e.scalar(2 / Math.sqrt(Math.PI)), ctx.e.op("Exp", [ctx.e.op("Neg", [ctx.e.op("Mul", [x, x])])])]),
);
/** x^p with a constant exponent p: p·x^(p−1). */
export const pow = pointwise((ctx, x, _y, node) => {
  const p = valueOf(ctx, node.input[1]);
  if (!p || p.length !== 1 || ctx.needs(node.input[1])) throw new UnsupportedGradientError(node, "only a constant scalar exponent is supported");
  return ctx.e.op("Mul", [ctx.e.scalar(p[0]), ctx.e.op("Pow", [x, ctx.e.scalar(p[0] - 1)])]);
});

/** torch.nn.functional.hardsigmoid's derivative: α inside (−β/α, (1−β)/α), else 0 (open interval). */
export const hardSigmoid = pointwise((ctx, x, _y, node) => {
  const alpha = attrFloat(node, "alpha", 0.2);
  const beta = attrFloat(node, "beta", 0.5);
  const inside = ctx.e.op("And", [ctx.e.op("Greater", [x, ctx.e.scalar(-beta / alpha)]), ctx.e.op("Less", [x, ctx.e.scalar((1 - beta) / alpha)])]);
  return ctx.e.op("Mul", [asFloat(ctx, inside), ctx.e.scalar(alpha)]);
});

/** torch's hardswish_backward: 0 below −3, x/3 + ½ up to and including 3, 1 above. */
export const hardSwish = pointwise((ctx, x) => {
  const mid = ctx.e.op("Add", [ctx.e.op("Div", [x, ctx.e.scalar(3)]), ctx.e.scalar(0.5)]);
  const upper = ctx.e.op("Where", [ctx.e.op("LessOrEqual", [x, ctx.e.scalar(3)]), mid, ctx.e.scalar(1)]);
  return ctx.e.op("Where", [ctx.e.op("Less", [x, ctx.e.scalar(-3)]), ctx.e.scalar(0), upper]);
});

export const neg: VjpRule = (ctx, node, [g]) => [g && ctx.needs(node.input[0]) ? ctx.e.op("Neg", [g]) : null];

function softmaxAxis(ctx: VjpContext, node: OnnxNode): number {
  const rank = ctx.probe.get(node.output[0])?.dims.length ?? 2;
  const axis = attrInt(node, "axis", -1);
  return axis < 0 ? axis + rank : axis;
}

/** dx = y ⊙ (g − Σ g⊙y) along the axis (opset 13 semantics: one axis). */
export const softmax: VjpRule = (ctx, node, [g]) => {
  const y = node.output[0];
  if (!g || !ctx.needs(node.input[0])) return [null];
  const s = reduceSum(ctx, ctx.e.op("Mul", [g, y]), [softmaxAxis(ctx, node)], true);
  return [ctx.e.op("Mul", [y, ctx.e.op("Sub", [g, s])])];
};

/** dx = g − exp(y) ⊙ Σ g. */
export const logSoftmax: VjpRule = (ctx, node, [g]) => {
  const y = node.output[0];
  if (!g || !ctx.needs(node.input[0])) return [null];
  const s = reduceSum(ctx, g, [softmaxAxis(ctx, node)], true);
  return [ctx.e.op("Sub", [g, ctx.e.op("Mul", [ctx.e.op("Exp", [y]), s])])];
};

/** Cast between float types (the only casts on a gradient's path). */
export const cast: VjpRule = (ctx, node, [g]) => [g && ctx.needs(node.input[0]) ? ctx.e.op("Cast", [g], [int("to", 1)]) : null];
