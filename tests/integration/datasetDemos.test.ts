// The per-dataset demo pages (app/routes/demos/scenesDataset.tsx, imagenet.tsx, coco.tsx) through the real app,
// database and sidecar: /coco without its data or a model, /imagenet with an operator's image
// folder (IMAGENET_DIR, a tiny one built here) but no ImageNet model, each saying what is missing
// and what an operator does, linking to demos that run here and showing no picture; the scene
// demo's pool, the server's refusal of other pages' models and pictures, and its journey with the
// cached repeat.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { Client, alerts, location } from "../support/client.ts";

let stack: Stack;
let uploadDir: string;
let folder: string;
let visitor: Client;

/** The page's own content: between the top bar and the footer (the menu is not the page). */
const content = (html: string) => html.slice(html.indexOf("</header>"), html.lastIndexOf("<footer"));
const ids = (html: string) => [...html.matchAll(/data-picture-id="(\d+)"/g)].map((m) => Number(m[1]));

beforeAll(async () => {
  uploadDir = path.join(ROOT, `var/test/uploads_dsdemo_${process.pid}_${Date.now()}`);
  // An operator's ImageNet-style folder: one sub-folder per class, PNG and JPEG files.
  folder = path.join(ROOT, `var/test/imagenet_${process.pid}_${Date.now()}`);
  for (const [cls, file] of [
    ["n01443537_goldfish", "red.png"],
    ["n02123045_tabby", "red.jpg"],
  ]) {
    fs.mkdirSync(path.join(folder, cls), { recursive: true });
    fs.copyFileSync(path.join(ROOT, "tests/fixtures/images", file), path.join(folder, cls, file));
  }
  stack = await startStack({
    env: { UPLOAD_DIR: uploadDir, IMAGENET_DIR: folder, SEED_FASHION_MNIST_PICTURES: "20", SEED_SCENES_PICTURES: "24" },
  });
  visitor = new Client(stack.baseUrl);
});

afterAll(async () => {
  await stack?.stop();
  for (const dir of [uploadDir, folder]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("not installed on this server", () => {
  it("/coco says its pictures and model are missing, what an operator does, links to running demos, and shows no picture", async () => {
    const res = await visitor.get("/coco");
    expect(res.status).toBe(200);
    const page = content(await res.text());
    expect(page).toContain('data-testid="not-installed"');
    expect(page).toContain("This server has no COCO pictures.");
    expect(page).toContain("This server has no model trained on COCO.");
    expect(page).toContain("<code>COCO_DIR</code>");
    expect(page).toContain("npm run -s import-model -- FILE.onnx --dataset coco --labels FILE");
    expect(page).not.toMatch(/<img\b/);
    expect(page).not.toContain('data-testid="image-pool"');
    const links = [...page.matchAll(/data-testid="runs-here"[\s\S]*?<\/ul>/g)][0][0].match(/href="([^"]+)"/g)!.map((h) => h.slice(6, -1));
    expect(links).toEqual(["/scenes", "/UserImgclassification", "/UserImgsegmentation"]);
    for (const to of links) expect((await visitor.get(to)).status, to).toBeLessThan(400);
  });

  it("/imagenet with the operator's pictures but no ImageNet model names only the model as missing, and still shows no picture", async () => {
    const page = content(await visitor.html("/imagenet"));
    expect(page).toContain('data-testid="not-installed"');
    expect(page).not.toContain('data-testid="missing-data"');
    expect(page).toContain("This server has no model trained on ImageNet.");
    expect(page).toContain("--dataset imagenet");
    expect(page).not.toMatch(/<img\b/);
  });

  it("in Chinese too", async () => {
    const zh = new Client(stack.baseUrl);
    expect((await zh.post("/language", { lng: "zh", redirectTo: "/coco" })).status).toBe(302);
    const page = content(await zh.html("/coco"));
    expect(page).toContain("本服务器未安装");
    expect(page).toContain("本服务器没有 COCO 图片。");
    expect(page).not.toMatch(/<img\b/);
  });

  it("refuses a run on a page whose model is not installed", async () => {
    const first = await visitor.post("/imagenet", { intent: "run", model: "", algorithm: "", picture: "" });
    expect(first.status).toBe(400);
    // Nothing to run: the answer is the page's "not installed" state again, with no picture.
    const again = content(await first.text());
    expect(again).toContain('data-testid="not-installed"');
    expect(again).not.toMatch(/<img\b/);
    // A scenes model is not an ImageNet model: refused on the server, whatever the form sent.
    const other = await visitor.post("/imagenet", { intent: "run", model: "resnet-scenes", algorithm: "IG", picture: "1" });
    expect(other.status).toBe(400);
  });
});

describe("the scene demo", () => {
  it("shows a pool of generated scenes, 6 a row, with refresh and the dataset's introduction, and marks the pick", async (ctx) => {
    const page = await visitor.html("/scenes");
    if (page.includes('data-testid="not-installed"')) return ctx.skip(); // no scenes model served by this sidecar
    expect(page).toContain("repeat(6, minmax(0, 1fr))");
    const pool = ids(page);
    expect(pool).toHaveLength(12);
    expect(page).toContain('href="/datasetPreview?intro=scenes"');
    expect(page).toContain('href="/scenes?pool=2"');
    const refreshed = ids(await visitor.html("/scenes?pool=2"));
    expect(refreshed).not.toEqual(pool);
    const picked = await visitor.html(`/scenes?pool=1&picture=${pool[0]}`);
    expect(picked).toMatch(new RegExp(`class="ds-tile picked" data-picture-id="${pool[0]}"`));
    expect(picked).toContain('data-testid="tree-models"');
  });

  it("refuses pictures of other datasets and models of other data; explains a scene and serves the repeat from the cache", async (ctx) => {
    const page = await visitor.html("/scenes");
    if (page.includes('data-testid="not-installed"')) return ctx.skip();
    const pool = ids(page);
    const models = [...page.matchAll(/<option value="([^"]+)">[^<]*\(([^)]+)\)<\/option>/g)].map((m) => m[1]);
    // The ResNet18 slot's network is offered first (docs/product.md "Classification"): the most accurate ResNet-18-style network of the scenes.
    expect(models[0]).toBe("resnet-scenes-v2");
    expect(models).toContain("resnet-scenes");
    expect(models.length).toBeGreaterThan(0);
    for (const m of models) expect(m).toMatch(/scenes/);
    // A Fashion-MNIST picture is not one of this page's: 404 on the page and on the action.
    const fashion = await visitor.html("/UserImgclassification?type=name&q=fashion");
    const fashionSet = Number(fashion.match(/data-dataset-id="(\d+)"/)![1]);
    const fashionPicture = ids(await visitor.html(`/UserImgclassification?dataset=${fashionSet}`))[0];
    expect((await visitor.get(`/scenes?picture=${fashionPicture}`)).status).toBe(404);
    expect((await visitor.post("/scenes", { intent: "run", model: models[0], algorithm: "IG", picture: String(fashionPicture) })).status).toBe(404);
    const wrongModel = await visitor.post("/scenes", { intent: "run", model: "resnet-fashion-mnist", algorithm: "IG", picture: String(pool[0]) });
    expect(wrongModel.status).toBe(400);
    expect(alerts(await wrongModel.text())).toContain("Please choose the model to use");

    // A sidecar still starting its workers answers with the failure panel of docs/product.md "Demo pages" ("try again
    // later", its device "cpu (starting)"): ask again, as the panel says, for up to 90 s.
    let res = await visitor.post(`/scenes?pool=1&picture=${pool[0]}`, { intent: "run", model: models[0], algorithm: "IG", picture: String(pool[0]) });
    for (let tries = 0; res.status === 503 && tries < 18; tries++) {
      expect(await res.text()).toContain('data-testid="failure-panel"');
      await new Promise((r) => setTimeout(r, 5_000));
      res = await visitor.post(`/scenes?pool=1&picture=${pool[0]}`, { intent: "run", model: models[0], algorithm: "IG", picture: String(pool[0]) });
    }
    expect(res.status, await res.clone().text()).toBe(302);
    const target = location(res)!;
    const result = new URL(target, "http://x").searchParams.get("result");
    const shown = await visitor.html(target);
    expect(shown).toContain("The algorithm executed successfully!");
    expect(shown).toContain('data-testid="predicted"');
    expect(shown).toContain(`src="/explanation/${result}?kind=input"`);
    expect(shown).toContain('data-testid="result-model"');
    const again = await visitor.post(`/scenes?pool=1&picture=${pool[0]}`, { intent: "run", model: models[0], algorithm: "IG", picture: String(pool[0]) });
    expect(new URL(location(again)!, "http://x").searchParams.get("result")).toBe(result);
  });
});
