// The bird/car pages showed "Prediction: Sneaker" beside a path ending at a leaf that predicts
// Sandal, with nothing saying why. The prediction is the soft tree's and the path is the greedy one
// (docs/tree-service.md "Calls", Predict); where they disagree both the result card and the leaf of
// the local explanation say so, in both languages, and where they agree neither does.
import fs from "node:fs";
import path from "node:path";
import i18next from "i18next";
import { renderToString } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { describe, expect, it } from "vitest";
import type { PredictionView } from "../../app/.server/trees.server.ts";
import { LocalExplanation } from "../../app/components/tree/LocalExplanation.tsx";
import { TreeResult } from "../../app/components/tree/TreeResult.tsx";

const LOCALES = path.resolve(import.meta.dirname, "../../app/locales");
const trees = (lng: string) => JSON.parse(fs.readFileSync(path.join(LOCALES, lng, "trees.json"), "utf8"));

async function i18n(lng: string) {
  const inst = i18next.createInstance();
  await inst
    .use(initReactI18next)
    .init({ lng, ns: ["trees"], defaultNS: "trees", resources: { [lng]: { trees: trees(lng) } }, interpolation: { escapeValue: false } });
  return inst;
}

const CLASSES = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"];
const prediction = (greedy: number): PredictionView => ({
  groundTruth: 7,
  groundTruthName: "Sneaker",
  predicted: 7,
  predictedName: "Sneaker",
  probability: 0.61,
  greedyPredicted: greedy,
  greedyPredictedName: CLASSES[greedy],
  path: [],
  leafId: "node-9",
  leafDistribution: CLASSES.map((_, i) => (i === greedy ? 0.9 : 0.1 / 9)),
  classNames: CLASSES,
  elapsedMs: 120,
});
const source = { name: "prototree-fashion-mnist", datasetName: "Fashion-MNIST", testAccuracy: 0.92, cnnAccuracy: 0.94, owner: "", depth: 6, leaves: 33 };

function render(lng: Awaited<ReturnType<typeof i18n>>, p: PredictionView) {
  return renderToString(
    <I18nextProvider i18n={lng}>
      <TreeResult title="Result" prediction={p} source={source} edits={0} />
      <LocalExplanation title="Explanation" prediction={p} />
    </I18nextProvider>,
  ).replace(/<!-- -->/g, "");
}

describe("tree pages: prediction and the leaf shown", () => {
  it("say why the leaf differs from the prediction (greedy versus soft routing), in English and Chinese", async () => {
    const en = render(await i18n("en"), prediction(5));
    expect(en).toMatch(
      /data-testid="greedy-differs"[^>]*>Soft and greedy routing disagree for this image\. The prediction above \(Sneaker\)[^<]*leaf predicts Sandal/,
    );
    expect(en).toMatch(/data-testid="leaf-differs"[^>]*>This leaf predicts Sandal, not the tree(&#x27;|')s prediction Sneaker/);
    const zh = render(await i18n("zh"), prediction(5));
    expect(zh).toMatch(/data-testid="greedy-differs"[^>]*>对这张图片，软路由与贪心路由的结果不同。上面的预测（Sneaker）/);
    expect(zh).toMatch(/data-testid="leaf-differs"[^>]*>这个叶子预测为 Sandal，而不是树的预测 Sneaker/);
  });

  it("say nothing more when they agree", async () => {
    const en = render(await i18n("en"), prediction(7));
    expect(en).not.toContain("greedy-differs");
    expect(en).not.toContain("leaf-differs");
    expect(en).toContain('data-testid="leaf"');
  });
});
