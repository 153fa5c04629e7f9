// Backward rules of normalisation layers as served (inference): BatchNormalization is a fixed
// per-channel scale, s / √(var + ε); LayerNormalization normalises by statistics of the value
// itself, so its gradient carries the two mean terms of the normalisation.
import { attrFloat, attrInt, tensorValues } from "../onnxModel.ts";
import { UnsupportedGradientError, dims, reduceSum, type VjpRule } from "./context.ts";

export const batchNormalization: VjpRule = (ctx, node, [g]) => {
  const [x, scale, , , variance] = node.input;
  if (!g || !ctx.needs(x)) return node.input.map(() => null);
  const s = ctx.initializers.get(scale);
  const v = ctx.initializers.get(variance);
  if (!s || !v) throw new UnsupportedGradientError(node, "its scale and variance must be stored constants");
  const eps = attrFloat(node, "epsilon", 1e-5);
  const sv = tensorValues(s);
  const vv = tensorValues(v);
  const factor = Float32Array.from(sv, (si, i) => si / Math.sqrt(vv[i] + eps));
  const rank = dims(ctx, x, node).length;
  const shape = [sv.length, ...Array(Math.max(0, rank - 2)).fill(1)];
  return [ctx.e.op("Mul", [g, ctx.e.constFloat(shape, factor, "bn_factor")]), null, null, null, null];
};

/**
 * With x̂ = (x − μ)/σ over the normalised axes (M elements) and h = g ⊙ scale:
 *   dx = (h − mean(h) − x̂ ⊙ mean(h ⊙ x̂)) / σ
 */
export const layerNormalization: VjpRule = (ctx, node, [g]) => {
  const [x, scale] = node.input;
  if (!g || !ctx.needs(x)) return node.input.map(() => null);
  if (ctx.needs(scale)) throw new UnsupportedGradientError(node, "a scale computed from the input is not supported");
  const xd = dims(ctx, x, node);
  const rank = xd.length;
  let axis = attrInt(node, "axis", -1);
  if (axis < 0) axis += rank;
  const axes = Array.from({ length: rank - axis }, (_, i) => axis + i);
  const m = axes.reduce((a, i) => a * xd[i], 1);
  const e = ctx.e;
  const mean = (v: string) => e.op("Mul", [reduceSum(ctx, v, axes, true), e.scalar(1 / m)]);
  const centred = e.op("Sub", [x, mean(x)]);
  const variance = mean(e.op("Mul", [centred, centred]));
  const inverseStd = e.op("Reciprocal", [e.op("Sqrt", [e.op("Add", [variance, e.scalar(attrFloat(node, "epsilon", 1e-5))])])]);
  const xHat = e.op("Mul", [centred, inverseStd]);
  const h = e.op("Mul", [g, scale]);
  const inner = e.op("Sub", [e.op("Sub", [h, mean(h)]), e.op("Mul", [xHat, mean(e.op("Mul", [h, xHat]))])]);
  return [e.op("Mul", [inner, inverseStd]), ...node.input.slice(1).map(() => null)];
};
