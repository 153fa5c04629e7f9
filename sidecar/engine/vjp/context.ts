// What every operator's backward rule (one group of operators a file in this folder) is given:
// the emitter that appends nodes, the probed shapes and small values of the forward graph, and
// the helpers the rules share (broadcast reduction, Shape nodes, masks). A rule returns, for
// each input of its node, the name of that input's gradient or null (no gradient flows there).
import type { Emitter, OnnxNode, OnnxTensor } from "../onnxModel.ts";
import { attrInt, int, ints, tensorValues } from "../onnxModel.ts";
import type { Probe } from "../probe.ts";

export type ReluRule = "normal" | "guided" | "deconv";

/** An operator, or one use of it, the gradient graphs do not cover; names the node. */
export class UnsupportedGradientError extends Error {
  constructor(node: OnnxNode, why: string) {
    super(`${node.opType} node "${node.name || node.output[0]}": ${why}`);
    this.name = "UnsupportedGradientError";
  }
}

export interface VjpContext {
  e: Emitter;
  relu: ReluRule;
  probe: Probe;
  initializers: Map<string, OnnxTensor>;
  /** Values of Constant nodes' outputs. */
  constants: Map<string, number[]>;
  /** Whether a gradient flows to this value (a float value computed from the input). */
  needs(name: string): boolean;
}

export type Grad = string | null;
export type VjpRule = (ctx: VjpContext, node: OnnxNode, gOut: Grad[]) => Grad[] | Promise<Grad[]>;

export function dims(ctx: VjpContext, name: string, node: OnnxNode): number[] {
  const p = ctx.probe.get(name) ?? (ctx.initializers.has(name) ? { dims: (ctx.initializers.get(name)!.dims ?? []).map(Number) } : undefined);
  if (!p) throw new UnsupportedGradientError(node, `the shape of "${name}" is unknown`);
  return p.dims;
}

/** The contents of an initializer, a Constant node's output or a small probed value. */
export function valueOf(ctx: VjpContext, name: string | undefined): number[] | undefined {
  if (!name) return undefined;
  const init = ctx.initializers.get(name);
  if (init) return Array.from(tensorValues(init));
  const c = ctx.constants.get(name);
  if (c) return c;
  if (ctx.needs(name)) return undefined;
  return ctx.probe.get(name)?.values;
}

const shapes = new WeakMap<Emitter, Map<string, string>>();
/** A Shape node of a forward value (one per value). */
export function shapeOf(ctx: VjpContext, name: string): string {
  let m = shapes.get(ctx.e);
  if (!m) shapes.set(ctx.e, (m = new Map()));
  let s = m.get(name);
  if (!s) m.set(name, (s = ctx.e.op("Shape", [name])));
  return s;
}

export const reshapeLike = (ctx: VjpContext, g: string, like: string) => ctx.e.op("Reshape", [g, shapeOf(ctx, like)]);

/** Float 0/1 of a boolean node. */
export const asFloat = (ctx: VjpContext, b: string) => ctx.e.op("Cast", [b], [int("to", 1)]);

export function reduceSum(ctx: VjpContext, x: string, axes: number[], keep: boolean): string {
  return ctx.e.op("ReduceSum", [x, ctx.e.constInt64(axes, "axes")], [int("keepdims", keep ? 1 : 0)]);
}

/**
 * The gradient of a broadcast operand: sums `g` (shaped like the op's output, or as given) over the axes
 * along which `target` was broadcast, then gives it target's shape. Shapes come from the probe's
 * batch of two, so the batch axis is never taken for a broadcast one.
 */
export function reduceTo(ctx: VjpContext, g: string, shapedLike: string | number[], target: string, node: OnnxNode): string {
  const out = typeof shapedLike === "string" ? dims(ctx, shapedLike, node) : shapedLike;
  const t = dims(ctx, target, node);
  const padded = [...Array(out.length - t.length).fill(1), ...t];
  const axes = out.map((d, i) => (padded[i] === 1 && d !== 1 ? i : -1)).filter((i) => i >= 0);
  const summed = axes.length ? reduceSum(ctx, g, axes, true) : g;
  if (axes.length === 0 && out.length === t.length) return summed;
  return reshapeLike(ctx, summed, target);
}

export function transposeLast2(ctx: VjpContext, x: string, rank: number): string {
  const perm = Array.from({ length: rank }, (_, i) => i);
  [perm[rank - 2], perm[rank - 1]] = [perm[rank - 1], perm[rank - 2]];
  return ctx.e.op("Transpose", [x], [ints("perm", perm)]);
}

/** Explicit [begin…, end…] pads of a windowed op, from its pads or auto_pad and known sizes. */
export function windowPads(node: OnnxNode, inSize: number[], outSize: number[], kernel: number[], strides: number[], dil: number[]): number[] {
  const autoPad = node.attribute?.find((a) => a.name === "auto_pad")?.s;
  const mode = autoPad ? Buffer.from(autoPad).toString() : "NOTSET";
  const n = kernel.length;
  if (mode === "NOTSET" || mode === "") {
    const p = node.attribute?.find((a) => a.name === "pads")?.ints;
    return p && p.length === 2 * n ? p.map(Number) : Array(2 * n).fill(0);
  }
  if (mode === "VALID") return Array(2 * n).fill(0);
  const begin: number[] = [];
  const end: number[] = [];
  for (let i = 0; i < n; i++) {
    const total = Math.max(0, (outSize[i] - 1) * strides[i] + (kernel[i] - 1) * dil[i] + 1 - inSize[i]);
    const small = Math.floor(total / 2);
    begin.push(mode === "SAME_LOWER" ? total - small : small);
    end.push(mode === "SAME_LOWER" ? small : total - small);
  }
  return [...begin, ...end];
}

export const intsOr = (node: OnnxNode, name: string, n: number, dflt: number): number[] =>
  node.attribute?.find((a) => a.name === name)?.ints?.map(Number) ?? Array(n).fill(dflt);

export { attrInt };
