// Imports an operator's trained classifier from ONNX into the sidecar's runtime
// (docs/onnx-import.md): the ModelProto is parsed with the exporter's schema (onnx.proto, the
// official field numbers), each node becomes one op of a graph description (graphNet.ts) and its
// float constants become the weights of a zoo-format checkpoint (checkpoint.ts; the node
// converters are onnxNodes.ts, the decoded messages and limits onnxMessages.ts): Conv kernels OIHW
// → HWIO, Gemm/MatMul weights → [in, out], a BatchNormalization right after a Conv folded into it
// exactly as the zoo folds its own (layers.ts foldBatchNorm), any other BatchNormalization kept as
// a scale and shift. The result is written to the operator's folder (IMPORTED_MODEL_DIR) that the
// Inference service lists and serves beside the zoo's checkpoints (sidecar/inference/models.ts).
//
// Written here rather than taken from a library: onnxruntime-web runs ONNX but has no gradients
// (every attribution method but the perturbation ones needs them) and no hook to change ReLU's
// backward or tap a layer; tfjs's own converter reads TensorFlow SavedModels, not ONNX. The
// graph must run on tfjs ops through the zoo's relu.ts/maxPool.ts for Captum's semantics to hold.
//
// Everything is bounded: the file's size, the node count, each weight's and all weights' sizes,
// the input size, the class count, each intermediate value's size (measured by one forward pass
// on zeros at import), and every operator outside the supported list is refused by name.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import * as tf from "@tensorflow/tfjs";
import type { ArchName } from "../architectures.ts";
import { modelProto } from "./proto.ts";
import { segCheckpointDir } from "../segmenter.ts";
import { writeCheckpoint, readManifest, checkpointDir, type NamedArray, CheckpointError } from "../checkpoint.ts";
import type { WeightMap } from "../layers.ts";
import { runGraph, importedModelDir, type GraphSpec, type ImportedManifest } from "./graphNet.ts";
import { GraphBuilder, SUPPORTED_OPERATORS, convertNode } from "./onnxNodes.ts";
import {
  DT,
  MAX_CLASSES,
  MAX_INPUT_SIDE,
  MAX_LABEL_CHARS,
  MAX_NODES,
  MAX_ONNX_BYTES,
  MAX_VALUE_ELEMENTS,
  MAX_WEIGHT_VALUES,
  OnnxImportError,
  tensorValues,
  type Constant,
  type ModelMsg,
  type NodeMsg,
} from "./onnxMessages.ts";

export interface ImportOptions {
  /** Checkpoint id (lower-case letters, digits, '.', '_', '-'). */
  id: string;
  /** Dataset id the model belongs to (ModelInfo.dataset): "imagenet" for /imagenet. */
  dataset: string;
  classNames: string[];
  /** Input height and width when the graph leaves them symbolic. */
  size?: [number, number];
  /** Per-channel normalisation the model expects of [0, 1] pixels (e.g. ImageNet's mean and std). */
  mean?: number[];
  std?: number[];
  /** The file's name, for the manifest's record of where the model came from. */
  sourceName?: string;
  /** classification (default): scores [N, classes]; segmentation: per-pixel scores [N, classes, H, W] at the input's size. */
  task?: "classification" | "segmentation";
}

export interface ImportedModel {
  manifest: ImportedManifest;
  arrays: NamedArray[];
}

type GraphMsg = NonNullable<ModelMsg["graph"]>;

/** The ModelProto, its graph's nodes (within MAX_NODES) and the default domain's opset (7 or later). */
function decodeModel(bytes: Uint8Array): { model: ModelMsg; graph: GraphMsg; nodes: NodeMsg[]; opset: number } {
  if (bytes.length > MAX_ONNX_BYTES) throw new OnnxImportError(`the file is ${bytes.length} bytes; at most ${MAX_ONNX_BYTES} are imported`);
  let model: ModelMsg;
  try {
    const type = modelProto();
    model = type.toObject(type.decode(bytes), { longs: Number, defaults: false }) as ModelMsg;
  } catch (err) {
    throw new OnnxImportError(`not an ONNX model (the protobuf does not parse: ${(err as Error).message})`);
  }
  const graph = model.graph;
  if (!graph || !graph.node?.length) throw new OnnxImportError("not an ONNX model (no graph or an empty graph)");
  const nodes = graph.node;
  if (nodes.length > MAX_NODES) throw new OnnxImportError(`the graph has ${nodes.length} nodes; at most ${MAX_NODES} are imported`);
  const opset = (model.opsetImport ?? []).find((o) => !o.domain || o.domain === "ai.onnx")?.version ?? 0;
  if (opset < 7) throw new OnnxImportError(`opset ${opset || "(none)"} of the default domain; opset 7 or later is imported`);
  return { model, graph, nodes, opset };
}

/** Every unsupported operator at once, each with its node, so the operator sees the whole list. */
function refuseUnsupported(nodes: NodeMsg[]): void {
  const unsupported = nodes
    .map((n, i) => ({ n, i }))
    .filter(({ n }) => (n.domain && n.domain !== "ai.onnx") || !(SUPPORTED_OPERATORS as readonly string[]).includes(n.opType ?? ""));
  if (!unsupported.length) return;
  const list = unsupported.map(({ n, i }) => `${n.domain && n.domain !== "ai.onnx" ? `${n.domain}.` : ""}${n.opType} (node "${n.name || `#${i}`}")`);
  throw new OnnxImportError(
    `unsupported ONNX operator${unsupported.length > 1 ? "s" : ""}: ${list.slice(0, 20).join(", ")}${list.length > 20 ? `, … ${list.length - 20} more` : ""}. Supported: ${SUPPORTED_OPERATORS.join(", ")}`,
  );
}

/** The initializers by name, and how many values they hold together (within MAX_WEIGHT_VALUES). */
function readInitializers(graph: GraphMsg): { constants: Map<string, Constant>; weightTotal: number } {
  const constants = new Map<string, Constant>();
  let weightTotal = 0;
  for (const t of graph.initializer ?? []) {
    if (!t.name) throw new OnnxImportError("an initializer has no name");
    const c = tensorValues(t, `initializer ${t.name}`);
    weightTotal += c.data.length;
    if (weightTotal > MAX_WEIGHT_VALUES) throw new OnnxImportError(`the weights hold more than ${MAX_WEIGHT_VALUES} values`);
    constants.set(t.name, c);
  }
  return { constants, weightTotal };
}

/** The one real input, a float image [N, 1 or 3, H, W]; `opts.size` gives a symbolic height and width. */
function readInput(graph: GraphMsg, constants: Map<string, Constant>, opts: ImportOptions): { name: string; height: number; width: number; channels: 1 | 3 } {
  // Graph inputs that are not initializers (IR < 4 lists weights as inputs too).
  const inputs = (graph.input ?? []).filter((v) => !constants.has(v.name));
  if (inputs.length !== 1)
    throw new OnnxImportError(`the graph has ${inputs.length} inputs (${inputs.map((v) => v.name).join(", ")}); one image input is imported`);
  const input = inputs[0];
  const dims = input.type?.tensorType?.shape?.dim ?? [];
  if (input.type?.tensorType?.elemType !== DT.FLOAT) throw new OnnxImportError(`input ${input.name} is not float32`);
  if (dims.length !== 4) throw new OnnxImportError(`input ${input.name} has rank ${dims.length}; an image input [N, C, H, W] is imported`);
  const fixed = dims.map((d) => (d.dimValue !== undefined && d.dimValue > 0 ? Number(d.dimValue) : null));
  const channels = fixed[1];
  if (channels !== 1 && channels !== 3)
    throw new OnnxImportError(`input ${input.name} has ${channels ?? "a symbolic number of"} channels; 1 (grey) or 3 (RGB) are imported`);
  let [height, width] = [fixed[2], fixed[3]];
  if (opts.size) {
    if ((height !== null && height !== opts.size[0]) || (width !== null && width !== opts.size[1]))
      throw new OnnxImportError(`--size ${opts.size[0]}x${opts.size[1]} contradicts the graph's input ${height ?? "H"}×${width ?? "W"}`);
    [height, width] = opts.size;
  }
  if (height === null || width === null) throw new OnnxImportError(`input ${input.name} has a symbolic height or width; give --size HxW`);
  if (height > MAX_INPUT_SIDE || width > MAX_INPUT_SIDE || height < 1 || width < 1)
    throw new OnnxImportError(`input ${height}×${width} is outside 1…${MAX_INPUT_SIDE} pixels a side`);
  return { name: input.name, height, width, channels };
}

/** The per-channel normalisation asked for (`--mean`, `--std`), or none. */
function readNormalize(opts: ImportOptions, channels: number): GraphSpec["normalize"] {
  if (!opts.mean && !opts.std) return null;
  const mean = opts.mean ?? Array(channels).fill(0);
  const std = opts.std ?? Array(channels).fill(1);
  if (mean.length !== channels || std.length !== channels) throw new OnnxImportError(`--mean and --std need ${channels} values each (one per channel)`);
  if (![...mean, ...std].every(Number.isFinite) || std.some((s) => s <= 0)) throw new OnnxImportError("--mean must be finite and --std positive");
  return { mean, std };
}

/** How many nodes read each value (a Conv's output read only by a BatchNormalization can absorb it); the graph's output counts as read. */
function countReaders(nodes: NodeMsg[], graphOutput: string): Map<string, number> {
  const readers = new Map<string, number>();
  for (const n of nodes) for (const v of n.input ?? []) if (v) readers.set(v, (readers.get(v) ?? 0) + 1);
  readers.set(graphOutput, (readers.get(graphOutput) ?? 0) + 1);
  return readers;
}

/** The value served: the graph's output, or the logits before a final Softmax (the probabilities are their softmax, as for the zoo's nets). */
function servedOutput(g: GraphBuilder, graphOutput: string): { output: string; strippedSoftmax: boolean } {
  const output = g.resolve(graphOutput);
  if (!g.produced.has(output)) throw new OnnxImportError(`the graph output ${graphOutput} is not computed by any node`);
  const last = g.ops[g.ops.length - 1];
  if (last?.op === "softmax" && last.out === output) {
    g.ops.pop();
    return { output: last.in, strippedSoftmax: true };
  }
  return { output, strippedSoftmax: false };
}

/** Converts ONNX bytes into a manifest and weights (nothing written); throws OnnxImportError. */
export function convertOnnx(bytes: Uint8Array, opts: ImportOptions): ImportedModel {
  const { model, graph, nodes, opset } = decodeModel(bytes);
  refuseUnsupported(nodes);
  const { constants, weightTotal } = readInitializers(graph);
  const input = readInput(graph, constants, opts);
  const outputs = graph.output ?? [];
  if (outputs.length !== 1) throw new OnnxImportError(`the graph has ${outputs.length} outputs; one output (the class scores) is imported`);
  const classNames = opts.classNames;
  if (classNames.length < 2 || classNames.length > MAX_CLASSES) throw new OnnxImportError(`${classNames.length} labels; 2 to ${MAX_CLASSES} are imported`);
  const normalize = readNormalize(opts, input.channels);

  const graphOutput = outputs[0].name;
  const builder = new GraphBuilder(constants, weightTotal, countReaders(nodes, graphOutput), graphOutput, opset, input.name);
  nodes.forEach((n, index) => convertNode(n, index, builder));
  const { output, strippedSoftmax } = servedOutput(builder, graphOutput);

  const spec: GraphSpec = { format: "metarank-onnx-graph/1", input: input.name, output, ops: builder.ops, normalize, strippedSoftmax };
  const arrays = builder.arrays;
  const sha256 = crypto.createHash("sha256").update(bytes).digest("hex");
  const importedAt = new Date().toISOString();
  const manifest: ImportedManifest = {
    format: "metarank-checkpoint/1",
    dtype: "float32",
    id: opts.id,
    // Not one of the zoo's architectures: "onnx" tells ListModels' clients the network came from an import.
    arch: "onnx" as ArchName,
    archConfig: { width: 0, stemStride: 1 },
    dataset: opts.dataset,
    inputShape: [input.height, input.width, input.channels],
    classNames,
    // Not measured here: testSize 0 says so (the app shows no accuracy for it).
    testAccuracy: 0,
    trainSize: 0,
    testSize: 0,
    epochs: 0,
    trainedAt: importedAt,
    trainingSeconds: 0,
    backend: "onnx-import",
    layers: [],
    defaultCamLayer: "",
    weightsFile: "",
    weightsSha256: "",
    weights: arrays.map((a) => ({ name: a.name, shape: a.shape })),
    graph: spec,
    task: opts.task ?? "classification",
    source: {
      file: path.basename(opts.sourceName ?? "model.onnx"),
      sha256,
      bytes: bytes.length,
      producer: [model.producerName, model.producerVersion].filter(Boolean).join(" "),
      irVersion: Number(model.irVersion ?? 0),
      opset,
      importedAt,
    },
  };
  if (manifest.task === "segmentation") {
    // The fields the Segmentation service's catalogue reads of a segmenter (segmenter.ts SegmenterManifest):
    // nothing was measured here, so no IoU (testSize 0 says so).
    Object.assign(manifest, { segArch: "onnx", meanIoU: 0, perClassIoU: [], valMeanIoU: 0, command: "npm run -s import-model" });
  }
  checkByRunning(manifest, arrays);
  return { manifest, arrays };
}

/**
 * One forward pass on a zero image: every value within MAX_VALUE_ELEMENTS, the output
 * [1, classes], and the tap-able layers (LayerGradCam) read off the values' ranks: the
 * feature maps that ReLUs and Concats produce, in forward order, the last one the default.
 */
function checkByRunning(manifest: ImportedManifest, arrays: NamedArray[]): void {
  const weights: WeightMap = new Map();
  const layers: string[] = [];
  const convs: string[] = [];
  try {
    for (const a of arrays) weights.set(a.name, tf.variable(tf.tensor(a.data, a.shape), false));
    tf.tidy(() => {
      const y = runGraph(manifest.graph, weights, tf.zeros([1, ...manifest.inputShape]) as tf.Tensor4D, {
        observe(name, v, op) {
          if (v.size > MAX_VALUE_ELEMENTS) throw new OnnxImportError(`value ${name} holds ${v.size} numbers for one image, more than ${MAX_VALUE_ELEMENTS}`);
          if (v.rank === 4 && op && (op.op === "relu" || op.op === "concat")) layers.push(name);
          if (v.rank === 4 && op?.op === "conv") convs.push(name);
        },
      });
      const classes = manifest.classNames.length;
      const [h, w] = manifest.inputShape;
      if (manifest.task === "segmentation") {
        // Held NHWC: the ONNX output [1, classes, H, W].
        if (y.rank !== 4 || y.shape[1] !== h || y.shape[2] !== w || y.shape[3] !== classes)
          throw new OnnxImportError(
            `the graph gives [${[y.shape[0], y.shape[3], y.shape[1], y.shape[2]].join(", ")}] for one image; a segmenter with ${classes} labels gives per-pixel scores [1, ${classes}, ${h}, ${w}] at the input's size`,
          );
      } else if (y.rank !== 2 || y.shape[1] !== classes)
        throw new OnnxImportError(
          `the graph gives [${y.shape.join(", ")}] for one image; a classifier with ${classes} outputs (one per label) gives [1, ${classes}]`,
        );
      if (!Array.from(y.dataSync()).every(Number.isFinite)) throw new OnnxImportError("the graph gives NaN or infinite scores for a black image");
    });
  } catch (err) {
    if (err instanceof OnnxImportError) throw err;
    throw new OnnxImportError(`the converted graph does not run: ${(err as Error).message}`);
  } finally {
    for (const v of weights.values()) v.dispose();
  }
  manifest.layers = layers.length ? layers : convs;
  manifest.defaultCamLayer = manifest.layers[manifest.layers.length - 1] ?? "";
}

/** Labels: one per line (blank lines and surrounding spaces dropped) or a JSON array of strings. */
export function parseLabels(text: string): string[] {
  const trimmed = text.trim();
  let labels: unknown;
  if (trimmed.startsWith("[")) {
    try {
      labels = JSON.parse(trimmed);
    } catch (err) {
      throw new OnnxImportError(`the labels file looks like JSON but does not parse: ${(err as Error).message}`);
    }
  } else
    labels = trimmed
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
  if (!Array.isArray(labels) || labels.some((l) => typeof l !== "string" || !l.trim())) throw new OnnxImportError("labels must be non-empty strings");
  const tooLong = (labels as string[]).find((l) => l.length > MAX_LABEL_CHARS);
  if (tooLong) throw new OnnxImportError(`label "${tooLong.slice(0, 40)}…" is longer than ${MAX_LABEL_CHARS} characters`);
  return labels as string[];
}

/**
 * Converts and writes `<id>.onnx` (the file as given), `<id>.json` + `<id>.weights.bin` into `dir`. Refuses an id that a zoo
 * checkpoint already has (ListModels would show two models under one id) or that exists
 * in `dir` unless `replace` is set.
 */
export function importOnnxModel(bytes: Uint8Array, opts: ImportOptions & { dir?: string; zooDir?: string; replace?: boolean }): ImportedManifest {
  const segmentation = opts.task === "segmentation";
  // Segmenters go to a folder of their own (graphNet.ts importedSegmentationDir), as the zoo's do.
  const dir = segmentation ? path.join(opts.dir ?? importedModelDir(), "segmentation") : (opts.dir ?? importedModelDir());
  const zooDir = opts.zooDir ?? (segmentation ? segCheckpointDir() : checkpointDir());
  try {
    readManifest(opts.id, zooDir);
    throw new OnnxImportError(`id "${opts.id}" is a zoo checkpoint's; choose another --id`);
  } catch (err) {
    if (err instanceof OnnxImportError) throw err;
    if (err instanceof CheckpointError && /not a valid checkpoint id/.test(err.message))
      throw new OnnxImportError(`id "${opts.id}" must be lower-case letters, digits, '.', '_' or '-'`);
  }
  if (!opts.replace && fs.existsSync(path.join(dir, `${opts.id}.json`)))
    throw new OnnxImportError(`${dir} already holds a model "${opts.id}"; pass --replace to overwrite it`);
  const { manifest, arrays } = convertOnnx(bytes, opts);
  const { weights: _w, weightsFile: _f, weightsSha256: _s, format: _fmt, dtype: _d, ...rest } = manifest;
  // The file as given, beside the checkpoint: the sidecar serves it on onnxruntime
  // (sidecar/engine); the converted graph serves it on tfjs. Written first, so no manifest ever
  // names a model whose file is missing.
  fs.mkdirSync(dir, { recursive: true });
  const onnxFile = path.join(dir, `${opts.id}.onnx`);
  fs.writeFileSync(`${onnxFile}.part`, bytes);
  fs.renameSync(`${onnxFile}.part`, onnxFile);
  return writeCheckpoint(dir, rest, arrays, "float32") as ImportedManifest;
}
