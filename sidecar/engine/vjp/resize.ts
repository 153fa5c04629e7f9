// Resize's backward rule. A resize of the two spatial axes with a fixed size is linear and
// separable: Y = Rh · X · Rwᵀ per image and channel, so ∂X = Rhᵀ · g · Rw. The two matrices
// are not derived from the ONNX specification's formulas but measured: onnxruntime itself
// resizes an identity matrix with the node's own attributes, so every mode and coordinate
// transformation is exactly what the forward pass computed.
import { encodeModel, floatTensor, int64Tensor, type OnnxModel, type OnnxNode } from "../onnxModel.ts";
import { createSession, ort } from "../runtime.ts";
import { UnsupportedGradientError, dims, valueOf, type VjpRule } from "./context.ts";

/** The [outSize, inSize] matrix of a resize along one axis with the node's attributes. */
async function resizeMatrix(node: OnnxNode, opset: number, inSize: number, outSize: number, scale: number | null): Promise<Float32Array> {
  const model: OnnxModel = {
    irVersion: 8,
    opsetImport: [{ domain: "", version: opset }],
    graph: {
      name: "resize_matrix",
      node: [{ ...node, name: "resize", input: ["x", "", scale === null ? "" : "scales", scale === null ? "sizes" : ""], output: ["y"] }],
      initializer: [],
      input: [
        { name: "x", type: { tensorType: { elemType: 1, shape: { dim: [{ dimValue: 1 }, { dimValue: 1 }, { dimValue: inSize }, { dimValue: inSize }] } } } },
      ],
      output: [{ name: "y" }],
    },
  };
  if (scale === null) model.graph.initializer.push(int64Tensor("sizes", [4], [1, 1, outSize, inSize]));
  else model.graph.initializer.push(floatTensor("scales", [4], [1, 1, scale, 1]));
  // Trailing empty inputs are dropped; middle ones stay as "" (absent).
  while (model.graph.node[0].input[model.graph.node[0].input.length - 1] === "") model.graph.node[0].input.pop();
  const session = await createSession(encodeModel(model), { provider: "cpu", threads: 1 });
  try {
    const eye = new Float32Array(inSize * inSize);
    for (let i = 0; i < inSize; i++) eye[i * inSize + i] = 1;
    const out = await session.run({ x: new ort.Tensor("float32", eye, [1, 1, inSize, inSize]) });
    return Float32Array.from(out.y.data as Float32Array);
  } finally {
    await session.release();
  }
}

export function resizeRule(opset: number): VjpRule {
  return async (ctx, node, [g]) => {
    const x = node.input[0];
    if (!g || !ctx.needs(x)) return node.input.map(() => null);
    const xd = dims(ctx, x, node);
    const yd = dims(ctx, node.output[0], node);
    if (xd.length !== 4 || xd[1] !== yd[1]) throw new UnsupportedGradientError(node, "only resizes of the two spatial axes are supported");
    const scales = valueOf(ctx, node.input[2]);
    const useScales = Boolean(scales && scales.length === 4);
    const rh = await resizeMatrix(node, opset, xd[2], yd[2], useScales ? scales![2] : null);
    const rw = await resizeMatrix(node, opset, xd[3], yd[3], useScales ? scales![3] : null);
    // rh is [yh, xh]: ∂X = rhᵀ · g · rw, as MatMul with [xh, yh] and [yw, xw] constants.
    const rhT = new Float32Array(xd[2] * yd[2]);
    for (let i = 0; i < yd[2]; i++) for (let j = 0; j < xd[2]; j++) rhT[j * yd[2] + i] = rh[i * xd[2] + j];
    const left = ctx.e.op("MatMul", [ctx.e.constFloat([xd[2], yd[2]], rhT, "resize_h"), g]);
    return [ctx.e.op("MatMul", [left, ctx.e.constFloat([yd[3], xd[3]], rw, "resize_w")]), ...node.input.slice(1).map(() => null)];
  };
}
