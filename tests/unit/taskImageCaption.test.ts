// A task's picture captions, sent in English by the sidecar (sidecar/tree/trainProtoTree.ts), are
// said in the page's language; an unknown sentence is shown as sent.
import fs from "node:fs";
import path from "node:path";
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { taskImageCaption } from "../../app/lib/taskImageCaption.ts";

const LOCALES = path.resolve(import.meta.dirname, "../../app/locales");
const tasks = (lng: string) => JSON.parse(fs.readFileSync(path.join(LOCALES, lng, "tasks.json"), "utf8"));

async function fixedT(lng: string) {
  const inst = i18next.createInstance();
  await inst.init({ lng, resources: { [lng]: { tasks: tasks(lng) } }, defaultNS: "tasks", interpolation: { escapeValue: false } });
  return inst.getFixedT(lng, "tasks");
}

// The sidecar's two sentences, exactly as trainProtoTree.ts writes them.
const PROTOTYPE = "prototype of node node-3: patch (2, 1) of training image 4711 (Ankle boot)";
const SAMPLE = "test image 12 (Coat): the tree routes it to leaf leaf-9 and predicts Pullover";

describe("task picture captions", () => {
  it("read back into their values: English is unchanged", async () => {
    const t = await fixedT("en");
    expect(taskImageCaption(t, PROTOTYPE)).toBe(PROTOTYPE);
    expect(taskImageCaption(t, SAMPLE)).toBe(SAMPLE);
  });
  it("Chinese pages say them in Chinese with the same values", async () => {
    const t = await fixedT("zh");
    expect(taskImageCaption(t, PROTOTYPE)).toBe("节点 node-3 的原型：训练图像 4711（Ankle boot）的图块 (2, 1)");
    expect(taskImageCaption(t, SAMPLE)).toBe("测试图像 12（Coat）：树将其路由到叶子 leaf-9，预测为 Pullover");
  });
  it("an unknown sentence is shown as sent", async () => {
    const t = await fixedT("zh");
    expect(taskImageCaption(t, "stage picture: pruned tree")).toBe("stage picture: pruned tree");
    expect(taskImageCaption(t, "")).toBe("");
  });
  it("matches what the sidecar writes", () => {
    const src = fs.readFileSync(path.resolve(import.meta.dirname, "../../sidecar/tree/trainProtoTree.ts"), "utf8");
    expect(src).toContain(
      "caption: `prototype of node ${node}: patch (${pr.row}, ${pr.col}) of training image ${pr.sample} (${data.train.classNames[pr.label]})`",
    );
    expect(src).toContain(
      "caption: `test image ${idx} (${data.test.classNames[data.test.labels[idx]]}): the tree routes it to leaf ${g.leaf} and predicts ${data.test.classNames[g.predicted]}`",
    );
  });
});
