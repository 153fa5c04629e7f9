// A model as the engine serves it, made from the ONNX file as exported: the platform's pixels
// ([N, H, W, C] in [0, 1], the layout of every image path in the sidecar) go in, a Transpose to
// NCHW and the operator's normalisation are put in front of the graph, and its logits come out
// (a final Softmax removed, as the importer does). The batch axis is made symbolic: PyTorch's
// export without dynamic_axes fixes it to 1, and a Reshape target that names that 1 is given
// ONNX's 0 ("keep the input's dimension") so any batch runs.
import { decodeModel, encodeModel, floatTensor, tensorValues, int64Tensor, type OnnxModel } from "./onnxModel.ts";

export const PIXELS = "pixels";

export interface ServeOptions {
  /** Per image: height, width, channels. */
  inputShape: readonly [number, number, number];
  /** The ONNX graph's NCHW input; the first graph input that is not an initializer by default. */
  input?: string;
  normalize?: { mean: number[]; std: number[] } | null;
  /** Serve the input of a final Softmax (logits) rather than its probabilities. */
  stripSoftmax?: boolean;
}

export interface ServedModel {
  bytes: Uint8Array;
  /** The logits' value name. */
  output: string;
  /** The NCHW value the original graph starts from (an internal value now). */
  graphInput: string;
  /** Whether the exported batch axis was fixed (then Reshape targets were rewritten). */
  fixedBatch: boolean;
}

function dataPath(model: OnnxModel, input: string): Set<string> {
  const reached = new Set([input]);
  for (const n of model.graph.node) {
    if (n.opType === "Shape" || n.opType === "Size") continue;
    if (n.input.some((v) => reached.has(v))) for (const o of n.output) reached.add(o);
  }
  return reached;
}

export function serveModel(onnx: Uint8Array, opts: ServeOptions): ServedModel {
  const model = decodeModel(onnx);
  const g = model.graph;
  const initNames = new Set(g.initializer.map((t) => t.name));
  const inputInfo = opts.input ? g.input.find((v) => v.name === opts.input) : g.input.find((v) => !initNames.has(v.name));
  if (!inputInfo) throw new Error("the ONNX graph has no input");
  const graphInput = inputInfo.name;
  const batchDim = inputInfo.type?.tensorType?.shape?.dim?.[0];
  const fixedBatch = batchDim?.dimValue !== undefined && batchDim.dimValue > 0;
  const [h, w, c] = opts.inputShape;

  let output = g.output[0].name;
  const last = g.node.find((n) => n.output.includes(output));
  if (opts.stripSoftmax && last?.opType === "Softmax") output = last.input[0];

  if (fixedBatch) {
    const reached = dataPath(model, graphInput);
    for (const n of g.node) {
      if (n.opType !== "Reshape" || !reached.has(n.input[0])) continue;
      const init = g.initializer.find((t) => t.name === n.input[1]);
      const constNode = g.node.find((m) => m.opType === "Constant" && m.output[0] === n.input[1]);
      const t = init ?? constNode?.attribute?.find((a) => a.name === "value")?.t;
      if (!t) continue;
      const shape = Array.from(tensorValues(t));
      if (shape[0] !== 1) continue;
      const name = `${n.input[1]}/batch_free`;
      g.initializer.push(int64Tensor(name, [shape.length], [0, ...shape.slice(1)]));
      n.input[1] = name;
    }
  }

  // The front: pixels NHWC → NCHW → (x − mean) / std → the graph's own input.
  const front: OnnxModel["graph"]["node"] = [];
  let x = `${PIXELS}/nchw`;
  front.push({ name: x, opType: "Transpose", input: [PIXELS], output: [x], attribute: [{ name: "perm", type: 7, ints: [0, 3, 1, 2] }] });
  if (opts.normalize) {
    g.initializer.push(floatTensor(`${PIXELS}/mean`, [1, c, 1, 1], opts.normalize.mean));
    g.initializer.push(floatTensor(`${PIXELS}/std`, [1, c, 1, 1], opts.normalize.std));
    front.push({ name: `${PIXELS}/centred`, opType: "Sub", input: [x, `${PIXELS}/mean`], output: [`${PIXELS}/centred`] });
    x = `${PIXELS}/centred`;
    front.push({ name: graphInput, opType: "Div", input: [x, `${PIXELS}/std`], output: [graphInput] });
  } else {
    front.push({ name: graphInput, opType: "Identity", input: [x], output: [graphInput] });
  }
  g.node = [...front, ...g.node];
  g.input = [
    { name: PIXELS, type: { tensorType: { elemType: 1, shape: { dim: [{ dimParam: "N" }, { dimValue: h }, { dimValue: w }, { dimValue: c }] } } } },
    ...g.input.filter((v) => v.name !== graphInput && !initNames.has(v.name)),
  ];
  g.output = [{ name: output }];
  // Declared intermediate shapes carry the exported batch; onnxruntime infers its own.
  g.valueInfo = [];
  return { bytes: encodeModel(model), output, graphInput, fixedBatch };
}
