// Multi-label figures (prints, never asserts): the multi-label ResNet's forward images/s (batch
// 64, this thread), the latency of one class explanation with each method (this thread), and
// /voc's first and cached latency through the real app, database (SQLite) and sidecar (one
// worker): rank the picture's five classes, then explain the top one.
// Run: npx tsx bench/multilabel.ts [--pictures N]
// The forward rate and the page's timing are the dense-prediction benches' shared ones (densePrediction.ts).
import { generateMultiLabelScenes, multiLabelScene } from "../sidecar/data/vocMultilabel.ts";
import { MULTILABEL_ALGORITHMS, getMultiLabelNet, listMultiLabelModels, multiLabelJob, servedMultiLabelNet } from "../sidecar/inference/multilabel/job.ts";
import { location } from "../tests/support/client.ts";
import { benchStart, forwardImagesPerSecond, median, timeDemoPage } from "./densePrediction.ts";

const { pictures, backend } = await benchStart();
const model = listMultiLabelModels().models[0];
if (!model) throw new Error("no multi-label checkpoint: npm run train-multilabel");
const net = getMultiLabelNet(model.id);
const rate = forwardImagesPerSecond((x) => net.forward(x), generateMultiLabelScenes("test", 64).images);
console.log(`backend ${backend.name}; model ${model.id} (mAP ${(model.meanAP * 100).toFixed(2)} % on ${model.testSize} held-out pictures)`);
console.log(`forward: ${rate.toFixed(0)} images/s on tfjs (batch 64, one thread)`);
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

await timeDemoPage(
  { SEED_SEG_SCENES_PICTURES: String(Math.max(pictures, 12)), SEED_FASHION_MNIST_PICTURES: "8", SEED_SCENES_PICTURES: "8" },
  "/voc",
  async (user) => [...(await user.html("/voc")).matchAll(/data-picture-id="(\d+)"/g)].map((m) => m[1]).slice(0, pictures),
  {
    names: ["rank", "explain"],
    first: async (user, picture) => {
      const res = await user.post(`/voc?picture=${picture}`, { intent: "classify", model: model.id, algorithm: "Feature_Ablation", picture });
      return user.html(location(res)!);
    },
    explain: (user, picture, page) => {
      const cls = page.match(/data-class-index="(\d+)"/)?.[1];
      if (!cls) return null;
      const body = { intent: "explain", model: model.id, algorithm: "Feature_Ablation", picture, cls };
      return user.post(`/voc?picture=${picture}`, body).then((ex) => user.html(location(ex)!));
    },
  },
);
