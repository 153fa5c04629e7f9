// ONNX import (docs/onnx-import.md), on the sidecar's wasm backend:
// 1. Round trip: the zoo's resnet, vgg (max pools) and inception checkpoints exported to ONNX by
//    the kit's exporter (sidecar/zoo/onnx/export.ts) and imported back give the same logits and
//    the same Saliency, IntegratedGradients, GuidedBackprop and LayerGradCam attributions as the
//    zoo's own forward pass, on real held-out images. Tolerance: max |Δ| ≤ 1e-4 × max(1e-6, max |zoo|)
//    per result — the imported graph runs the same tfjs ops except VGG's flatten (an NCHW
//    transpose instead of permuted dense rows: a different float summation order, ~1e-6
//    relative); a wrong layout, padding or ReLU/max-pool rule differs by whole units.
// 2. A torchvision-style ResNet-18 built here (random weights, the real operator layout, 224 px,
//    batch norms unfolded, max pool 3×3/2 pad 1) imports, matches onnxruntime-web's logits on the
//    same bytes (same tolerance relative to the largest logit), is served by the model catalogue
//    under its --dataset, and explains with Saliency.
// 3. An unsupported operator is refused with its name and its node, by the function and the CLI.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as tf from "@tensorflow/tfjs";
import * as ort from "onnxruntime-web";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAlgorithm } from "../../sidecar/inference/attribution/index.ts";
import { evaluationImages } from "../../sidecar/inference/evaluation/tasks.ts";
import { getNet, listModels } from "../../sidecar/inference/models.ts";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { exportCheckpoint } from "../../sidecar/zoo/onnx/export.ts";
import { loadImportedNet } from "../../sidecar/zoo/onnx/graphNet.ts";
import { importOnnxModel, parseLabels } from "../../sidecar/zoo/onnx/importOnnx.ts";
import { OnnxImportError } from "../../sidecar/zoo/onnx/onnxMessages.ts";
import { loadZooNet } from "../../sidecar/zoo/zooNet.ts";
import { encodeModel, floatTensor, int, ints, torchvisionResnet18 } from "./torchvisionResnet18.ts";

const RELATIVE_TOLERANCE = 1e-4;
/** Lets vitest's worker answer its runner between long synchronous steps (a starved CPU makes each take seconds). */
const breathe = () => new Promise((resolve) => setImmediate(resolve));
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
let dir: string;

beforeAll(async () => {
  await initBackend("wasm");
  ort.env.wasm.numThreads = 1;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnx-import-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): { diff: number; scale: number } {
  expect(a.length).toBe(b.length);
  let diff = 0;
  let scale = 0;
  for (let i = 0; i < a.length; i++) {
    diff = Math.max(diff, Math.abs(a[i] - b[i]));
    scale = Math.max(scale, Math.abs(a[i]));
  }
  return { diff, scale };
}

function expectClose(what: string, zoo: ArrayLike<number>, imported: ArrayLike<number>): void {
  const { diff, scale } = maxAbsDiff(zoo, imported);
  console.log(`${what}: max |Δ| ${diff.toExponential(2)} (max |zoo| ${scale.toExponential(2)})`);
  expect(scale).toBeGreaterThan(0);
  expect(diff).toBeLessThanOrEqual(RELATIVE_TOLERANCE * Math.max(1e-6, scale));
}

const ROUND_TRIP: Array<[string, string, number]> = [
  ["resnet-scenes", "scenes", 0],
  ["vgg-scenes", "scenes", 1],
  ["inception-scenes", "scenes", 2],
];
const METHODS: Array<[string, Record<string, unknown>]> = [
  ["Saliency", {}],
  ["IntegratedGradients", { n_steps: 16 }],
  ["GuidedBackprop", {}],
  ["LayerGradCam", {}],
];

describe("ONNX import: the zoo's own exports round-trip", () => {
  it.each(ROUND_TRIP)("%s: same logits and attributions as the zoo's net", async (id, dataset, image) => {
    const zoo = loadZooNet(id);
    const manifest = importOnnxModel(exportCheckpoint(id), { id: `${id}-onnx`, dataset, classNames: zoo.classNames, dir, sourceName: `${id}.onnx` });
    const imported = loadImportedNet(manifest.id, dir);
    try {
      expect(manifest.arch).toBe("onnx");
      expect(imported.layers).toContain(zoo.defaultCamLayer);
      expect(imported.defaultCamLayer).toBe(zoo.defaultCamLayer);
      const ds = evaluationImages(dataset, 8);
      const [h, w, c] = zoo.inputShape;
      const x = tf.tensor4d(ds.images, [ds.size, h, w, c]);
      expectClose(
        `${id} logits`,
        tf.tidy(() => zoo.forward(x).dataSync()),
        tf.tidy(() => imported.forward(x).dataSync()),
      );
      const one = tf.tidy(() => tf.slice(x, [image, 0, 0, 0], [1, h, w, c])) as tf.Tensor4D;
      const target = tf.tidy(() => tf.argMax(zoo.forward(one), 1).dataSync()[0]);
      for (const [method, params] of METHODS) {
        const algo = getAlgorithm(method);
        const a = await algo.run(zoo, one, target, params);
        const b = await algo.run(imported, one, target, params);
        expect(b.attribution.shape).toEqual(a.attribution.shape);
        expectClose(`${id} ${method}`, a.attribution.dataSync(), b.attribution.dataSync());
        tf.dispose([a.attribution, b.attribution]);
      }
      tf.dispose([x, one]);
    } finally {
      zoo.dispose();
      imported.dispose();
    }
  });
});

describe("ONNX import: a torchvision-style ResNet-18 at 224 px", () => {
  // The slowest test here: 11.7 M weights converted, stored, read back, and a 224 px network run
  // four times (import check, load check, logits, Saliency's forward and backward) on one wasm thread.
  it("imports, matches onnxruntime-web, is listed under its dataset and explains", { timeout: 240_000 }, async () => {
    const bytes = torchvisionResnet18({ size: 224, classes: 1000, seed: 18 });
    const labels = Array.from({ length: 1000 }, (_, i) => `class ${i}`);
    await breathe();
    const manifest = importOnnxModel(bytes, {
      id: "resnet18-tv",
      dataset: "imagenet",
      classNames: labels,
      dir,
      mean: [0.485, 0.456, 0.406],
      std: [0.229, 0.224, 0.225],
    });
    // Each Conv + BatchNormalization pair is folded (20 convs); relu ×17, maxpool, add ×8, avgpool, flatten and fc stay.
    expect(manifest.graph.ops.filter((o) => o.op === "batchNorm")).toHaveLength(0);
    expect(manifest.graph.ops.filter((o) => o.op === "conv")).toHaveLength(20);
    expect(manifest.graph.ops).toHaveLength(20 + 17 + 1 + 8 + 1 + 1 + 1);
    expect(manifest.inputShape).toEqual([224, 224, 3]);
    expect(manifest.defaultCamLayer).toBe("/layer4/layer4.1/relu_1/Relu_output_0");
    await breathe();

    // The catalogue lists it beside the zoo's checkpoints with the operator's dataset id, and serves it.
    const info = listModels(undefined, dir).models.find((m) => m.id === "resnet18-tv");
    expect(info).toMatchObject({ arch: "onnx", dataset: "imagenet", inputHeight: 224, inputWidth: 224, inputChannels: 3 });
    expect(info!.classNames).toHaveLength(1000);
    const net = getNet("resnet18-tv", undefined, dir);
    await breathe();

    // onnxruntime-web on the same bytes, with the normalisation the import put in front.
    const x = tf.randomUniform([1, 224, 224, 3], 0, 1, "float32", 7) as tf.Tensor4D;
    const mine = tf.tidy(() => net.forward(x).dataSync());
    const nchw = tf.tidy(() => tf.transpose(tf.div(tf.sub(x, [0.485, 0.456, 0.406]), [0.229, 0.224, 0.225]), [0, 3, 1, 2]).dataSync() as Float32Array);
    const session = await ort.InferenceSession.create(bytes);
    const ref = (await session.run({ input: new ort.Tensor("float32", nchw, [1, 3, 224, 224]) })).output.data as Float32Array;
    await session.release();
    expectClose("resnet18 (224 px) logits vs onnxruntime-web", ref, mine);
    await breathe();

    let target = 0;
    for (let k = 1; k < mine.length; k++) if (mine[k] > mine[target]) target = k;
    const sal = await getAlgorithm("Saliency").run(net, x, target, {});
    expect(sal.attribution.shape).toEqual([1, 224, 224, 3]);
    const values = sal.attribution.dataSync();
    expect(values.every(Number.isFinite)).toBe(true);
    expect(values.some((v) => v > 0)).toBe(true);
    tf.dispose([x, sal.attribution]);
  });
});

describe("ONNX import: refusals", () => {
  // input → Conv → Einsum → HardSwish → output: two operators outside the supported list.
  const unsupported = () =>
    encodeModel({
      nodes: [
        { name: "/stem/Conv", opType: "Conv", input: ["input", "w"], output: ["a"], attribute: [ints("kernel_shape", [3, 3]), ints("pads", [1, 1, 1, 1])] },
        { name: "/attn/Einsum", opType: "Einsum", input: ["a", "a"], output: ["b"], attribute: [] },
        { name: "/act/HardSwish", opType: "HardSwish", input: ["b"], output: ["logits"], attribute: [int("unused", 0)] },
      ],
      initializers: [floatTensor("w", [4, 3, 3, 3], new Float32Array(108).fill(0.1))],
      input: { name: "input", dims: [1, 3, 8, 8] },
      output: { name: "logits", dims: [1, 4] },
    });

  it("names every unsupported operator and its node", () => {
    expect(() => importOnnxModel(unsupported(), { id: "bad", dataset: "x", classNames: ["a", "b", "c", "d"], dir })).toThrowError(OnnxImportError);
    expect(() => importOnnxModel(unsupported(), { id: "bad", dataset: "x", classNames: ["a", "b", "c", "d"], dir })).toThrowError(
      /unsupported ONNX operators: Einsum \(node "\/attn\/Einsum"\), HardSwish \(node "\/act\/HardSwish"\)/,
    );
    expect(fs.existsSync(path.join(dir, "bad.json"))).toBe(false);
  });

  it("refuses labels that do not match the outputs, a zoo id, and non-ONNX bytes", () => {
    const bytes = exportCheckpoint("vgg-scenes");
    expect(() => importOnnxModel(bytes, { id: "vgg-wrong", dataset: "scenes", classNames: ["a", "b", "c"], dir })).toThrowError(/\[1, 3\]/);
    expect(() => importOnnxModel(bytes, { id: "vgg-scenes", dataset: "scenes", classNames: ["a", "b"], dir })).toThrowError(/zoo checkpoint/);
    expect(() => importOnnxModel(new TextEncoder().encode("not a model at all"), { id: "junk", dataset: "x", classNames: ["a", "b"], dir })).toThrowError(
      OnnxImportError,
    );
    expect(parseLabels("tench\n goldfish \n\n")).toEqual(["tench", "goldfish"]);
    expect(parseLabels('["a", "b"]')).toEqual(["a", "b"]);
  });

  it("the import-model CLI prints the refusal and exits 1", { timeout: 150_000 }, async () => {
    const file = path.join(dir, "unsupported.onnx");
    const labels = path.join(dir, "labels.txt");
    fs.writeFileSync(file, unsupported());
    fs.writeFileSync(labels, "a\nb\nc\nd\n");
    // Asynchronously: a blocking spawn would keep vitest's worker from answering its runner for as long as tsx starts.
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ["--import", "tsx", "sidecar/zoo/onnx/importCli.ts", file, "--dataset", "x", "--labels", labels],
        { cwd: root, env: { ...process.env, IMPORTED_MODEL_DIR: dir, TENSOR_BACKEND: "wasm" }, timeout: 120_000 },
        (_err, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
      );
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('import-model: unsupported ONNX operators: Einsum (node "/attn/Einsum")');
  });
});
