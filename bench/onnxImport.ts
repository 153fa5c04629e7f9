// ONNX import figures (prints, never asserts): a torchvision-style ResNet-18 at 224 px with 1000
// classes (tests/onnx/torchvisionResnet18.ts: random weights, the real operator layout) — the time
// to import it (parse, convert, fold batch norms, check by one forward pass, write), to load it back
// (read, verify, check), and the forward latency of one image and of a batch of 8 on the imported
// graph (tfjs, this thread) next to onnxruntime-web on the same file (its wasm build, one thread),
// plus one Saliency (forward + backward).
// Run: npx tsx bench/onnxImport.ts [--runs N]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import * as tf from "@tensorflow/tfjs";
import * as ort from "onnxruntime-web";
import { getAlgorithm } from "../sidecar/inference/attribution/index.ts";
import { initBackend } from "../sidecar/inference/runtime/backend.ts";
import { loadImportedNet } from "../sidecar/zoo/onnx/graphNet.ts";
import { importOnnxModel } from "../sidecar/zoo/onnx/importOnnx.ts";
import { torchvisionResnet18 } from "../tests/onnx/torchvisionResnet18.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "3" } } });
const runs = Math.max(1, Number(values.runs));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(0)} ms`;

const backend = await initBackend();
ort.env.wasm.numThreads = 1;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnx-bench-"));
try {
  const bytes = torchvisionResnet18({ size: 224, classes: 1000 });
  const labels = Array.from({ length: 1000 }, (_, i) => `class ${i}`);
  let t0 = performance.now();
  const manifest = importOnnxModel(bytes, { id: "resnet18-bench", dataset: "imagenet", classNames: labels, dir });
  const importMs = performance.now() - t0;
  t0 = performance.now();
  const net = loadImportedNet(manifest.id, dir);
  const loadMs = performance.now() - t0;
  console.log(`backend ${backend.name}; ResNet-18 224 px, ${(bytes.length / 1e6).toFixed(1)} MB ONNX, ${manifest.graph.ops.length} ops after folding`);
  console.log(`import: ${ms(importMs)}; load: ${ms(loadMs)}`);

  const session = await ort.InferenceSession.create(bytes);
  for (const batch of [1, 8]) {
    const x = tf.randomUniform([batch, 224, 224, 3], 0, 1, "float32", 1) as tf.Tensor4D;
    const nchw = tf.tidy(() => tf.transpose(x, [0, 3, 1, 2]).dataSync() as Float32Array);
    const input = new ort.Tensor("float32", nchw, [batch, 3, 224, 224]);
    tf.tidy(() => net.forward(x).dataSync());
    await session.run({ input });
    const mine: number[] = [];
    const ref: number[] = [];
    for (let i = 0; i < runs; i++) {
      let t = performance.now();
      tf.tidy(() => net.forward(x).dataSync());
      mine.push(performance.now() - t);
      t = performance.now();
      await session.run({ input });
      ref.push(performance.now() - t);
    }
    console.log(`forward, batch ${batch}: imported (tfjs ${backend.name}) ${ms(median(mine))}; onnxruntime-web ${ms(median(ref))} (median of ${runs})`);
    x.dispose();
  }
  await session.release();
  const one = tf.randomUniform([1, 224, 224, 3], 0, 1, "float32", 2) as tf.Tensor4D;
  t0 = performance.now();
  const sal = await getAlgorithm("Saliency").run(net, one, 0, {});
  sal.attribution.dataSync();
  console.log(`Saliency (forward + backward), one image: ${ms(performance.now() - t0)}`);
  tf.dispose([one, sal.attribution]);
  net.dispose();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
