// The backward rule of every operator the gradient graphs cover, by ONNX op type. An operator
// missing here keeps a model's gradient methods off (its forward methods still run); the error
// names the node (context.ts UnsupportedGradientError). Forward-only operators on paths that
// never reach the input (Shape, Gather of shapes, Constant…) need no rule.
import * as act from "./activations.ts";
import * as arith from "./arithmetic.ts";
import type { VjpRule } from "./context.ts";
import * as layout from "./layout.ts";
import { conv, gemm, matMul } from "./linear.ts";
import { batchNormalization, layerNormalization } from "./normalization.ts";
import { averagePool, globalAveragePool, maxPool, reduceMean, reduceSumRule } from "./pooling.ts";
import { resizeRule } from "./resize.ts";

export function vjpRules(opset: number): Record<string, VjpRule> {
  return {
    Conv: conv,
    Gemm: gemm,
    MatMul: matMul,
    BatchNormalization: batchNormalization,
    LayerNormalization: layerNormalization,
    Relu: act.relu,
    LeakyRelu: act.leakyRelu,
    PRelu: act.pRelu,
    Clip: act.clip,
    Sigmoid: act.sigmoid,
    Tanh: act.tanh,
    HardSigmoid: act.hardSigmoid,
    HardSwish: act.hardSwish,
    Erf: act.erf,
    Exp: act.exp,
    Log: act.log,
    Sqrt: act.sqrt,
    Reciprocal: act.reciprocal,
    Abs: act.abs,
    Pow: act.pow,
    Neg: act.neg,
    Softmax: act.softmax,
    LogSoftmax: act.logSoftmax,
    Cast: act.cast,
    Add: arith.add,
    Sum: arith.sum,
    Sub: arith.sub,
    Mul: arith.mul,
    Div: arith.div,
    Expand: arith.expand,
    MaxPool: maxPool,
    AveragePool: averagePool,
    GlobalAveragePool: globalAveragePool,
    ReduceMean: reduceMean,
    ReduceSum: reduceSumRule,
    Identity: layout.identity,
    Dropout: layout.identity,
    Flatten: layout.reshape,
    Reshape: layout.reshape,
    Squeeze: layout.reshape,
    Unsqueeze: layout.reshape,
    Transpose: layout.transpose,
    Concat: layout.concat,
    Split: layout.split,
    Slice: layout.slice,
    Pad: layout.pad,
    Gather: layout.gather,
    Resize: resizeRule(opset),
  };
}

export const GRADIENT_OPERATORS: readonly string[] = Object.keys(vjpRules(17)).sort();
