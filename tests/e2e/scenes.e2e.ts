// The scene demo (/scenes) in a real Chromium against the real stack, with JavaScript on and off:
// the pool (6 a row) → refresh → a picture (red border) → the model message → model and algorithm →
// start → the prediction with its model and data, the attribution images and the success message;
// and /coco's "not installed" page, which shows no picture.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { Client } from "../support/client.ts";
import { launchBrowser, newContext } from "./browser.ts";

let stack: Stack;
let browser: Browser;
let uploadDir: string;

beforeAll(async () => {
  uploadDir = path.join(ROOT, `var/test/uploads_e2e_scenes_${process.pid}_${Date.now()}`);
  [stack, browser] = await Promise.all([
    startStack({ env: { UPLOAD_DIR: uploadDir, SEED_FASHION_MNIST_PICTURES: "8", SEED_SCENES_PICTURES: "24", SEED_SEG_SCENES_PICTURES: "8" } }),
    launchBrowser(),
  ]);
  // Until the sidecar's workers are up a run answers with the failure panel (503, "try again
  // later"): wait for one run to succeed, on a picture and algorithm the journeys below do not use.
  const client = new Client(stack.baseUrl);
  const picture = (await client.html("/scenes?pool=9")).match(/data-picture-id="(\d+)"/)![1];
  for (let tries = 0; tries < 16; tries++) {
    const res = await client.post(`/scenes?pool=9&picture=${picture}`, { intent: "run", model: "resnet-scenes", algorithm: "Occlusion", picture });
    if (res.status === 302) break;
    await new Promise((r) => setTimeout(r, 5_000));
  }
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  if (uploadDir) fs.rmSync(uploadDir, { recursive: true, force: true });
});

const loaded = async (page: import("playwright-core").Page, testId: string) => {
  const img = page.getByTestId(testId);
  await img.waitFor();
  await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await img.elementHandle());
};

describe.each([true, false])("scene demo with JavaScript %s", (js) => {
  it("pool → refresh → pick → model and algorithm → start → prediction and attribution", async () => {
    const context = await newContext(browser, stack.baseUrl, js);
    const page = await context.newPage();
    await page.goto("/scenes");
    await page.getByTestId("image-pool").waitFor();
    const tiles = page.getByTestId("image-pool").locator(".ds-tile");
    expect(await tiles.count()).toBe(12);
    // Six thumbnails a row, as on every demo page.
    const tops = await tiles.evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
    expect(new Set(tops.slice(0, 6)).size).toBe(1);
    expect(tops[6]).toBeGreaterThan(tops[0]);
    const before = await tiles.evaluateAll((els) => els.map((e) => e.getAttribute("data-picture-id")));
    await page.getByTestId("refresh-pool").click();
    await page.waitForURL(/pool=2/);
    // With JavaScript the address changes as the new pool renders: wait for the tiles themselves.
    await expect.poll(() => tiles.evaluateAll((els) => els.map((e) => e.getAttribute("data-picture-id")))).not.toEqual(before);
    // Nothing chosen: the model message first.
    await page.getByRole("button", { name: "Start inference" }).click();
    await page.getByText("Please choose the model to use").waitFor();
    await tiles.first().click();
    await page.waitForURL(/picture=\d+/);
    const picked = page.locator(".ds-tile.picked");
    await picked.waitFor();
    expect(await picked.evaluate((e) => getComputedStyle(e).borderTopColor)).toBe("rgb(220, 38, 38)");
    // The first model offered is the ResNet18 slot's network (docs/product.md "Classification", app/.server/demoFlow.server.ts).
    expect(await page.locator("#model option").nth(1).getAttribute("value")).toBe("resnet-scenes-v2");
    await page.locator("#model").selectOption({ index: 1 });
    await page.locator("#algorithm").selectOption("IG");
    await page.getByRole("button", { name: "Start inference" }).click();
    await page.waitForURL(/result=\d+/, { timeout: 120_000 });
    await page.getByTestId("success").waitFor();
    expect(await page.getByTestId("predicted").innerText()).not.toBe("");
    expect(await page.getByTestId("result-model").innerText()).toMatch(/scenes/);
    await loaded(page, "input");
    await loaded(page, "heatmap");
    await loaded(page, "overlay");
    await context.close();
  });
});

describe("not installed", () => {
  it("/coco says so, links to the scene demo and shows no picture", async () => {
    const context = await newContext(browser, stack.baseUrl, true);
    const page = await context.newPage();
    await page.goto("/coco");
    await page.getByTestId("not-installed").waitFor();
    expect(await page.locator("main img, section img").count()).toBe(0);
    await page.getByTestId("runs-here").getByRole("link", { name: "Scene demo" }).click();
    await page.waitForURL(/\/scenes$/);
    await page.getByTestId("image-pool").waitFor();
    await context.close();
  });
});
