// The derived gradient graphs (sidecar/engine/gradientGraph.ts) against finite differences, one
// small graph per operator rule, run on onnxruntime as the sidecar runs them; the ReLU rules of
// GuidedBackprop and Deconvolution and PyTorch's max-pool tie rule against hand-computed values.
import { describe, expect, it } from "vitest";
import {
  encodeModel,
  float,
  floatTensor,
  int,
  int64Tensor,
  ints,
  str,
  type OnnxAttribute,
  type OnnxModel,
  type OnnxNode,
  type OnnxTensor,
} from "../../sidecar/engine/onnxModel.ts";
import { NativeModel } from "../../sidecar/engine/nativeModel.ts";
import { probeModel } from "../../sidecar/engine/probe.ts";
import { samplingRng } from "../../sidecar/data/prng.ts";

type Op = [opType: string, inputs: string[], output: string | string[], attrs?: OnnxAttribute[]];

const rng = samplingRng(7);
const randoms = (n: number, scale = 1) => Array.from({ length: n }, () => (rng.uniform() * 2 - 1) * scale);
const weight = (name: string, dims: number[], scale = 0.5): OnnxTensor =>
  floatTensor(
    name,
    dims,
    randoms(
      dims.reduce((a, b) => a * b, 1),
      scale,
    ),
  );

function model(chw: number[], ops: Op[], inits: OnnxTensor[], out: string): OnnxModel {
  const node: OnnxNode[] = ops.map(([opType, input, output, attribute], i) => ({
    name: `n${i}`,
    opType,
    input,
    output: Array.isArray(output) ? output : [output],
    attribute: attribute ?? [],
  }));
  return {
    irVersion: 8,
    opsetImport: [{ domain: "", version: 17 }],
    graph: {
      name: "case",
      node,
      initializer: inits,
      input: [{ name: "x", type: { tensorType: { elemType: 1, shape: { dim: [{ dimParam: "N" }, ...chw.map((d) => ({ dimValue: d }))] } } } }],
      output: [{ name: out }],
    },
  };
}

/**
 * The case's graph with a readout that makes every output element matter: logits[n, 0] =
 * Σ r ⊙ y and logits[n, 1] = Σ y (r random, fixed), so gradients are generic, not symmetric.
 */
async function withReadout(chw: number[], ops: Op[], inits: OnnxTensor[], out: string): Promise<Uint8Array> {
  const bare = encodeModel(model(chw, ops, inits, out));
  // The probe needs an NHWC "pixels" input; here the graph's own input is probed directly.
  const { serveModel, PIXELS } = await import("../../sidecar/engine/servedModel.ts");
  const served = serveModel(bare, { inputShape: [chw[1], chw[2], chw[0]] });
  const probe = await probeModel(served.bytes, PIXELS, [chw[1], chw[2], chw[0]]);
  const dims = probe.get(out)!.dims.slice(1);
  const size = dims.reduce((a, b) => a * b, 1);
  const axes = dims.map((_, i) => i + 1);
  const readOps: Op[] = [
    ["Mul", [out, "readout_w"], "weighted"],
    ["ReduceSum", ["weighted", "readout_axes"], "s0", [int("keepdims", 0)]],
    ["ReduceSum", [out, "readout_axes"], "s1", [int("keepdims", 0)]],
    ["Unsqueeze", ["s0", "one"], "l0"],
    ["Unsqueeze", ["s1", "one"], "l1"],
    ["Concat", ["l0", "l1"], "logits", [int("axis", 1)]],
  ];
  const readInits = [floatTensor("readout_w", [1, ...dims], randoms(size, 1)), int64Tensor("readout_axes", [axes.length], axes), int64Tensor("one", [1], [1])];
  return encodeModel(model(chw, [...ops, ...readOps], [...inits, ...readInits], "logits"));
}

/** Central differences of logit `target` of each image, from the forward graph in float32. */
async function finiteDifferences(m: NativeModel, x: Float32Array, n: number, target: number, eps: number): Promise<Float32Array> {
  const out = new Float32Array(x.length);
  const per = x.length / n;
  const classes = m.classes;
  for (let i = 0; i < x.length; i++) {
    const img = Math.floor(i / per);
    const up = Float32Array.from(x);
    up[i] += eps;
    const down = Float32Array.from(x);
    down[i] -= eps;
    const [lu, ld] = [await m.logits(up, n), await m.logits(down, n)];
    out[i] = (lu[img * classes + target] - ld[img * classes + target]) / (2 * eps);
  }
  return out;
}

interface Case {
  name: string;
  chw: number[];
  ops: Op[];
  inits?: OnnxTensor[];
  out: string;
  /** Inputs in (lo, hi); kinked operators get inputs away from their kinks. */
  range?: [number, number];
  tol?: number;
}

const C = (name: string, chw: number[], ops: Op[], out: string, inits: OnnxTensor[] = [], extra: Partial<Case> = {}): Case => ({
  name,
  chw,
  ops,
  inits,
  out,
  ...extra,
});

const CASES: Case[] = [
  C(
    "Conv stride 2, asymmetric pads, 2 groups, bias",
    [4, 7, 6],
    [["Conv", ["x", "w", "b"], "y", [ints("strides", [2, 2]), ints("pads", [1, 0, 0, 1]), int("group", 2)]]],
    "y",
    [weight("w", [6, 2, 3, 3]), weight("b", [6])],
  ),
  C(
    "Conv dilated, strided, unevenly covered",
    [2, 9, 8],
    [["Conv", ["x", "w"], "y", [ints("dilations", [2, 2]), ints("pads", [2, 1, 0, 2]), ints("strides", [2, 3])]]],
    "y",
    [weight("w", [3, 2, 3, 3])],
  ),
  C("Conv SAME_UPPER", [2, 7, 7], [["Conv", ["x", "w"], "y", [str("auto_pad", "SAME_UPPER"), ints("strides", [2, 2])]]], "y", [weight("w", [3, 2, 4, 4])]),
  C(
    "Conv stride 1, 2 groups, dilated, asymmetric pads",
    [4, 6, 7],
    [["Conv", ["x", "w"], "y", [int("group", 2), ints("dilations", [1, 2]), ints("pads", [2, 1, 0, 3])]]],
    "y",
    [weight("w", [6, 2, 3, 3])],
  ),
  C("Conv depthwise", [3, 5, 5], [["Conv", ["x", "w"], "y", [int("group", 3), ints("pads", [1, 1, 1, 1])]]], "y", [weight("w", [3, 1, 3, 3])]),
  C(
    "Gemm transB, then Gemm transA-free",
    [2, 3, 2],
    [
      ["Flatten", ["x"], "f"],
      ["Gemm", ["f", "w", "b"], "y", [int("transB", 1), float("alpha", 0.7), float("beta", 1.3)]],
    ],
    "y",
    [weight("w", [5, 12]), weight("b", [5])],
  ),
  C(
    "MatMul with broadcast batch dims, both operands from the input",
    [2, 3, 4],
    [
      ["Transpose", ["x"], "t", [ints("perm", [0, 1, 3, 2])]],
      ["MatMul", ["x", "t"], "y"],
    ],
    "y",
  ),
  C("MatMul by a constant", [1, 3, 4], [["MatMul", ["x", "w"], "y"]], "y", [weight("w", [4, 5])]),
  C("BatchNormalization", [3, 4, 4], [["BatchNormalization", ["x", "s", "b", "m", "v"], "y"]], "y", [
    weight("s", [3]),
    weight("b", [3]),
    weight("m", [3]),
    floatTensor("v", [3], [0.5, 1.5, 2]),
  ]),
  C("LayerNormalization over the last axis", [2, 3, 5], [["LayerNormalization", ["x", "s", "b"], "y", [int("axis", -1)]]], "y", [
    weight("s", [5]),
    weight("b", [5]),
  ]),
  C(
    "Relu, LeakyRelu, PRelu",
    [2, 3, 3],
    [
      ["Relu", ["x"], "a"],
      ["LeakyRelu", ["x"], "b", [float("alpha", 0.1)]],
      ["PRelu", ["x", "slope"], "c"],
      ["Sum", ["a", "b", "c"], "y"],
    ],
    "y",
    [floatTensor("slope", [2, 1, 1], [0.2, 0.3])],
  ),
  C(
    "Clip (ReLU6), HardSigmoid, HardSwish",
    [2, 3, 3],
    [
      ["Clip", ["x", "lo", "hi"], "a"],
      ["HardSigmoid", ["x"], "b", [float("alpha", 1 / 6), float("beta", 0.5)]],
      ["HardSwish", ["x"], "c"],
      ["Sum", ["a", "b", "c"], "y"],
    ],
    "y",
    [floatTensor("lo", [], [0]), floatTensor("hi", [], [6])],
    { range: [-8, 8], tol: 5e-3 },
  ),
  C(
    "Sigmoid, Tanh, Erf, Exp",
    [2, 2, 3],
    [
      ["Sigmoid", ["x"], "a"],
      ["Tanh", ["x"], "b"],
      ["Erf", ["x"], "c"],
      ["Exp", ["x"], "d"],
      ["Sum", ["a", "b", "c", "d"], "y"],
    ],
    "y",
  ),
  C(
    "Sqrt, Log, Reciprocal, Pow, Abs, Neg",
    [1, 3, 3],
    [
      ["Sqrt", ["x"], "a"],
      ["Log", ["x"], "b"],
      ["Reciprocal", ["x"], "c"],
      ["Pow", ["x", "p"], "d"],
      ["Abs", ["x"], "e"],
      ["Neg", ["x"], "f"],
      ["Sum", ["a", "b", "c", "d", "e", "f"], "y"],
    ],
    "y",
    [floatTensor("p", [], [3])],
    { range: [0.5, 2] },
  ),
  C(
    "Softmax and LogSoftmax",
    [2, 2, 4],
    [
      ["Softmax", ["x"], "a", [int("axis", 1)]],
      ["LogSoftmax", ["x"], "b", [int("axis", -1)]],
      ["Add", ["a", "b"], "y"],
    ],
    "y",
  ),
  C(
    "Add, Sub, Mul, Div with broadcasting",
    [3, 2, 4],
    [
      ["ReduceMean", ["x"], "m", [ints("axes", [2, 3])]],
      ["Mul", ["x", "m"], "a"],
      ["Div", ["a", "d"], "b"],
      ["Sub", ["b", "x"], "c"],
      ["Add", ["c", "bias"], "y"],
    ],
    "y",
    [floatTensor("d", [1, 3, 1, 1], [1.5, 2, 3]), weight("bias", [4])],
    { range: [0.5, 2] },
  ),
  C(
    "Div by a value of the input",
    [2, 2, 2],
    [
      ["ReduceSum", ["x", "ax"], "s", [int("keepdims", 1)]],
      ["Div", ["x", "s"], "y"],
    ],
    "y",
    [int64Tensor("ax", [1], [1])],
    { range: [0.5, 2] },
  ),
  C(
    "MaxPool 3×3 stride 2, pads, overlapping windows",
    [2, 7, 7],
    [["MaxPool", ["x"], "y", [ints("kernel_shape", [3, 3]), ints("strides", [2, 2]), ints("pads", [1, 1, 1, 1])]]],
    "y",
  ),
  C("MaxPool ceil_mode", [1, 6, 6], [["MaxPool", ["x"], "y", [ints("kernel_shape", [3, 3]), ints("strides", [2, 2]), int("ceil_mode", 1)]]], "y"),
  C(
    "AveragePool with pads, counting them",
    [2, 5, 5],
    [["AveragePool", ["x"], "y", [ints("kernel_shape", [3, 3]), ints("strides", [2, 2]), ints("pads", [1, 1, 1, 1]), int("count_include_pad", 1)]]],
    "y",
  ),
  C(
    "AveragePool with pads, not counting them, ceil_mode",
    [2, 6, 6],
    [["AveragePool", ["x"], "y", [ints("kernel_shape", [3, 3]), ints("strides", [2, 2]), ints("pads", [1, 1, 0, 0]), int("ceil_mode", 1)]]],
    "y",
  ),
  C(
    "GlobalAveragePool and ReduceMean without keepdims",
    [3, 4, 4],
    [
      ["GlobalAveragePool", ["x"], "a"],
      ["ReduceMean", ["x"], "b", [ints("axes", [3]), int("keepdims", 0)]],
      ["Flatten", ["a"], "fa"],
      ["Flatten", ["b"], "fb"],
      ["Concat", ["fa", "fb"], "y", [int("axis", 1)]],
    ],
    "y",
  ),
  C(
    "Reshape, Transpose, Squeeze, Unsqueeze",
    [2, 3, 4],
    [
      ["Reshape", ["x", "shape"], "r"],
      ["Transpose", ["r"], "t", [ints("perm", [0, 2, 1])]],
      ["Unsqueeze", ["t", "ax"], "u"],
      ["Squeeze", ["u", "ax"], "y"],
    ],
    "y",
    [int64Tensor("shape", [3], [0, 4, 6]), int64Tensor("ax", [1], [1])],
  ),
  C(
    "Split, Slice, Pad, Concat",
    [4, 3, 3],
    [
      ["Split", ["x", "sizes"], ["p", "q"], [int("axis", 1)]],
      ["Slice", ["p", "st", "en", "axs"], "s"],
      ["Pad", ["s", "pads"], "pd"],
      ["Mul", ["q", "q"], "qq"],
      ["Concat", ["pd", "qq"], "y", [int("axis", 1)]],
    ],
    "y",
    [
      int64Tensor("sizes", [2], [1, 3]),
      int64Tensor("st", [2], [1, 0]),
      int64Tensor("en", [2], [3, 2]),
      int64Tensor("axs", [2], [2, 3]),
      int64Tensor("pads", [8], [0, 0, 1, 0, 0, 0, 0, 1]),
    ],
  ),
  C("Gather of one index (a class token)", [3, 4, 2], [["Gather", ["x", "k"], "y", [int("axis", 2)]]], "y", [int64Tensor("k", [], [2])]),
  // Swin's q, k, v = qkv[0], qkv[1], qkv[2]: the gathered axis is first but is not the batch.
  C(
    "Gather along a leading axis that is not the batch",
    [3, 4, 2],
    [
      ["Transpose", ["x"], "t", [ints("perm", [1, 0, 2, 3])]],
      ["Gather", ["t", "k"], "y", [int("axis", 0)]],
    ],
    "y",
    [int64Tensor("k", [], [1])],
  ),
  // Swin's patch merging, x[:, :, 0::2, 1::2]: every other row and column; the rows' last step
  // runs past the input's end, the columns' does not.
  C("Slice with steps", [3, 5, 5], [["Slice", ["x", "st", "en", "axs", "stp"], "y"]], "y", [
    int64Tensor("st", [2], [0, 1]),
    int64Tensor("en", [2], [5, 5]),
    int64Tensor("axs", [2], [2, 3]),
    int64Tensor("stp", [2], [2, 2]),
  ]),
  // The sizes come from a Shape chain, as torch.nn.functional.interpolate(size=...) exports them.
  C(
    "Resize nearest ×2 (scales) and linear half-pixel (sizes from the input's shape)",
    [2, 3, 4],
    [
      ["Resize", ["x", "", "sc"], "a", [str("mode", "nearest")]],
      ["Shape", ["x"], "shp"],
      ["Slice", ["shp", "zero", "two"], "nc"],
      ["Concat", ["nc", "hw"], "sz", [int("axis", 0)]],
      ["Resize", ["x", "", "", "sz"], "b", [str("mode", "linear"), str("coordinate_transformation_mode", "half_pixel")]],
      ["Flatten", ["a"], "fa"],
      ["Flatten", ["b"], "fb"],
      ["Concat", ["fa", "fb"], "y", [int("axis", 1)]],
    ],
    "y",
    [floatTensor("sc", [4], [1, 1, 2, 2]), int64Tensor("zero", [1], [0]), int64Tensor("two", [1], [2]), int64Tensor("hw", [2], [5, 7])],
  ),
];

describe("gradient graphs equal finite differences, one rule at a time", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const bytes = await withReadout(c.chw, c.ops, c.inits ?? [], c.out);
      const [ch, h, w] = c.chw;
      const m = await NativeModel.load(c.name, bytes, { inputShape: [h, w, ch], provider: "cpu", threads: 1 });
      try {
        expect(await m.gradientSupport()).toBe(true);
        const n = 2;
        const [lo, hi] = c.range ?? [-1, 1];
        const x = Float32Array.from({ length: n * h * w * ch }, () => lo + (hi - lo) * rng.uniform());
        for (const target of [0, 1]) {
          const { gradients } = await m.gradients(x, n, target);
          // A small step keeps both sides of every difference in one linear piece of the kinked operators.
          const fd = await finiteDifferences(m, x, n, target, 1e-3);
          const scale = Math.max(1, ...Array.from(fd, Math.abs));
          for (let i = 0; i < x.length; i++)
            expect(Math.abs(gradients[i] - fd[i]) / scale, `element ${i}: ${gradients[i]} vs ${fd[i]}`).toBeLessThan(c.tol ?? 2e-3);
        }
      } finally {
        await m.release();
      }
    });
  }
});

describe("a graph exported with its batch fixed to 1 (torch.onnx.export without dynamic_axes)", () => {
  it("runs batches: the Reshape that names the batch keeps the input's, and each row equals its own run", async () => {
    const m0 = model(
      [2, 3, 3],
      [
        ["Reshape", ["x", "flat"], "f"],
        ["Gemm", ["f", "w"], "logits", [int("transB", 1)]],
      ],
      [int64Tensor("flat", [2], [1, -1]), weight("w", [4, 18])],
      "logits",
    );
    m0.graph.input[0].type!.tensorType!.shape!.dim![0] = { dimValue: 1 };
    const m = await NativeModel.load("fixed", encodeModel(m0), { inputShape: [3, 3, 2], provider: "cpu", threads: 1 });
    const x = Float32Array.from({ length: 3 * 18 }, () => rng.uniform());
    const all = await m.gradients(x, 3, 2);
    for (let k = 0; k < 3; k++) {
      const one = await m.gradients(x.slice(k * 18, (k + 1) * 18), 1, 2);
      expect(Array.from(all.logits.subarray(k * 4, (k + 1) * 4))).toEqual(Array.from(one.logits));
      expect(Array.from(all.gradients.subarray(k * 18, (k + 1) * 18))).toEqual(Array.from(one.gradients));
    }
    await m.release();
  });
});

describe("ReLU rules and the max-pool tie rule, by hand", () => {
  // logits = w · relu(x) (Gemm over 4 values): normal w·[x>0], guided relu(w)·[x>0], deconv relu(w).
  const bytes = encodeModel(
    model(
      [1, 2, 2],
      [
        ["Relu", ["x"], "r"],
        ["Flatten", ["r"], "f"],
        ["Gemm", ["f", "w"], "logits", [int("transB", 1)]],
      ],
      [floatTensor("w", [1, 4], [2, -3, 0.5, -1])],
      "logits",
    ),
  );
  const x = Float32Array.from([1, 2, -1, -2]); // NHWC of a 1-channel 2×2 image
  it.each([
    ["normal", [2, -3, 0, 0]],
    ["guided", [2, 0, 0, 0]],
    ["deconv", [2, 0, 0.5, 0]],
  ] as const)("%s", async (rule, expected) => {
    const m = await NativeModel.load("relu", bytes, { inputShape: [2, 2, 1], provider: "cpu", threads: 1 });
    const { gradients } = await m.gradients(x, 1, 0, rule);
    expect(Array.from(gradients, (v) => v + 0)).toEqual(expected);
    await m.release();
  });

  it("a window's gradient goes to its first maximum, as torch.nn.functional.max_pool2d sends it", async () => {
    const b = encodeModel(
      model(
        [1, 2, 4],
        [
          ["MaxPool", ["x"], "p", [ints("kernel_shape", [2, 2]), ints("strides", [2, 2])]],
          ["Flatten", ["p"], "f"],
          ["Gemm", ["f", "w"], "logits", [int("transB", 1)]],
        ],
        [floatTensor("w", [1, 2], [1, 10])],
        "logits",
      ),
    );
    const m = await NativeModel.load("ties", b, { inputShape: [2, 4, 1], provider: "cpu", threads: 1 });
    // Left window: 5 at (0,0) and (1,1); right window: all 0, so its first element takes it.
    const { gradients } = await m.gradients(Float32Array.from([5, 1, 0, 0, 2, 5, 0, 0]), 1, 0);
    expect(Array.from(gradients)).toEqual([1, 0, 10, 0, 0, 0, 0, 0]);
    await m.release();
  });
});
