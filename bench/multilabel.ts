// Multi-label figures (prints, never asserts): the multi-label ResNet's forward images/s (batch
// 64, this thread), the latency of one class explanation with each method (this thread), and
// /voc's first and cached latency through the real app, database (SQLite) and sidecar (one
// worker): rank the picture's five classes, then explain the top one.
// Run: npx tsx bench/multilabel.ts [--pictures N]
import { parseArgs } from "node:util";
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../sidecar/inference/runtime/backend.ts";
import { generateMultiLabelScenes, multiLabelScene } from "../sidecar/data/vocMultilabel.ts";
import { MULTILABEL_ALGORITHMS, getMultiLabelNet, listMultiLabelModels, multiLabelJob, servedMultiLabelNet } from "../sidecar/inference/multilabel/job.ts";
import { startStack } from "../tests/support/stack.ts";
import { userClient } from "../tests/support/accounts.ts";
import { location } from "../tests/support/client.ts";

const { values } = parseArgs({ options: { pictures: { type: "string", default: "5" } } });
const pictures = Number(values.pictures);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const backend = await initBackend();
const model = listMultiLabelModels().models[0];
if (!model) throw new Error("no multi-label checkpoint: npm run train-multilabel");
const net = getMultiLabelNet(model.id);
const batch = tf.tensor4d(generateMultiLabelScenes("test", 64).images, [64, 32, 32, 3]);
tf.tidy(() => net.forward(batch).dataSync());
const fwd: number[] = [];
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  tf.tidy(() => net.forward(batch).dataSync());
  fwd.push(performance.now() - t0);
}
batch.dispose();
console.log(`backend ${backend.name}; model ${model.id} (mAP ${(model.meanAP * 100).toFixed(2)} % on ${model.testSize} held-out pictures)`);
console.log(`forward: ${((64 / median(fwd)) * 1000).toFixed(0)} images/s on tfjs (batch 64, one thread)`);
// What the service serves with (sidecar/engine, unless ENGINE=tfjs); the explanations below run there too.
const native = (await servedMultiLabelNet(model.id)).native;
if (native) {
  const pixels = generateMultiLabelScenes("test", 64).images;
  await native.logits(pixels, 64);
  const ts: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    await native.logits(pixels, 64);
    ts.push(performance.now() - t0);
  }
  console.log(`forward: ${((64 / median(ts)) * 1000).toFixed(0)} images/s on onnxruntime (${native.provider}, batch 64)`);
}

for (const algorithm of MULTILABEL_ALGORITHMS) {
  const times: number[] = [];
  for (let i = 0; i < pictures; i++) {
    const tensor = { shape: [32, 32, 3], data: multiLabelScene("test", i).pixels };
    const t0 = performance.now();
    await multiLabelJob({ op: "explain", modelId: model.id, image: { tensor }, topK: 5, algorithm, targetClass: 0 });
    times.push(performance.now() - t0);
  }
  console.log(`${algorithm}: median ${median(times).toFixed(1)} ms per class explanation (${times.length} pictures, one thread)`);
}

const stack = await startStack({
  db: "sqlite",
  env: { SEED_SEG_SCENES_PICTURES: String(Math.max(pictures, 12)), SEED_FASHION_MNIST_PICTURES: "8", SEED_SCENES_PICTURES: "8" },
});
try {
  const user = await userClient(stack.baseUrl, "bench");
  const ids = [...(await user.html("/voc")).matchAll(/data-picture-id="(\d+)"/g)].map((m) => m[1]).slice(0, pictures);
  const rows: Record<string, { first: number[]; cached: number[] }> = { rank: { first: [], cached: [] }, explain: { first: [], cached: [] } };
  for (const picture of ids) {
    const q = `/voc?picture=${picture}`;
    const body = { intent: "classify", model: model.id, algorithm: "Feature_Ablation", picture };
    for (const round of ["first", "cached"] as const) {
      const t0 = performance.now();
      const res = await user.post(q, body);
      const page = await user.html(location(res)!);
      rows.rank[round].push(performance.now() - t0);
      const cls = page.match(/data-class-index="(\d+)"/)?.[1];
      if (!cls) continue;
      const t1 = performance.now();
      const ex = await user.post(q, { ...body, intent: "explain", cls });
      await user.html(location(ex)!);
      rows.explain[round].push(performance.now() - t1);
    }
  }
  console.log(`\n/voc (SQLite, one sidecar worker, ${ids.length} pictures; POST + the page it redirects to):`);
  for (const [step, r] of Object.entries(rows))
    console.log(`${step.padEnd(8)} first median ${median(r.first).toFixed(0)} ms, cached median ${median(r.cached).toFixed(0)} ms`);
} finally {
  await stack.stop();
}
