// Segmentation figures (prints, never asserts): the segmentation network's forward images/s
// (batch 64, this thread), the latency of one Explain of a predicted part with each method
// (this thread), and /UserImgsegmentation's first and cached latency through the real app,
// database (SQLite) and sidecar (one worker): segment, then explain one part.
// Run: npx tsx bench/segmentation.ts [--pictures N]
// The forward rate and the page's timing are the dense-prediction benches' shared ones (densePrediction.ts).
import { SEG_SCENES_DEFAULT_SEED, SEG_SPLITS, generateSegScenes, renderSegScene } from "../sidecar/data/segScenes.ts";
import { explainSegment, getSegmenter, listSegModels, segment } from "../sidecar/inference/segmentation/job.ts";
import { location } from "../tests/support/client.ts";
import { benchStart, forwardImagesPerSecond, median, timeDemoPage } from "./densePrediction.ts";

const { pictures, backend } = await benchStart();
const model = listSegModels().models[0];
if (!model) throw new Error("no segmentation checkpoint: npm run train-segmenter");
const net = getSegmenter(model.id);
const rate = forwardImagesPerSecond((x) => net.forward(x), generateSegScenes("test", 64).images);
console.log(`backend ${backend.name}; model ${model.id} (mean IoU ${(model.meanIoU * 100).toFixed(2)} % on ${model.testSize} held-out pictures)`);
console.log(`forward: ${rate.toFixed(0)} images/s (batch 64, one thread)`);

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

let dataset = 0;
await timeDemoPage(
  { SEED_SEG_SCENES_PICTURES: String(Math.max(pictures, 8)), SEED_FASHION_MNIST_PICTURES: "8", SEED_SCENES_PICTURES: "8" },
  "/UserImgsegmentation",
  async (user) => {
    const step1 = await user.html("/UserImgsegmentation?type=name&q=Segmentation+scenes");
    dataset = Number(step1.match(/data-dataset-id="(\d+)"/)![1]);
    return [...(await user.html(`/UserImgsegmentation?dataset=${dataset}`)).matchAll(/data-picture-id="(\d+)"/g)].map((m) => m[1]).slice(0, pictures);
  },
  {
    names: ["segment", "explain"],
    first: async (user, picture) => {
      const body = { intent: "segment", model: model.id, algorithm: "Feature_Ablation", picture };
      const res = await user.post(`/UserImgsegmentation?dataset=${dataset}&picture=${picture}`, body);
      return user.html(location(res)!);
    },
    explain: (user, picture, page) => {
      const part = page.match(/<select id="part"[\s\S]*?<option value="(\d)">/)?.[1];
      if (!part) return null;
      const body = { intent: "explain", model: model.id, algorithm: "Feature_Ablation", picture, part };
      return user.post(`/UserImgsegmentation?dataset=${dataset}&picture=${picture}`, body).then((ex) => user.html(location(ex)!));
    },
  },
);
