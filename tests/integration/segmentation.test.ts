// The image segmentation demo through the real app, database and sidecar: the validation
// order (model, algorithm, image, then the part: docs/product.md "Segmentation"), the journey (segment a held-out scene, choose a
// predicted part, explain it with both methods), the inference cache answering a repeat with the
// same rows, and results visible only to those who may see the picture.
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { Client, alerts, location } from "../support/client.ts";
import { userClient } from "../support/accounts.ts";

let stack: Stack;
let uploadDir: string;
let alice: Client;
let bob: Client;
let segId: number;
let picture: number;

const ids = (html: string) => [...html.matchAll(/data-picture-id="(\d+)"/g)].map((m) => Number(m[1]));
const post = (c: Client, query: string, body: Record<string, string>) => c.post(`/UserImgsegmentation?${query}`, body);
const param = (res: Response, name: string) => new URL(location(res)!, "http://x").searchParams.get(name);

beforeAll(async () => {
  uploadDir = path.join(ROOT, `var/test/uploads_seg_${process.pid}_${Date.now()}`);
  stack = await startStack({ env: { UPLOAD_DIR: uploadDir, SEED_FASHION_MNIST_PICTURES: "20", SEED_SCENES_PICTURES: "20", SEED_SEG_SCENES_PICTURES: "20" } });
  alice = await userClient(stack.baseUrl, "alice");
  bob = await userClient(stack.baseUrl, "bob");
  const step1 = await alice.html("/UserImgsegmentation?type=name&q=Segmentation+scenes");
  segId = Number(step1.match(/data-dataset-id="(\d+)"/)![1]);
  picture = ids(await alice.html(`/UserImgsegmentation?dataset=${segId}`))[0];
});

afterAll(async () => {
  await stack?.stop();
  if (uploadDir) fs.rmSync(uploadDir, { recursive: true, force: true });
});

describe("/UserImgsegmentation", () => {
  it("is for signed-in users and lists the segmentation network", async () => {
    const anon = new Client(stack.baseUrl);
    const res = await anon.get("/UserImgsegmentation");
    expect(res.status).toBe(302);
    expect(location(res)).toContain("/signin");
    const step3 = await alice.html(`/UserImgsegmentation?dataset=${segId}&picture=${picture}`);
    expect(step3).toContain("FCN_ResNet (trained on segmentation scenes)");
    expect(step3).toContain('<option value="Feature_Ablation">');
    expect(step3).toContain('<option value="LayerGradCAM">');
  });

  it("checks model, then algorithm, then image, then the part, with the original site's messages", async () => {
    const q = `dataset=${segId}`;
    const first = await post(alice, q, { intent: "segment", model: "", algorithm: "", picture: "" });
    expect(first.status).toBe(400);
    expect(alerts(await first.text())).toContain("Please choose the model to use");
    expect(alerts(await (await post(alice, q, { intent: "segment", model: "m", algorithm: "", picture: "" })).text())).toContain(
      "Please choose the algorithm to use",
    );
    expect(alerts(await (await post(alice, q, { intent: "segment", model: "m", algorithm: "Occlusion", picture: "" })).text())).toContain(
      "Please choose the algorithm to use",
    );
    expect(alerts(await (await post(alice, q, { intent: "segment", model: "m", algorithm: "LayerGradCAM", picture: "" })).text())).toContain(
      "Please choose the image to explain",
    );
    const noPart = await post(alice, q, { intent: "explain", model: "m", algorithm: "LayerGradCAM", picture: String(picture), part: "" });
    expect(alerts(await noPart.text())).toContain("Please choose the part to explain");
  });

  it("segments a held-out scene, explains a predicted part with both methods, and answers repeats from the cache", async () => {
    const step3 = await alice.html(`/UserImgsegmentation?dataset=${segId}&picture=${picture}`);
    const model = step3.match(/<option value="([^"]+)">FCN_ResNet/)![1];
    const q = `dataset=${segId}&picture=${picture}`;
    const t0 = Date.now();
    const seg = await post(alice, q, { intent: "segment", model, algorithm: "Feature_Ablation", picture: String(picture) });
    const firstMs = Date.now() - t0;
    expect(seg.status, await seg.clone().text()).toBe(302);
    const segRow = param(seg, "segmentation");
    const page = await alice.html(location(seg)!);
    // The segmentation picture, its legend, the parts to choose and which model and data produced it.
    expect(page).toContain('data-testid="segmentation-image"');
    expect(page).toContain('data-testid="legend"');
    expect(page).toMatch(/data-testid="seg-source">Produced by model fcn-resnet-seg-scenes .*mean IoU \d+\.\d% on 1000 held-out pictures.*Segmentation scenes/);
    const parts = [...(page.match(/<select id="part"[\s\S]*?<\/select>/)?.[0] ?? "").matchAll(/<option value="(\d)">([^<]+)</g)].map((m) => [m[1], m[2]]);
    expect(parts.length).toBeGreaterThan(0);
    const img = await alice.get(`/segmentation/${segRow}?kind=segmentation`);
    expect(img.status).toBe(200);
    expect((await sharp(Buffer.from(await img.arrayBuffer())).metadata()).width).toBeGreaterThanOrEqual(224);
    // A repeat is the same row (cache).
    const t1 = Date.now();
    const again = await post(alice, q, { intent: "segment", model, algorithm: "Feature_Ablation", picture: String(picture) });
    const cachedMs = Date.now() - t1;
    expect(param(again, "segmentation")).toBe(segRow);
    expect(cachedMs).toBeLessThan(firstMs + 2000);

    const [part, partName] = parts[0];
    for (const algorithm of ["Feature_Ablation", "LayerGradCAM"]) {
      const res = await post(alice, `${q}&segmentation=${segRow}`, { intent: "explain", model, algorithm, picture: String(picture), part });
      expect(res.status, await res.clone().text()).toBe(302);
      const result = param(res, "result");
      const shown = await alice.html(location(res)!);
      expect(shown).toContain("The algorithm executed successfully!");
      expect(shown).toContain(`attribution of “${partName}” (${algorithm})`);
      expect(shown).toContain('data-testid="heatmap"');
      if (algorithm === "Feature_Ablation") expect(shown).toContain('data-testid="segment-attributions"');
      for (const kind of ["heatmap", "overlay"]) expect((await alice.get(`/segmentation/${result}?kind=${kind}`)).status).toBe(200);
      const repeat = await post(alice, `${q}&segmentation=${segRow}`, { intent: "explain", model, algorithm, picture: String(picture), part });
      expect(param(repeat, "result")).toBe(result);
      // Only viewers who may see the picture: Bob may (a public dataset), an unknown row may not exist.
      expect((await bob.get(`/segmentation/${result}?kind=heatmap`)).status).toBe(200);
    }
    // A class the prediction does not hold is refused in the page's words.
    const absent = ["1", "2", "3", "4", "5", "6"].find((c) => !parts.some(([p]) => p === c))!;
    const bad = await post(alice, `${q}&segmentation=${segRow}`, {
      intent: "explain",
      model,
      algorithm: "LayerGradCAM",
      picture: String(picture),
      part: absent,
    });
    expect(bad.status).toBe(400);
    expect(alerts(await bad.text())).toContain("That part is not in the segmentation of this picture; please choose one of the parts listed.");
    expect((await alice.get(`/segmentation/999999?kind=heatmap`)).status).toBe(404);
  });

  it("a private picture's segmentation and explanation are its owner's alone", async () => {
    const up = new FormData();
    up.append("intent", "upload");
    up.append("picture", new Blob([fs.readFileSync(path.join(ROOT, "tests/fixtures/images/red.png"))], { type: "image/png" }), "mine.png");
    // The classification demo's one-image upload puts it in Bob's private uploads dataset.
    const bobsPicture = param(await bob.post("/UserImgclassification?tab=pool", up), "picture")!;
    const step3 = await bob.html(`/UserImgsegmentation?dataset=${segId}`);
    const model = step3.match(/<option value="([^"]+)">FCN_ResNet/)![1];
    const seg = await post(bob, `picture=${bobsPicture}`, { intent: "segment", model, algorithm: "LayerGradCAM", picture: bobsPicture });
    expect(seg.status, await seg.clone().text()).toBe(302);
    const row = param(seg, "segmentation");
    expect((await bob.get(`/segmentation/${row}?kind=segmentation`)).status).toBe(200);
    expect((await alice.get(`/segmentation/${row}?kind=segmentation`)).status).toBe(404);
    expect((await alice.get(`/UserImgsegmentation?picture=${bobsPicture}&segmentation=${row}`)).status).toBe(404);
    expect((await post(alice, "", { intent: "segment", model, algorithm: "LayerGradCAM", picture: bobsPicture })).status).toBe(404);
  });

  it("shows the failure panel when the model cannot run", async () => {
    const res = await post(alice, `dataset=${segId}&picture=${picture}`, {
      intent: "segment",
      model: "no-such-model",
      algorithm: "LayerGradCAM",
      picture: String(picture),
    });
    expect(res.status).toBe(503);
    const html = await res.text();
    expect(html).toContain('data-testid="failure-panel"');
    expect(html).toMatch(/data-testid="gpu-index">[^<]+</);
  });
});
