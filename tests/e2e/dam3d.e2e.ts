// The 3D dam viewer in a real Chromium (docs/crack-detection.md "The 3D dam viewer"): with
// JavaScript, the GLB loads through three.js (the progress bar reaches 100 %), the canvas is not
// blank, and clicking a panel with a photo shows that photo's detection; the info panel's counts
// match the detections. Without JavaScript, the still image and the table show the same panels, and
// a panel opens its details.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { PNG } from "pngjs";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { Client } from "../support/client.ts";
import { gotoHydrated, launchBrowser, newContext } from "./browser.ts";

let stack: Stack;
let browser: Browser;
let uploadDir: string;
let cracks = 0;

beforeAll(async () => {
  uploadDir = path.join(ROOT, `var/test/uploads_e2e_dam_${process.pid}_${Date.now()}`);
  [stack, browser] = await Promise.all([
    startStack({
      env: { UPLOAD_DIR: uploadDir, SEED_INSPECTION_RUN: "1", SEED_INSPECTION_PICTURES: "12", SEED_FASHION_MNIST_PICTURES: "4", SEED_SCENES_PICTURES: "4" },
    }),
    launchBrowser(),
  ]);
  const c = new Client(stack.baseUrl);
  const end = Date.now() + 120_000;
  while (!/data-testid="run-status" data-state="completed"/.test(await c.html("/twodresult"))) {
    if (Date.now() > end) throw new Error("the platform's detection run did not complete");
    await new Promise((r) => setTimeout(r, 500));
  }
  const rows = ((await (await c.post("/algorithm/getResults", { modelName: "ridge-frangi-v1" })).json()) as { rows: { isCrack: boolean }[] }).rows;
  cracks = rows.filter((r) => r.isCrack).length;
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  if (uploadDir) fs.rmSync(uploadDir, { recursive: true, force: true });
});

describe("the 3D dam viewer", () => {
  it("fits a 390 px phone: the page never scrolls sideways, the canvas included", async () => {
    const context = await browser.newContext({ baseURL: stack.baseUrl, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await gotoHydrated(page, "/dam3d");
    await page.locator('[data-testid="dam-canvas"][data-loaded="true"]').waitFor({ timeout: 60_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const canvas = (await page.getByTestId("dam-canvas").boundingBox())!;
    expect(canvas.x + canvas.width).toBeLessThanOrEqual(390);
    await context.close();
  });
  it("with JavaScript: loads the model, draws it, and a click on a panel shows its detection", async () => {
    const context = await newContext(browser, stack.baseUrl, true);
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(m.text());
    });
    await gotoHydrated(page, "/dam3d");
    const canvas = page.locator('[data-testid="dam-canvas"][data-loaded="true"]');
    await canvas.waitFor({ timeout: 60_000 });
    expect(await page.getByTestId("dam-progress").getAttribute("aria-valuenow")).toBe("100");
    // The model's embedded textures load (GLTFLoader reads them through blob: URLs, which the
    // Content-Security-Policy must allow), and nothing else went wrong in the console.
    expect(consoleErrors).toEqual([]);
    expect(await page.getByTestId("dam-abnormalities").innerText()).toBe(String(cracks));
    // Not blank: the rendered pixels vary (sky, concrete, panels with photos).
    const shot = PNG.sync.read(await canvas.screenshot());
    const seen = new Set<number>();
    for (let i = 0; i < shot.data.length; i += 4 * 97) seen.add((shot.data[i] >> 4) * 256 + (shot.data[i + 1] >> 4) * 16 + (shot.data[i + 2] >> 4));
    expect(seen.size).toBeGreaterThan(20);
    // Click across the canvas until a panel is picked (the camera's view is fixed at start).
    const box = (await canvas.boundingBox())!;
    for (let y = 0.35; y <= 0.8 && !(await page.getByTestId("dam-picked").count()); y += 0.05)
      for (let x = 0.2; x <= 0.8 && !(await page.getByTestId("dam-picked").count()); x += 0.1)
        await page.mouse.click(box.x + box.width * x, box.y + box.height * y);
    await page.getByTestId("dam-picked").waitFor();
    expect(await page.getByTestId("dam-picked").innerText()).toMatch(/Panel \d+ \(row \d, column \d\)/);
    await context.close();
  });

  it("without JavaScript: the still image and the table show the panels, and a panel opens its details", async () => {
    const context = await newContext(browser, stack.baseUrl, false);
    const page = await context.newPage();
    await page.goto("/dam3d");
    await page.getByTestId("dam-still").waitFor();
    expect(await page.locator('[data-testid="dam-table"] tbody tr').count()).toBe(36);
    expect(await page.locator('[data-testid="dam-table"] tr[data-crack="yes"]').count()).toBe(cracks);
    expect(await page.getByTestId("dam-panel-link").count()).toBe(12);
    await page.getByTestId("dam-panel-link").first().click();
    await page.waitForURL(/\/twodresult\?run=\d+&details=\d+/);
    await page.getByText("Detection details").first().waitFor();
    await context.close();
  });
});
