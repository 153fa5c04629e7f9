// A torchvision-style ResNet-18 as torch.onnx.export writes it with do_constant_folding off
// (so the BatchNormalization nodes stay): conv1 7×7/2 pad 3, bn1, relu, maxpool 3×3/2 pad 1,
// layer1…layer4 of two BasicBlocks each (3×3 convs pad 1 without bias, a 1×1/2 conv + bn
// downsample on the first block of layers 2–4), avgpool (GlobalAveragePool), Flatten, fc
// (Gemm, transB = 1) to 1000 classes; the node, value and initializer names follow the
// exporter's ("/layer1/layer1.0/conv1/Conv", "layer1.0.bn1.running_mean", …). Random seeded
// weights (He-uniform kernels, batch-norm statistics around 1), so the graph's layout, not a
// trained model, is what tests/onnx/onnxImport.test.ts and bench/onnxImport.ts check.
// Also builds small graphs with chosen operators (the unsupported-operator test).
import path from "node:path";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";
import { Rng } from "../../sidecar/data/prng.ts";

const ONNX_PROTO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../sidecar/zoo/onnx/onnx.proto");
const FLOAT = 1;
const INT64 = 7;
const ATTR_INT = 2;
const ATTR_INTS = 7;
const ATTR_FLOAT = 1;

type Attribute = { name: string; type: number; i?: number; ints?: number[]; f?: number };
export type OnnxNode = { name: string; opType: string; input: string[]; output: string[]; attribute: Attribute[]; domain?: string };
type Tensor = { name: string; dims: number[]; dataType: number; rawData: Uint8Array };

export const ints = (name: string, values: number[]): Attribute => ({ name, type: ATTR_INTS, ints: values });
export const int = (name: string, value: number): Attribute => ({ name, type: ATTR_INT, i: value });
const float = (name: string, value: number): Attribute => ({ name, type: ATTR_FLOAT, f: value });

export function floatTensor(name: string, dims: number[], data: Float32Array): Tensor {
  const raw = new Uint8Array(data.length * 4);
  const view = new DataView(raw.buffer);
  for (let i = 0; i < data.length; i++) view.setFloat32(i * 4, data[i], true);
  return { name, dims, dataType: FLOAT, rawData: raw };
}

export function int64Tensor(name: string, values: number[]): Tensor {
  const raw = new Uint8Array(values.length * 8);
  const view = new DataView(raw.buffer);
  values.forEach((v, i) => view.setBigInt64(i * 8, BigInt(v), true));
  return { name, dims: [values.length], dataType: INT64, rawData: raw };
}

/** ModelProto bytes of a graph with one float input [N, C, H, W] and one output. */
export function encodeModel(opts: {
  nodes: OnnxNode[];
  initializers: Tensor[];
  input: { name: string; dims: Array<number | string> };
  output: { name: string; dims: Array<number | string> };
  opset?: number;
}): Uint8Array {
  const type = (dims: Array<number | string>) => ({
    tensorType: { elemType: FLOAT, shape: { dim: dims.map((d) => (typeof d === "string" ? { dimParam: d } : { dimValue: d })) } },
  });
  const Model = protobuf.loadSync(ONNX_PROTO).lookupType("onnx.ModelProto");
  const model = {
    irVersion: 8,
    opsetImport: [{ domain: "", version: opts.opset ?? 17 }],
    producerName: "pytorch",
    producerVersion: "2.1.0",
    graph: {
      name: "main_graph",
      node: opts.nodes,
      initializer: opts.initializers,
      input: [{ name: opts.input.name, type: type(opts.input.dims) }],
      output: [{ name: opts.output.name, type: type(opts.output.dims) }],
    },
  };
  return Model.encode(Model.fromObject(model)).finish();
}

/** torchvision.models.resnet18(num_classes) at `size` px, exported to ONNX; weights seeded by `seed`. */
export function torchvisionResnet18(opts: { size?: number; classes?: number; seed?: number } = {}): Uint8Array {
  const size = opts.size ?? 224;
  const classes = opts.classes ?? 1000;
  const rng = new Rng(opts.seed ?? 18);
  const nodes: OnnxNode[] = [];
  const initializers: Tensor[] = [];
  const uniform = (n: number, bound: number, centre = 0): Float32Array => {
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++) a[i] = centre + rng.uniform(-bound, bound);
    return a;
  };
  const node = (scope: string, opType: string, input: string[], attribute: Attribute[] = []): string => {
    const out = `${scope}/${opType}_output_0`;
    nodes.push({ name: `${scope}/${opType}`, opType, input, output: [out], attribute });
    return out;
  };
  // module: "layer1.0.conv1"; scope: "/layer1/layer1.0/conv1" (the exporter's naming).
  const scopeOf = (module: string) => {
    // A numbered child keeps its parent's name: "layer1.0.conv1" → "/layer1/layer1.0/conv1".
    const parts = module.split(".");
    return "/" + parts.map((p, i) => (/^\d+$/.test(p) ? `${parts[i - 1]}.${p}` : p)).join("/");
  };
  const conv = (module: string, x: string, cin: number, cout: number, k: number, stride: number, pad: number): string => {
    initializers.push(floatTensor(`${module}.weight`, [cout, cin, k, k], uniform(cout * cin * k * k, Math.sqrt(6 / (cin * k * k)))));
    return node(
      scopeOf(module),
      "Conv",
      [x, `${module}.weight`],
      [int("group", 1), ints("dilations", [1, 1]), ints("kernel_shape", [k, k]), ints("pads", [pad, pad, pad, pad]), ints("strides", [stride, stride])],
    );
  };
  const bn = (module: string, x: string, c: number): string => {
    initializers.push(
      floatTensor(`${module}.weight`, [c], uniform(c, 0.2, 0.6)),
      floatTensor(`${module}.bias`, [c], uniform(c, 0.1)),
      floatTensor(`${module}.running_mean`, [c], uniform(c, 0.1)),
      floatTensor(`${module}.running_var`, [c], uniform(c, 0.5, 1.5)),
    );
    return node(
      scopeOf(module),
      "BatchNormalization",
      [x, `${module}.weight`, `${module}.bias`, `${module}.running_mean`, `${module}.running_var`],
      [float("epsilon", 1e-5), float("momentum", 0.9)],
    );
  };
  const relu = (scope: string, x: string) => node(scope, "Relu", [x]);

  let x = "input";
  x = relu("/relu", bn("bn1", conv("conv1", x, 3, 64, 7, 2, 3), 64));
  x = node("/maxpool", "MaxPool", [x], [int("ceil_mode", 0), ints("kernel_shape", [3, 3]), ints("pads", [1, 1, 1, 1]), ints("strides", [2, 2])]);
  let cin = 64;
  [64, 128, 256, 512].forEach((width, s) => {
    for (let b = 0; b < 2; b++) {
      const m = `layer${s + 1}.${b}`;
      const stride = s > 0 && b === 0 ? 2 : 1;
      let y = relu(`${scopeOf(m)}/relu`, bn(`${m}.bn1`, conv(`${m}.conv1`, x, cin, width, 3, stride, 1), width));
      y = bn(`${m}.bn2`, conv(`${m}.conv2`, y, width, width, 3, 1, 1), width);
      const shortcut = stride !== 1 || cin !== width ? bn(`${m}.downsample.1`, conv(`${m}.downsample.0`, x, cin, width, 1, stride, 0), width) : x;
      x = relu(`${scopeOf(m)}/relu_1`, node(scopeOf(m), "Add", [y, shortcut]));
      cin = width;
    }
  });
  x = node("/avgpool", "GlobalAveragePool", [x]);
  x = node("", "Flatten", [x], [int("axis", 1)]);
  initializers.push(
    floatTensor("fc.weight", [classes, 512], uniform(classes * 512, 1 / Math.sqrt(512))),
    floatTensor("fc.bias", [classes], uniform(classes, 1 / Math.sqrt(512))),
  );
  nodes.push({
    name: "/fc/Gemm",
    opType: "Gemm",
    input: [x, "fc.weight", "fc.bias"],
    output: ["output"],
    attribute: [float("alpha", 1), float("beta", 1), int("transB", 1)],
  });
  return encodeModel({
    nodes,
    initializers,
    input: { name: "input", dims: ["batch_size", 3, size, size] },
    output: { name: "output", dims: ["batch_size", classes] },
  });
}
