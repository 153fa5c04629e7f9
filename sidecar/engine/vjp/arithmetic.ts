// Backward rules of the broadcasting arithmetic operators: each operand's gradient is summed
// over the axes along which it was broadcast (context.ts reduceTo).
import { reduceTo, type VjpRule } from "./context.ts";

export const add: VjpRule = (ctx, node, [g]) => {
  const y = node.output[0];
  return node.input.map((v) => (g && ctx.needs(v) ? reduceTo(ctx, g, y, v, node) : null));
};
/** Sum of any number of operands: each gets the whole gradient. */
export const sum = add;

export const sub: VjpRule = (ctx, node, [g]) => {
  const [a, b] = node.input;
  const y = node.output[0];
  if (!g) return [null, null];
  return [ctx.needs(a) ? reduceTo(ctx, g, y, a, node) : null, ctx.needs(b) ? ctx.e.op("Neg", [reduceTo(ctx, g, y, b, node)]) : null];
};

export const mul: VjpRule = (ctx, node, [g]) => {
  const [a, b] = node.input;
  const y = node.output[0];
  if (!g) return [null, null];
  return [ctx.needs(a) ? reduceTo(ctx, ctx.e.op("Mul", [g, b]), y, a, node) : null, ctx.needs(b) ? reduceTo(ctx, ctx.e.op("Mul", [g, a]), y, b, node) : null];
};

/** y = a / b: da = g / b, db = −g·y / b. */
export const div: VjpRule = (ctx, node, [g]) => {
  const [a, b] = node.input;
  const y = node.output[0];
  if (!g) return [null, null];
  return [
    ctx.needs(a) ? reduceTo(ctx, ctx.e.op("Div", [g, b]), y, a, node) : null,
    ctx.needs(b) ? reduceTo(ctx, ctx.e.op("Neg", [ctx.e.op("Div", [ctx.e.op("Mul", [g, y]), b])]), y, b, node) : null,
  ];
};

/** Expand broadcasts its input to a shape: the gradient is summed back. */
export const expand: VjpRule = (ctx, node, [g]) => [g && ctx.needs(node.input[0]) ? reduceTo(ctx, g, node.output[0], node.input[0], node) : null, null];
