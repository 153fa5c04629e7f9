// Gradients without autograd in the runtime: from a served forward graph, a second graph that
// returns the logits and ∂(seed · logits)/∂input, and for layer methods a value's activation and
// its gradient. onnxruntime's inference build has no training ops, so the backward pass is
// written out as ordinary ONNX nodes, in reverse topological order, one rule per operator
// (vjp/index.ts), and runs on whatever execution provider runs the forward pass. The seed is an
// input ([N, classes], one-hot rows for one target each), so one graph serves every target.
import { decodeModel, encodeModel, Emitter, opsetOf, tensorValues, type OnnxModel, type OnnxTensor } from "./onnxModel.ts";
import type { Probe } from "./probe.ts";
import { UnsupportedGradientError, type Grad, type ReluRule, type VjpContext } from "./vjp/context.ts";
import { vjpRules } from "./vjp/index.ts";

export const GRAD_SEED = "grad_seed";
export const GRAD_INPUT = "grad_input";
export const layerGradName = (layer: string) => `grad_of/${layer}`;

/** Opset 13 fixed the operators' current input forms (axes as inputs); ScatterElements' add needs 16. */
export const MIN_GRADIENT_OPSET = 13;
const GRADIENT_OPSET = 17;

/** Operators whose outputs never carry a gradient (integers, booleans, shapes). */
const NO_GRADIENT = new Set([
  "Shape",
  "Size",
  "Constant",
  "ConstantOfShape",
  "ArgMax",
  "ArgMin",
  "NonZero",
  "Equal",
  "Greater",
  "GreaterOrEqual",
  "Less",
  "LessOrEqual",
  "Not",
  "And",
  "Or",
  "Range",
  "OneHot",
]);

export interface GradientGraphOptions {
  relu: ReluRule;
  /** Values whose activation and gradient are returned too (LayerGradCam's layer). */
  layers?: string[];
}

export interface GradientGraph {
  bytes: Uint8Array;
  /** Names of the graph's outputs: logits, the input gradient, then [activation, gradient] per layer. */
  outputs: string[];
}

/** Which values carry a gradient: floats computed from the input other than through Shape. */
function gradientPaths(model: OnnxModel, input: string, probe: Probe): Set<string> {
  const needs = new Set([input]);
  for (const node of model.graph.node) {
    if (NO_GRADIENT.has(node.opType)) continue;
    if (!node.input.some((v) => needs.has(v))) continue;
    for (const o of node.output) if (o && probe.get(o)?.type === "float32") needs.add(o);
  }
  return needs;
}

/**
 * The gradient graph of a served forward model (input `input`, first output the logits).
 * `probe` holds every value's shape at a batch of two (probe.ts).
 */
export async function buildGradientGraph(forward: Uint8Array, input: string, probe: Probe, opts: GradientGraphOptions): Promise<GradientGraph> {
  const model = decodeModel(forward);
  const opset = opsetOf(model);
  if (opset < MIN_GRADIENT_OPSET) {
    throw new UnsupportedGradientError(
      { opType: "model", name: `opset ${opset}`, input: [], output: [] },
      `gradient methods need opset ${MIN_GRADIENT_OPSET} or later; export the model again with opset_version=17`,
    );
  }
  // Opsets 13–16 read the same for every covered operator; 17 adds ScatterElements' reduction.
  const defaultDomain = model.opsetImport.find((o) => !o.domain || o.domain === "ai.onnx")!;
  defaultDomain.version = Math.max(opset, GRADIENT_OPSET);
  const graph = model.graph;
  const logits = graph.output[0].name;
  const needs = gradientPaths(model, input, probe);
  for (const layer of opts.layers ?? []) {
    if (!needs.has(layer)) throw new Error(`layer "${layer}" is not a value computed from the input`);
  }

  const initializers = new Map<string, OnnxTensor>();
  for (const t of graph.initializer) if (t.name) initializers.set(t.name, t);
  // torch.onnx.export shares a weight used twice through Identity nodes and writes some as
  // Constant nodes: both are stored constants to the rules that need one (BatchNormalization).
  for (const n of graph.node) {
    const value = n.opType === "Constant" ? n.attribute?.find((a) => a.name === "value")?.t : undefined;
    if (value) initializers.set(n.output[0], value);
    else if (n.opType === "Identity" && initializers.has(n.input[0])) initializers.set(n.output[0], initializers.get(n.input[0])!);
  }
  const constants = new Map<string, number[]>();
  for (const n of graph.node) {
    const t = n.opType === "Constant" ? n.attribute?.find((a) => a.name === "value")?.t : undefined;
    if (t && (t.dims ?? []).reduce((a, b) => a * b, 1) <= 64) constants.set(n.output[0], Array.from(tensorValues(t)));
  }

  const e = new Emitter(graph);
  // MaxPool's backward rule reads the forward pass's argmax: ask the forward node for it.
  for (const n of graph.node) {
    if (n.opType === "MaxPool" && needs.has(n.input[0]) && !n.output[1]) n.output[1] = e.fresh("maxpool_indices");
  }
  const forwardNodes = graph.node.slice();
  const ctx: VjpContext = { e, relu: opts.relu, probe, initializers, constants, needs: (v) => needs.has(v) };
  const rules = vjpRules(opset);

  const parts = new Map<string, string[]>();
  const total = new Map<string, string>();
  const gradOf = (v: string): Grad => {
    const done = total.get(v);
    if (done) return done;
    const p = parts.get(v);
    if (!p || p.length === 0) return null;
    const g = p.length === 1 ? p[0] : e.op("Sum", p, [], "accumulate");
    total.set(v, g);
    return g;
  };
  parts.set(logits, [GRAD_SEED]);

  for (let i = forwardNodes.length - 1; i >= 0; i--) {
    const node = forwardNodes[i];
    if (!node.input.some((v) => needs.has(v))) continue;
    const gOut = node.output.map((o) => (o && needs.has(o) ? gradOf(o) : null));
    if (gOut.every((g) => g === null)) continue;
    const rule = rules[node.opType];
    if (!rule) throw new UnsupportedGradientError(node, "this operator has no gradient rule in the engine (docs/engine.md lists those covered)");
    const gIn = await rule(ctx, node, gOut);
    node.input.forEach((v, k) => {
      const g = gIn[k];
      if (!g || !needs.has(v)) return;
      if (total.has(v)) throw new Error(`internal: gradient of "${v}" summed before all its uses were seen`);
      parts.set(v, [...(parts.get(v) ?? []), g]);
    });
  }

  const gradInput = gradOf(input) ?? e.op("ConstantOfShape", [e.op("Shape", [input])]);
  graph.node.push({ name: GRAD_INPUT, opType: "Identity", input: [gradInput], output: [GRAD_INPUT] });
  const outputs = [logits, GRAD_INPUT];
  for (const layer of opts.layers ?? []) {
    const g = gradOf(layer) ?? e.op("ConstantOfShape", [e.op("Shape", [layer])]);
    graph.node.push({ name: layerGradName(layer), opType: "Identity", input: [g], output: [layerGradName(layer)] });
    outputs.push(layer, layerGradName(layer));
  }
  const classes = probe.get(logits)?.dims[1] ?? 0;
  graph.input.push({ name: GRAD_SEED, type: { tensorType: { elemType: 1, shape: { dim: [{ dimParam: "N" }, { dimValue: classes }] } } } });
  graph.output = outputs.map((name) => ({ name }));
  return { bytes: encodeModel(model), outputs };
}
