// ONNX parity (docs/suite-kit.md "The ONNX models"): every checkpoint a suite task uses is exported
// to ONNX and run in onnxruntime-web (its wasm build, the same one a browser or any Node host runs)
// on the task's evaluation images; the logits must match the zoo's own forward pass on the
// sidecar's wasm backend. Tolerance: max |Δlogit| ≤ 1e-4 × max(1, max |logit|) over every image and
// class — float32 convolutions summed in a different order differ by a few ulps per layer, a wrong
// weight layout or padding differs by whole units — and the top-1 class agrees on every image.
import * as tf from "@tensorflow/tfjs";
import * as ort from "onnxruntime-web";
import protobuf from "protobufjs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { splitTaskId } from "../../sidecar/inference/evaluation/taskCheckpoints.ts";
import { evaluationImages, loadTaskNet } from "../../sidecar/inference/evaluation/tasks.ts";
import { pinnedCheckpoint, readSuite } from "../../sidecar/inference/evaluation/suite.ts";
import { ONNX_INPUT, ONNX_IR_VERSION, ONNX_OPSET, ONNX_OUTPUT, exportCheckpoint, exportZooNet } from "../../sidecar/zoo/onnx/export.ts";

// Every network a task of the two local suites uses (each suite pins its own), once.
const TASKS = [
  ...new Map(
    ["metarank-local", "metarank-local-v1"]
      .map((id) => readSuite(id))
      .flatMap((s) => s.tasks.map((task) => ({ task, pinned: pinnedCheckpoint(s, task) })))
      .map((t) => [t.pinned ?? t.task, t] as const),
  ).values(),
];
const IMAGES = 50;
const RELATIVE_TOLERANCE = 1e-4;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

beforeAll(async () => {
  await initBackend("wasm");
  // One thread: Node has no cross-origin isolation to need, and the suite runs in forks already.
  ort.env.wasm.numThreads = 1;
});

describe("ONNX export of the suite tasks' networks", () => {
  it.each(TASKS)("$task on $pinned: onnxruntime-web's logits match the zoo's forward pass", async ({ task, pinned }) => {
    const net = loadTaskNet(task, undefined, pinned);
    try {
      const ds = evaluationImages(splitTaskId(task).dataset, IMAGES);
      const bytes = exportZooNet(net);
      // The kit exports from the checkpoint files without a backend: the same model byte for byte.
      expect(Buffer.from(exportCheckpoint(net.manifest.id)).equals(Buffer.from(bytes))).toBe(true);
      const [h, w, c] = net.inputShape;
      const x = tf.tensor4d(ds.images, [ds.size, h, w, c]);
      const zoo = tf.tidy(() => net.forward(x).dataSync() as Float32Array);
      const nchw = tf.tidy(() => tf.transpose(x, [0, 3, 1, 2]).dataSync() as Float32Array);
      x.dispose();
      const session = await ort.InferenceSession.create(bytes);
      expect(session.inputNames).toEqual([ONNX_INPUT]);
      expect(session.outputNames).toEqual([ONNX_OUTPUT]);
      const out = await session.run({ [ONNX_INPUT]: new ort.Tensor("float32", nchw, [ds.size, c, h, w]) });
      const logits = out[ONNX_OUTPUT];
      const classes = net.classNames.length;
      expect(logits.dims).toEqual([ds.size, classes]);
      const onnx = logits.data as Float32Array;
      let maxDiff = 0;
      let scale = 0;
      let topAgree = 0;
      for (let i = 0; i < ds.size; i++) {
        let za = 0;
        let oa = 0;
        for (let k = 0; k < classes; k++) {
          const j = i * classes + k;
          maxDiff = Math.max(maxDiff, Math.abs(zoo[j] - onnx[j]));
          scale = Math.max(scale, Math.abs(zoo[j]));
          if (zoo[j] > zoo[i * classes + za]) za = k;
          if (onnx[j] > onnx[i * classes + oa]) oa = k;
        }
        if (za === oa) topAgree++;
      }
      console.log(
        `${task} (${net.manifest.id}): max |Δlogit| ${maxDiff.toExponential(2)}, max |logit| ${scale.toFixed(2)}, top-1 agree ${topAgree}/${ds.size}`,
      );
      expect(maxDiff).toBeLessThanOrEqual(RELATIVE_TOLERANCE * Math.max(1, scale));
      expect(topAgree).toBe(ds.size);
      await session.release();
    } finally {
      net.dispose();
    }
  });

  it("writes a ModelProto with the official field numbers, opset and IR version", () => {
    // Decode with the official onnx.proto's numbers as written in our subset; a reader that
    // disagreed on a field number would not find the graph, opset or input here.
    const root_ = protobuf.loadSync(path.join(root, "sidecar/zoo/onnx/onnx.proto"));
    const Model = root_.lookupType("onnx.ModelProto");
    const m = Model.toObject(Model.decode(exportCheckpoint("vgg-scenes")), { longs: Number }) as {
      irVersion: number;
      opsetImport: Array<{ version: number }>;
      graph: {
        node: Array<{ opType: string }>;
        input: Array<{ name: string; type: { tensorType: { shape: { dim: Array<{ dimValue?: number; dimParam?: string }> } } } }>;
      };
    };
    expect(m.irVersion).toBe(ONNX_IR_VERSION);
    expect(m.opsetImport[0].version).toBe(ONNX_OPSET);
    expect(m.graph.input[0].type.tensorType.shape.dim.map((d) => d.dimParam ?? d.dimValue)).toEqual(["N", 3, 32, 32]);
    expect(new Set(m.graph.node.map((n) => n.opType))).toEqual(new Set(["Conv", "Relu", "MaxPool", "Flatten", "Gemm"]));
  });
});
