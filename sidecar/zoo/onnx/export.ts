// Exports a zoo network to ONNX (opset 17, IR version 8) so PyTorch, TensorFlow and ONNX Runtime
// users run the very function the platform evaluates. The graph is what InferOps computes
// (layers.ts: batch norm already folded into each convolution's kernel and bias), written the
// way torch.onnx.export writes a PyTorch model: input `input` float32 [N, C, H, W] (pixels in
// [0, 1]), NCHW operators, Conv weights OIHW, Gemm weights [out, in] with transB = 1, output
// `logits` [N, classes]. The zoo runs NHWC, so the weights are transposed here, and the VGG
// classifier's first dense layer has its rows permuted: tfjs flattens (h, w, c), ONNX's Flatten
// of an NCHW tensor gives (c, h, w). tfjs's "same" padding puts the odd pixel after, so every
// Conv and MaxPool gets explicit (possibly asymmetric) pads computed from its known input size.
// Each architecture's graph below mirrors its forward function in architectures.ts line by line;
// tests/zoo/onnxExport.test.ts runs the result in onnxruntime-web against the zoo's own logits.
import { modelProto } from "./proto.ts";
import type { ArchConfig } from "../architectures.ts";
import { readCheckpoint, type CheckpointManifest } from "../checkpoint.ts";
import { samePool } from "../maxPool.ts";
import type { ZooNet } from "../zooNet.ts";

export const ONNX_OPSET = 17;
/** IR version 8 is the one ONNX 1.10–1.13 wrote for opset 17; every runtime that knows opset 17 reads it. */
export const ONNX_IR_VERSION = 8;
export const ONNX_INPUT = "input";
export const ONNX_OUTPUT = "logits";

/** TensorProto.DataType.FLOAT and AttributeProto.AttributeType.INT / INTS (onnx.proto). */
const FLOAT = 1;
const ATTR_INT = 2;
const ATTR_INTS = 7;

export interface ExportWeight {
  shape: number[];
  data: Float32Array;
}

/** A weight is missing or shaped unlike the architecture asks; the checkpoint does not fit. */
export class OnnxExportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OnnxExportError";
  }
}

/** An NCHW value of the graph and its per-image shape (needed for the explicit pads). */
interface Feature {
  name: string;
  c: number;
  h: number;
  w: number;
}
/** A [N, features] value of the graph. */
interface Vector {
  name: string;
  features: number;
}

type Attribute = { name: string; type: number; i?: number; ints?: number[] };
type Node = { name: string; opType: string; input: string[]; output: string[]; attribute: Attribute[] };
type Tensor = { name: string; dims: number[]; dataType: number; rawData: Uint8Array };

const ints = (name: string, values: number[]): Attribute => ({ name, type: ATTR_INTS, ints: values });
const int = (name: string, value: number): Attribute => ({ name, type: ATTR_INT, i: value });

function rawFloats(data: Float32Array): Uint8Array {
  // raw_data is little-endian whatever the host; copy through a DataView to be sure.
  const out = new Uint8Array(data.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < data.length; i++) view.setFloat32(i * 4, data[i], true);
  return out;
}

/** Builds the node list and initializers; each method is one zoo layer in ONNX terms. */
class GraphBuilder {
  readonly nodes: Node[] = [];
  readonly initializers: Tensor[] = [];
  private used = new Set<string>();

  constructor(private weights: Map<string, ExportWeight>) {}

  /** A fresh value name: `base`, else `base_1`, `base_2`, … */
  private fresh(base: string): string {
    let name = base;
    for (let i = 1; this.used.has(name); i++) name = `${base}_${i}`;
    this.used.add(name);
    return name;
  }

  private node(opType: string, name: string, input: string[], attribute: Attribute[] = [], output = name): string {
    const out = this.fresh(output);
    this.nodes.push({ name: this.fresh(`${name}/${opType}`), opType, input, output: [out], attribute });
    return out;
  }

  private weight(name: string, rank: number): ExportWeight {
    const w = this.weights.get(name);
    if (!w) throw new OnnxExportError(`weight ${name} is missing from the checkpoint`);
    if (w.shape.length !== rank) throw new OnnxExportError(`weight ${name} has shape [${w.shape.join(", ")}], expected rank ${rank}`);
    return w;
  }

  private initializer(name: string, dims: number[], data: Float32Array): string {
    this.used.add(name);
    this.initializers.push({ name, dims, dataType: FLOAT, rawData: rawFloats(data) });
    return name;
  }

  /** ops.conv: tfjs conv2d "same" + bias; kernel [kh, kw, cin, cout] becomes OIHW. */
  conv(name: string, x: Feature, opts: { kernel?: number; stride?: number } = {}): Feature {
    const k = opts.kernel ?? 3;
    const s = opts.stride ?? 1;
    const kernel = this.weight(`${name}/kernel`, 4);
    const [kh, kw, cin, cout] = kernel.shape;
    if (kh !== k || kw !== k || cin !== x.c) throw new OnnxExportError(`${name}/kernel is [${kernel.shape.join(", ")}], expected [${k}, ${k}, ${x.c}, …]`);
    const bias = this.weight(`${name}/bias`, 1);
    if (bias.shape[0] !== cout) throw new OnnxExportError(`${name}/bias has ${bias.shape[0]} values for ${cout} filters`);
    const oihw = new Float32Array(kernel.data.length);
    for (let i = 0; i < kh; i++)
      for (let j = 0; j < kw; j++)
        for (let c = 0; c < cin; c++) for (let o = 0; o < cout; o++) oihw[((o * cin + c) * kh + i) * kw + j] = kernel.data[((i * kw + j) * cin + c) * cout + o];
    const w = this.initializer(`${name}.weight`, [cout, cin, kh, kw], oihw);
    const b = this.initializer(`${name}.bias`, [cout], bias.data);
    const ph = samePool(x.h, k, s);
    const pw = samePool(x.w, k, s);
    // The conv's own output is `<layer>.out`, leaving bare names to the tap-able activations.
    const out = this.node(
      "Conv",
      name,
      [x.name, w, b],
      [
        ints("kernel_shape", [k, k]),
        ints("strides", [s, s]),
        ints("pads", [ph.before, pw.before, ph.after, pw.after]),
        ints("dilations", [1, 1]),
        int("group", 1),
      ],
      `${name}.out`,
    );
    return { name: out, c: cout, h: ph.out, w: pw.out };
  }

  relu<T extends Feature | Vector>(x: T, output?: string): T {
    return { ...x, name: this.node("Relu", output ?? `${x.name}.relu`, [x.name]) };
  }

  add(a: Feature, b: Feature, name: string): Feature {
    return { ...a, name: this.node("Add", name, [a.name, b.name]) };
  }

  /** maxPool(x, k, s) "same": the padded cells never win, as ONNX MaxPool's pads behave. */
  maxPool(x: Feature, k: number, s: number, name: string): Feature {
    const ph = samePool(x.h, k, s);
    const pw = samePool(x.w, k, s);
    const out = this.node(
      "MaxPool",
      name,
      [x.name],
      [ints("kernel_shape", [k, k]), ints("strides", [s, s]), ints("pads", [ph.before, pw.before, ph.after, pw.after])],
    );
    return { name: out, c: x.c, h: ph.out, w: pw.out };
  }

  /** tf.concat([...], 3) in NHWC is a channel concat: axis 1 in NCHW. */
  concat(parts: Feature[], name: string): Feature {
    const out = this.node(
      "Concat",
      name,
      parts.map((p) => p.name),
      [int("axis", 1)],
    );
    return { name: out, c: parts.reduce((s, p) => s + p.c, 0), h: parts[0].h, w: parts[0].w };
  }

  /** tf.mean over H and W. */
  globalAvgPool(x: Feature, name: string): Vector {
    const pooled = this.node("GlobalAveragePool", name, [x.name]);
    return { name: this.node("Flatten", `${name}.flatten`, [pooled], [int("axis", 1)]), features: x.c };
  }

  /**
   * tf.reshape(x, [N, -1]) of NHWC: the value is ONNX's Flatten of NCHW, whose order differs;
   * `flattenedFrom` records the shape so the next dense layer's rows are permuted to match.
   */
  flatten(x: Feature, name: string): Vector & { flattenedFrom: Feature } {
    return { name: this.node("Flatten", name, [x.name], [int("axis", 1)]), features: x.c * x.h * x.w, flattenedFrom: x };
  }

  /** ops.dense: x · kernel + bias with kernel [in, out], written as PyTorch's Linear (weight [out, in], transB = 1). */
  dense(name: string, x: Vector & { flattenedFrom?: Feature }, output?: string): Vector {
    const kernel = this.weight(`${name}/kernel`, 2);
    const [fin, fout] = kernel.shape;
    if (fin !== x.features) throw new OnnxExportError(`${name}/kernel takes ${fin} inputs, the layer before gives ${x.features}`);
    const bias = this.weight(`${name}/bias`, 1);
    if (bias.shape[0] !== fout) throw new OnnxExportError(`${name}/bias has ${bias.shape[0]} values for ${fout} units`);
    // Row r of the zoo's kernel reads NHWC-flat feature r; ONNX feeds NCHW-flat feature q.
    const rowOf = (q: number): number => {
      const f = x.flattenedFrom;
      if (!f) return q;
      const c = Math.floor(q / (f.h * f.w));
      const y = Math.floor((q % (f.h * f.w)) / f.w);
      const xx = q % f.w;
      return (y * f.w + xx) * f.c + c;
    };
    const weight = new Float32Array(fin * fout);
    for (let q = 0; q < fin; q++) {
      const r = rowOf(q);
      for (let o = 0; o < fout; o++) weight[o * fin + q] = kernel.data[r * fout + o];
    }
    const w = this.initializer(`${name}.weight`, [fout, fin], weight);
    const b = this.initializer(`${name}.bias`, [fout], bias.data);
    const out = this.node("Gemm", output ?? name, [x.name, w, b], [int("transB", 1)]);
    return { name: out, features: fout };
  }
}

type ArchGraph = (g: GraphBuilder, x: Feature, cfg: ArchConfig) => Vector;

/** architectures.ts resnet.forward. */
const resnetGraph: ArchGraph = (g, x, cfg) => {
  const w = cfg.width;
  let h = g.relu(g.conv("stem", x, { stride: cfg.stemStride }), "stem");
  [w, 2 * w, 4 * w, 8 * w].forEach((width, s) => {
    for (let b = 0; b < 2; b++) {
      const stride = s > 0 && b === 0 ? 2 : 1;
      const name = `layer${s + 1}.${b}`;
      const shortcut = stride !== 1 || h.c !== width ? g.conv(`${name}.downsample`, h, { kernel: 1, stride }) : h;
      const y = g.conv(`${name}.conv2`, g.relu(g.conv(`${name}.conv1`, h, { stride })));
      const last = b === 1;
      // A stage's output carries the stage's tap name (stem, layer1 … layer4), as in PyTorch's ResNet.
      h = g.relu(g.add(y, shortcut, `${name}.add`), last ? `layer${s + 1}` : `${name}.out`);
    }
  });
  return g.dense("fc", g.globalAvgPool(h, "avgpool"), ONNX_OUTPUT);
};

/** architectures.ts resnet50.forward: bottleneck stages of 3, 4, 6 and 3 blocks. */
const resnet50Graph: ArchGraph = (g, x, cfg) => {
  const w = cfg.width;
  let h = g.relu(g.conv("stem", x, { stride: cfg.stemStride }), "stem");
  [3, 4, 6, 3].forEach((blocks, s) => {
    const out = 4 * w * 2 ** s;
    for (let b = 0; b < blocks; b++) {
      const stride = s > 0 && b === 0 ? 2 : 1;
      const name = `layer${s + 1}.${b}`;
      const shortcut = stride !== 1 || h.c !== out ? g.conv(`${name}.downsample`, h, { kernel: 1, stride }) : h;
      let y = g.relu(g.conv(`${name}.conv1`, h, { kernel: 1 }));
      y = g.relu(g.conv(`${name}.conv2`, y, { stride }));
      y = g.conv(`${name}.conv3`, y, { kernel: 1 });
      h = g.relu(g.add(y, shortcut, `${name}.add`), b === blocks - 1 ? `layer${s + 1}` : `${name}.out`);
    }
  });
  return g.dense("fc", g.globalAvgPool(h, "avgpool"), ONNX_OUTPUT);
};

/** architectures.ts vgg.forward. */
const vggGraph: ArchGraph = (g, x, cfg) => {
  let h = x;
  [cfg.width, 2 * cfg.width, 4 * cfg.width].forEach((_width, i) => {
    h = g.relu(g.conv(`block${i + 1}.conv1`, h, { stride: i === 0 ? cfg.stemStride : 1 }));
    h = g.relu(g.conv(`block${i + 1}.conv2`, h), `block${i + 1}`);
    h = g.maxPool(h, 2, 2, `block${i + 1}.pool`);
  });
  const flat = g.flatten(h, "flatten");
  return g.dense("classifier.fc2", g.relu(g.dense("classifier.fc1", flat)), ONNX_OUTPUT);
};

/** architectures.ts inceptionModule. */
function inceptionModule(g: GraphBuilder, name: string, x: Feature): Feature {
  const b1 = g.relu(g.conv(`${name}.b1`, x, { kernel: 1 }));
  const b3 = g.relu(g.conv(`${name}.b3`, g.relu(g.conv(`${name}.b3_reduce`, x, { kernel: 1 }))));
  let b5 = g.relu(g.conv(`${name}.b5_reduce`, x, { kernel: 1 }));
  b5 = g.relu(g.conv(`${name}.b5b`, g.relu(g.conv(`${name}.b5a`, b5))));
  const bp = g.relu(g.conv(`${name}.pool_proj`, g.maxPool(x, 3, 1, `${name}.pool`), { kernel: 1 }));
  return g.concat([b1, b3, b5, bp], name);
}

/** architectures.ts inception.forward. */
const inceptionGraph: ArchGraph = (g, x, cfg) => {
  let h = g.relu(g.conv("stem", x, { stride: cfg.stemStride }), "stem");
  h = g.maxPool(h, 2, 2, "stem.pool");
  h = inceptionModule(g, "mixed1", h);
  h = inceptionModule(g, "mixed2", h);
  h = g.maxPool(h, 2, 2, "mixed2.pool");
  h = inceptionModule(g, "mixed3", h);
  h = inceptionModule(g, "mixed4", h);
  return g.dense("fc", g.globalAvgPool(h, "avgpool"), ONNX_OUTPUT);
};

const GRAPHS: Record<string, ArchGraph> = { resnet: resnetGraph, resnet50: resnet50Graph, vgg: vggGraph, inception: inceptionGraph };

/** ModelProto bytes of the network a manifest describes, over its (folded) weights. */
export function exportOnnx(manifest: CheckpointManifest, weights: Map<string, ExportWeight>): Uint8Array {
  const graphOf = GRAPHS[manifest.arch];
  if (!graphOf) throw new OnnxExportError(`no ONNX export for architecture "${manifest.arch}"`);
  const [h, w, c] = manifest.inputShape;
  const classes = manifest.classNames.length;
  const g = new GraphBuilder(weights);
  const input: Feature = { name: ONNX_INPUT, c, h, w };
  const out = graphOf(g, input, manifest.archConfig);
  if (out.name !== ONNX_OUTPUT || out.features !== classes)
    throw new OnnxExportError(`${manifest.id}: the graph ends in ${out.name} with ${out.features} values, expected ${ONNX_OUTPUT} with ${classes}`);
  const tensorType = (dims: Array<number | string>) => ({
    tensorType: { elemType: FLOAT, shape: { dim: dims.map((d) => (typeof d === "string" ? { dimParam: d } : { dimValue: d })) } },
  });
  const model = {
    irVersion: ONNX_IR_VERSION,
    opsetImport: [{ domain: "", version: ONNX_OPSET }],
    producerName: "meta-rank",
    producerVersion: "1",
    modelVersion: 1,
    docString: `${manifest.id}: ${manifest.arch} trained on ${manifest.dataset}. Input float32 [N, ${c}, ${h}, ${w}] with pixels in [0, 1]; output logits [N, ${classes}] (no softmax).`,
    graph: {
      name: manifest.id,
      node: g.nodes,
      initializer: g.initializers,
      input: [{ name: ONNX_INPUT, type: tensorType(["N", c, h, w]) }],
      output: [{ name: ONNX_OUTPUT, type: tensorType(["N", classes]) }],
    },
    metadataProps: [
      { key: "checkpoint", value: manifest.id },
      { key: "weights_sha256", value: manifest.weightsSha256 },
      { key: "dataset", value: manifest.dataset },
      { key: "class_names", value: JSON.stringify(manifest.classNames) },
      { key: "input_layout", value: "NCHW float32, pixels in [0, 1]" },
    ],
  };
  const type = modelProto();
  return type.encode(type.fromObject(model)).finish();
}

/** Exports a loaded net from the values it holds on its backend (the ones its forward pass uses). */
export function exportZooNet(net: ZooNet): Uint8Array {
  const variables = net.trainableVariables();
  const entries = net.manifest.weights;
  // loadZooNet creates one variable per manifest entry, in manifest order.
  if (variables.length !== entries.length) throw new OnnxExportError(`${net.id}: ${variables.length} variables for ${entries.length} manifest weights`);
  const weights = new Map<string, ExportWeight>();
  entries.forEach((e, i) => weights.set(e.name, { shape: [...variables[i].shape], data: variables[i].dataSync() as Float32Array }));
  return exportOnnx(net.manifest, weights);
}

/** Exports a checkpoint straight from its files (no tensor backend needed). */
export function exportCheckpoint(id: string, dir?: string): Uint8Array {
  const { manifest, arrays } = readCheckpoint(id, dir);
  return exportOnnx(manifest, new Map(arrays.map((a) => [a.name, { shape: a.shape, data: a.data }])));
}
