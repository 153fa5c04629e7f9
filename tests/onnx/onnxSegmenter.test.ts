// An imported ONNX segmenter (docs/onnx-import.md, `--task segmentation`): a small FCN built here —
// Conv 3×3/2 (pad 1), Relu, Conv 1×1 scoring 3 classes, Resize ×2 (linear, half-pixel coordinates,
// PyTorch's bilinear upsampling) — whose weights make red pixels class 1, green pixels class 2 and
// the rest background. Imported with --task segmentation it gives the per-pixel scores
// onnxruntime-web gives for the same file (max |Δ| ≤ 1e-4 × max |score|), is listed by the
// Segmentation service's catalogue under its dataset, and the service's Segment and Explain
// (Feature_Ablation over the predicted segments, LayerGradCAM) run on it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as tf from "@tensorflow/tfjs";
import * as ort from "onnxruntime-web";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { explainSegmentWith, listSegModels, segmentWith } from "../../sidecar/inference/segmentation/job.ts";
import { loadImportedSegmenter } from "../../sidecar/zoo/onnx/graphNet.ts";
import { importOnnxModel } from "../../sidecar/zoo/onnx/importOnnx.ts";
import { OnnxImportError } from "../../sidecar/zoo/onnx/onnxMessages.ts";
import { encodeModel, floatTensor, ints } from "./torchvisionResnet18.ts";

const SIZE = 32;
let dir: string;

beforeAll(async () => {
  await initBackend("wasm");
  ort.env.wasm.numThreads = 1;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnx-seg-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function fcn(): Uint8Array {
  // conv1 passes each channel through at stride 2 (a centre tap of 1); score = conv 1×1 of that.
  const w1 = new Float32Array(3 * 3 * 3 * 3);
  for (let c = 0; c < 3; c++) w1[((c * 3 + c) * 3 + 1) * 3 + 1] = 1;
  const w2 = Float32Array.from([-1, -1, 0, 2, 0, 0, 0, 2, 0]);
  const b2 = Float32Array.from([0.5, 0, 0]);
  return encodeModel({
    opset: 13,
    nodes: [
      {
        name: "/backbone/conv1/Conv",
        opType: "Conv",
        input: ["input", "conv1.weight"],
        output: ["c1"],
        attribute: [ints("kernel_shape", [3, 3]), ints("pads", [1, 1, 1, 1]), ints("strides", [2, 2])],
      },
      { name: "/backbone/relu/Relu", opType: "Relu", input: ["c1"], output: ["features"], attribute: [] },
      {
        name: "/classifier/Conv",
        opType: "Conv",
        input: ["features", "classifier.weight", "classifier.bias"],
        output: ["score"],
        attribute: [ints("kernel_shape", [1, 1])],
      },
      {
        name: "/Resize",
        opType: "Resize",
        input: ["score", "", "scales"],
        output: ["out"],
        attribute: [
          { name: "mode", type: 3, s: new TextEncoder().encode("linear") } as never,
          { name: "coordinate_transformation_mode", type: 3, s: new TextEncoder().encode("half_pixel") } as never,
        ],
      },
    ],
    initializers: [
      floatTensor("conv1.weight", [3, 3, 3, 3], w1),
      floatTensor("classifier.weight", [3, 3, 1, 1], w2),
      floatTensor("classifier.bias", [3], b2),
      floatTensor("scales", [4], Float32Array.from([1, 1, 2, 2])),
    ],
    input: { name: "input", dims: ["N", 3, SIZE, SIZE] },
    output: { name: "out", dims: ["N", 3, SIZE, SIZE] },
  });
}

/** Left half red, bottom-right quarter green, top-right black. */
function picture(): Float32Array {
  const px = new Float32Array(SIZE * SIZE * 3);
  for (let y = 0; y < SIZE; y++)
    for (let x = 0; x < SIZE; x++) {
      const i = (y * SIZE + x) * 3;
      if (x < SIZE / 2) px[i] = 1;
      else if (y >= SIZE / 2) px[i + 1] = 1;
    }
  return px;
}

describe("ONNX import of a segmenter", () => {
  it("gives onnxruntime-web's per-pixel scores and runs the Segmentation service's Segment and Explain", async () => {
    const bytes = fcn();
    const labels = ["background", "red thing", "green thing"];
    const manifest = importOnnxModel(bytes, { id: "fcn-onnx", dataset: "toy-seg", classNames: labels, dir, task: "segmentation" });
    expect(manifest.task).toBe("segmentation");
    expect(manifest.defaultCamLayer).toBe("features");
    expect(fs.existsSync(path.join(dir, "segmentation", "fcn-onnx.json"))).toBe(true);
    const listed = listSegModels(undefined, path.join(dir, "segmentation")).models.find((m) => m.id === "fcn-onnx");
    expect(listed).toMatchObject({ dataset: "toy-seg", arch: "onnx", classNames: labels, inputHeight: SIZE, testSize: 0 });

    const seg = loadImportedSegmenter("fcn-onnx", path.join(dir, "segmentation"));
    const px = picture();
    const x = tf.tensor4d(px, [1, SIZE, SIZE, 3]);
    const mine = tf.tidy(() => tf.transpose(seg.forward(x), [0, 3, 1, 2]).dataSync());
    const nchw = tf.tidy(() => tf.transpose(x, [0, 3, 1, 2]).dataSync() as Float32Array);
    const session = await ort.InferenceSession.create(bytes);
    const ref = (await session.run({ input: new ort.Tensor("float32", nchw, [1, 3, SIZE, SIZE]) })).out.data as Float32Array;
    await session.release();
    let diff = 0;
    let scale = 0;
    for (let i = 0; i < ref.length; i++) {
      diff = Math.max(diff, Math.abs(ref[i] - mine[i]));
      scale = Math.max(scale, Math.abs(ref[i]));
    }
    console.log(`segmenter scores vs onnxruntime-web: max |Δ| ${diff.toExponential(2)} (max |score| ${scale.toFixed(2)})`);
    expect(diff).toBeLessThanOrEqual(1e-4 * scale);

    const image = { tensor: { shape: [SIZE, SIZE, 3], data: px } };
    const result = segmentWith(seg, image);
    expect(result.classes.map((c) => c.id).sort()).toEqual([1, 2]);
    for (const algorithm of ["Feature_Ablation", "LayerGradCAM"]) {
      const r = await explainSegmentWith(seg, { algorithm, targetClass: 2, image });
      expect(r.attribution.data.every(Number.isFinite)).toBe(true);
      expect(r.attribution.data.some((v) => v !== 0)).toBe(true);
    }
    x.dispose();
    seg.dispose();
  });

  it("refuses a classifier's output for --task segmentation", () => {
    const bytes = encodeModel({
      nodes: [
        { name: "/Flatten", opType: "Flatten", input: ["input"], output: ["flat"], attribute: [] },
        { name: "/fc/Gemm", opType: "Gemm", input: ["flat", "w"], output: ["logits"], attribute: [] },
      ],
      initializers: [floatTensor("w", [12, 3], new Float32Array(36).fill(0.1))],
      input: { name: "input", dims: [1, 3, 2, 2] },
      output: { name: "logits", dims: [1, 3] },
    });
    expect(() => importOnnxModel(bytes, { id: "not-seg", dataset: "x", classNames: ["a", "b", "c"], dir, task: "segmentation" })).toThrowError(OnnxImportError);
    expect(() => importOnnxModel(bytes, { id: "not-seg", dataset: "x", classNames: ["a", "b", "c"], dir, task: "segmentation" })).toThrowError(
      /per-pixel scores \[1, 3, 2, 2\]/,
    );
  });
});
