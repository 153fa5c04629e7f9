// The image classification demo through the real app and the real sidecar process: the
// validation order (docs/product.md "Demo pages"), the failure panel (with reportGpu's figures), the one-image upload of the
// pool variant, and, where the sidecar serves the Inference service, the whole journey with
// its cached repeat and result visibility.
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
let fashionId: number;
let firstPicture: number;

const fixture = (name: string) => fs.readFileSync(path.join(ROOT, "tests/fixtures/images", name));
const ids = (html: string) => [...html.matchAll(/data-picture-id="(\d+)"/g)].map((m) => Number(m[1]));
const run = (c: Client, query: string, body: Record<string, string>) => c.post(`/UserImgclassification?${query}`, { intent: "run", ...body });

beforeAll(async () => {
  uploadDir = path.join(ROOT, `var/test/uploads_cls_${process.pid}_${Date.now()}`);
  stack = await startStack({ env: { UPLOAD_DIR: uploadDir, SEED_FASHION_MNIST_PICTURES: "40", SEED_SCENES_PICTURES: "20" } });
  alice = await userClient(stack.baseUrl, "alice");
  bob = await userClient(stack.baseUrl, "bob");
  const step1 = await alice.html("/UserImgclassification?type=name&q=fashion");
  fashionId = Number(step1.match(/data-dataset-id="(\d+)"/)![1]);
  firstPicture = ids(await alice.html(`/UserImgclassification?dataset=${fashionId}`))[0];
});

afterAll(async () => {
  await stack?.stop();
  if (uploadDir) fs.rmSync(uploadDir, { recursive: true, force: true });
});

describe("steps and validation", () => {
  it("step 1 searches visible datasets and step 2 shows 16 images a page with a back button", async () => {
    expect(await alice.html("/UserImgclassification?type=name&q=no-such-dataset")).toContain("No dataset matching the conditions was found!");
    const step2 = await alice.html(`/UserImgclassification?dataset=${fashionId}`);
    expect(ids(step2)).toHaveLength(16);
    expect(step2).toContain("Back to dataset preview");
    expect(step2).toContain('aria-label="Image pages"');
    expect(ids(await alice.html(`/UserImgclassification?dataset=${fashionId}&page=3`))).toHaveLength(8);
  });

  it("checks model, then algorithm, then image, with the original site's messages", async () => {
    const q = `dataset=${fashionId}`;
    expect(alerts(await (await run(alice, q, { model: "", algorithm: "", picture: "" })).text())).toContain("Please choose the model to use");
    expect(alerts(await (await run(alice, q, { model: "m", algorithm: "", picture: "" })).text())).toContain("Please choose the algorithm to use");
    const third = await run(alice, q, { model: "m", algorithm: "IG", picture: "" });
    expect(third.status).toBe(400);
    expect(alerts(await third.text())).toContain("Please choose the image to explain");
  });

  it("shows the original site's failure panel with GPU index and maximum compute when the algorithm cannot run", async () => {
    const res = await run(alice, `dataset=${fashionId}&picture=${firstPicture}`, {
      model: "no-such-model",
      algorithm: "Occlusion",
      picture: String(firstPicture),
    });
    expect(res.status).toBe(503);
    const html = await res.text();
    expect(html).toContain('data-testid="failure-panel"');
    expect(html).toContain("The algorithm did not run, possibly because the server does not have enough compute right now or because of a program error.");
    expect(html).toMatch(/data-testid="max-compute">[^<]+</);
    expect(html).toMatch(/data-testid="gpu-index">[^<]+</);
    expect(html).toContain("Please try again later.");
  });

  it("another user's private picture cannot be chosen or explained", async () => {
    const up = new FormData();
    up.append("intent", "upload");
    up.append("picture", new Blob([fixture("red.png")], { type: "image/png" }), "mine.png");
    const res = await bob.post("/UserImgclassification?tab=pool", up);
    expect(res.status).toBe(302);
    const bobsPicture = Number(new URL(location(res)!, "http://x").searchParams.get("picture"));
    expect((await bob.get(`/UserImgclassification?tab=pool&picture=${bobsPicture}`)).status).toBe(200);
    expect((await alice.get(`/UserImgclassification?tab=pool&picture=${bobsPicture}`)).status).toBe(404);
    expect((await alice.get(`/picture/${bobsPicture}`)).status).toBe(404);
    expect((await run(alice, "tab=pool", { model: "m", algorithm: "IG", picture: String(bobsPicture) })).status).toBe(404);
  });

  it("the pool variant's upload takes one image only and refuses a renamed non-image", async () => {
    const two = new FormData();
    two.append("intent", "upload");
    two.append("picture", new Blob([fixture("red.png")]), "a.png");
    two.append("picture", new Blob([fixture("red.png")]), "b.png");
    const res = await alice.post("/UserImgclassification?tab=pool", two);
    expect(res.status).toBe(400);
    expect(alerts(await res.text())).toContain("Please upload one image at a time.");
    const fake = new FormData();
    fake.append("intent", "upload");
    fake.append("picture", new Blob([fixture("not-an-image.png")], { type: "image/png" }), "cat.png");
    const bad = await alice.post("/UserImgclassification?tab=pool", fake);
    expect(bad.status).toBe(400);
    expect(alerts(await bad.text()).join(" ")).toContain("is not a PNG, JPEG, GIF or WebP image.");
  });
});

describe("journey through the Inference service", () => {
  it("explains a Fashion-MNIST picture, caches the result, and keeps it visible only to those who may see the picture", async (ctx) => {
    const step3 = await alice.html(`/UserImgclassification?dataset=${fashionId}&picture=${firstPicture}`);
    const model = step3.match(/<select id="model"[\s\S]*?<option value="([^"]+)">ResNet18<\/option>/)?.[1];
    // Without a trained model served by the sidecar there is nothing to explain yet.
    if (!model) return ctx.skip();
    const q = `dataset=${fashionId}&picture=${firstPicture}`;
    const t0 = Date.now();
    const res = await run(alice, q, { model, algorithm: "IG", picture: String(firstPicture) });
    const firstMs = Date.now() - t0;
    expect(res.status, await res.clone().text()).toBe(302);
    const target = location(res)!;
    const resultId = new URL(target, "http://x").searchParams.get("result");
    const page = await alice.html(target);
    expect(page).toContain("The algorithm executed successfully!");
    const truth = page.match(/data-testid="ground-truth">([^<]+)</)![1];
    expect(["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]).toContain(truth);
    expect(page).toMatch(/data-testid="predicted">[^<]+</);
    expect(page).toMatch(/data-testid="probability">\d+\.\d\d%</);
    for (const kind of ["heatmap", "overlay"]) {
      const img = await alice.get(`/explanation/${resultId}?kind=${kind}`);
      expect(img.status).toBe(200);
      expect(img.headers.get("content-type")).toBe("image/png");
    }
    // The overlay is drawn on the picture the visitor sees, at display size: the same
    // size as the shown input, far larger than the model's 28 × 28 input, in the picture's own crop.
    const sizes = [];
    for (const kind of ["input", "overlay"]) {
      const img = await alice.get(`/explanation/${resultId}?kind=${kind}`);
      expect(img.status).toBe(200);
      const meta = await sharp(Buffer.from(await img.arrayBuffer())).metadata();
      sizes.push([meta.width, meta.height]);
    }
    expect(sizes[0]).toEqual(sizes[1]);
    expect(sizes[1][0]).toBeGreaterThanOrEqual(448);
    // Where the heatmap is hottest, the overlay shows the heat's colour (red–yellow), not the grey picture.
    const heat = await sharp(Buffer.from(await (await alice.get(`/explanation/${resultId}?kind=heatmap`)).arrayBuffer()))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    let hottest = 0;
    for (let p = 0; p < heat.info.width * heat.info.height; p++)
      if (heat.data[p * 3] + heat.data[p * 3 + 1] > heat.data[hottest * 3] + heat.data[hottest * 3 + 1]) hottest = p;
    const overlay = await sharp(Buffer.from(await (await alice.get(`/explanation/${resultId}?kind=overlay`)).arrayBuffer()))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const scale = overlay.info.width / heat.info.width;
    const at =
      (Math.floor((Math.floor(hottest / heat.info.width) + 0.5) * scale) * overlay.info.width + Math.floor(((hottest % heat.info.width) + 0.5) * scale)) *
      overlay.info.channels;
    const [r, g, b] = [overlay.data[at], overlay.data[at + 1], overlay.data[at + 2]];
    expect(r, `overlay at the hottest point: ${r},${g},${b}`).toBeGreaterThan(150);
    expect(r - b, `overlay at the hottest point: ${r},${g},${b}`).toBeGreaterThan(60);
    // The result says which model and which data produced it.
    expect(page).toContain('data-testid="result-model"');
    expect(page).toMatch(/trained on Fashion-MNIST/);
    expect(page).toContain('data-check="heldOut"');
    // The repeat comes from the cache: same result row.
    const again = await run(alice, q, { model, algorithm: "IG", picture: String(firstPicture) });
    expect(new URL(location(again)!, "http://x").searchParams.get("result")).toBe(resultId);
    expect(firstMs).toBeGreaterThan(0);
    // Bob explains his private picture; Alice cannot fetch that result.
    const up = new FormData();
    up.append("intent", "upload");
    up.append("picture", new Blob([fixture("red.jpg")], { type: "image/jpeg" }), "private.jpg");
    const bobsPicture = Number(new URL(location(await bob.post("/UserImgclassification?tab=pool", up))!, "http://x").searchParams.get("picture"));
    const bobRun = await run(bob, `tab=pool&picture=${bobsPicture}`, { model, algorithm: "Occlusion", picture: String(bobsPicture) });
    expect(bobRun.status).toBe(302);
    const bobResult = new URL(location(bobRun)!, "http://x").searchParams.get("result");
    expect((await bob.get(`/explanation/${bobResult}?kind=heatmap`)).status).toBe(200);
    // A red photo is nothing like Fashion-MNIST: flagged, not shown as a confident class.
    const bobPage = await bob.html(location(bobRun)!);
    expect(bobPage).toContain('data-testid="out-of-distribution"');
    expect(bobPage).not.toContain('data-testid="probability"');
    expect((await alice.get(`/explanation/${bobResult}?kind=heatmap`)).status).toBe(404);
    expect((await alice.get(`/UserImgclassification?tab=pool&picture=${bobsPicture}&result=${bobResult}`)).status).toBe(404);
  });
});
