// Segmentation figures (prints, never asserts): the segmentation network's forward images/s
// (batch 64, this thread), the latency of one Explain of a predicted part with each method
// (this thread), and /UserImgsegmentation's first and cached latency through the real app,
// database (SQLite) and sidecar (one worker): segment, then explain one part.
// Run: npx tsx bench/segmentation.ts [--pictures N]
import { parseArgs } from "node:util";
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../sidecar/inference/runtime/backend.ts";
import { SEG_SCENES_DEFAULT_SEED, SEG_SPLITS, generateSegScenes, renderSegScene } from "../sidecar/data/segScenes.ts";
import { explainSegment, getSegmenter, listSegModels, segment } from "../sidecar/inference/segmentation/job.ts";
import { startStack } from "../tests/support/stack.ts";
import { userClient } from "../tests/support/accounts.ts";
import { location } from "../tests/support/client.ts";

const { values } = parseArgs({ options: { pictures: { type: "string", default: "5" } } });
const pictures = Number(values.pictures);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const backend = await initBackend();
const model = listSegModels().models[0];
if (!model) throw new Error("no segmentation checkpoint: npm run train-segmenter");
const net = getSegmenter(model.id);
const batch = tf.tensor4d(generateSegScenes("test", 64).images, [64, 32, 32, 3]);
tf.tidy(() => net.forward(batch).dataSync());
const fwd: number[] = [];
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  tf.tidy(() => net.forward(batch).dataSync());
  fwd.push(performance.now() - t0);
}
batch.dispose();
console.log(`backend ${backend.name}; model ${model.id} (mean IoU ${(model.meanIoU * 100).toFixed(2)} % on ${model.testSize} held-out pictures)`);
console.log(`forward: ${((64 / median(fwd)) * 1000).toFixed(0)} images/s (batch 64, one thread)`);

for (const algorithm of ["Feature_Ablation", "LayerGradCAM"]) {
  const times: number[] = [];
  for (let i = 0; i < pictures; i++) {
    const tensor = { shape: [32, 32, 3], data: renderSegScene(SEG_SCENES_DEFAULT_SEED, SEG_SPLITS.test, i).pixels };
    const seg = segment({ modelId: model.id, image: { tensor } });
    if (!seg.classes.length) continue;
    const t0 = performance.now();
    await explainSegment({ modelId: model.id, image: { tensor }, algorithm, targetClass: seg.classes[0].id });
    times.push(performance.now() - t0);
  }
  console.log(`${algorithm}: median ${median(times).toFixed(1)} ms per explanation (${times.length} pictures, one thread)`);
}

const stack = await startStack({
  db: "sqlite",
  env: { SEED_SEG_SCENES_PICTURES: String(Math.max(pictures, 8)), SEED_FASHION_MNIST_PICTURES: "8", SEED_SCENES_PICTURES: "8" },
});
try {
  const user = await userClient(stack.baseUrl, "bench");
  const step1 = await user.html("/UserImgsegmentation?type=name&q=Segmentation+scenes");
  const dataset = Number(step1.match(/data-dataset-id="(\d+)"/)![1]);
  const ids = [...(await user.html(`/UserImgsegmentation?dataset=${dataset}`)).matchAll(/data-picture-id="(\d+)"/g)].map((m) => m[1]).slice(0, pictures);
  const rows: Record<string, { first: number[]; cached: number[] }> = { segment: { first: [], cached: [] }, explain: { first: [], cached: [] } };
  for (const picture of ids) {
    const q = `/UserImgsegmentation?dataset=${dataset}&picture=${picture}`;
    const body = { intent: "segment", model: model.id, algorithm: "Feature_Ablation", picture };
    for (const round of ["first", "cached"] as const) {
      const t0 = performance.now();
      const res = await user.post(q, body);
      await user.html(location(res)!);
      rows.segment[round].push(performance.now() - t0);
      const page = await user.html(location(res)!);
      const part = page.match(/<select id="part"[\s\S]*?<option value="(\d)">/)?.[1];
      if (!part) continue;
      const t1 = performance.now();
      const ex = await user.post(q, { ...body, intent: "explain", part });
      await user.html(location(ex)!);
      rows.explain[round].push(performance.now() - t1);
    }
  }
  console.log(`\n/UserImgsegmentation (SQLite, one sidecar worker, ${ids.length} pictures; POST + the page it redirects to):`);
  for (const [step, r] of Object.entries(rows))
    console.log(`${step.padEnd(8)} first median ${median(r.first).toFixed(0)} ms, cached median ${median(r.cached).toFixed(0)} ms`);
} finally {
  await stack.stop();
}
