// The crack detection results page in a real Chromium (docs/crack-detection.md): the platform's run
// completes on its own, the grid shows 6 photos in rows of 3, and the "detection details" dialog
// opens, can be dragged (JavaScript on), and asks before it closes — with JavaScript on and off.
import path from "node:path";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { Client } from "../support/client.ts";
import { gotoHydrated, launchBrowser, newContext } from "./browser.ts";

let stack: Stack;
let browser: Browser;
let uploadDir: string;

beforeAll(async () => {
  uploadDir = path.join(ROOT, `var/test/uploads_e2e_inspection_${process.pid}_${Date.now()}`);
  [stack, browser] = await Promise.all([
    startStack({
      env: { UPLOAD_DIR: uploadDir, SEED_INSPECTION_RUN: "1", SEED_INSPECTION_PICTURES: "8", SEED_FASHION_MNIST_PICTURES: "4", SEED_SCENES_PICTURES: "4" },
    }),
    launchBrowser(),
  ]);
  // Wait for the platform's run to finish before any browser opens the page.
  const c = new Client(stack.baseUrl);
  const end = Date.now() + 120_000;
  while (!/data-testid="run-status" data-state="completed"/.test(await c.html("/twodresult"))) {
    if (Date.now() > end) throw new Error("the platform's detection run did not complete");
    await new Promise((r) => setTimeout(r, 500));
  }
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  if (uploadDir) fs.rmSync(uploadDir, { recursive: true, force: true });
});

describe.each([true, false])("crack detection results with JavaScript %s", (js) => {
  it("shows 6 results in rows of 3, and the details dialog asks before closing", async () => {
    const context = await newContext(browser, stack.baseUrl, js);
    const page = await context.newPage();
    if (js) await gotoHydrated(page, "/twodresult");
    else await page.goto("/twodresult");
    const tiles = page.getByTestId("result-tile");
    expect(await tiles.count()).toBe(6);
    // Three a row: the first three tiles share a top edge, the fourth is below them.
    const boxes = await Promise.all([0, 1, 2, 3].map((i) => tiles.nth(i).boundingBox()));
    expect(boxes[1]!.y).toBeCloseTo(boxes[0]!.y, 0);
    expect(boxes[2]!.y).toBeCloseTo(boxes[0]!.y, 0);
    expect(boxes[3]!.y).toBeGreaterThan(boxes[0]!.y + boxes[0]!.height / 2);

    await tiles.first().getByTestId("details-button").click();
    await page.waitForURL(/details=\d+/);
    const dialog = page.getByTestId("details-dialog");
    await dialog.getByText("Detection details").first().waitFor();
    for (const label of ["Image format", "Image size", "Crack length", "Crack width", "Image number", "Detection time"])
      await dialog.getByText(label).waitFor();
    if (js) {
      // Draggable: moving the header moves the dialog.
      const header = page.locator(".p-dialog-header");
      const before = (await page.locator(".p-dialog").boundingBox())!;
      const h = (await header.boundingBox())!;
      await page.mouse.move(h.x + 40, h.y + h.height / 2);
      await page.mouse.down();
      await page.mouse.move(h.x + 40 - 120, h.y + h.height / 2 + 60, { steps: 8 });
      await page.mouse.up();
      const after = (await page.locator(".p-dialog").boundingBox())!;
      expect(Math.abs(after.x - before.x) + Math.abs(after.y - before.y)).toBeGreaterThan(50);
      // Closing asks first; "No" keeps it open.
      await page.locator(".p-dialog-header-close").click();
      await page.getByTestId("close-confirm").waitFor();
      await page.getByTestId("stay-open").click();
      await page.getByTestId("close-confirm").waitFor({ state: "detached" });
      expect(await page.locator(".p-dialog").isVisible()).toBe(true);
      await page.locator(".p-dialog-header-close").click();
    } else {
      await page.getByTestId("close-details").click();
      await page.waitForURL(/closing=1/);
    }
    await page.getByTestId("close-confirm").getByText("Close the detection details?").waitFor();
    await page.getByTestId("confirm-close").click();
    await page.waitForURL((u) => !u.search.includes("details="));
    await page.getByTestId("details-dialog").waitFor({ state: "detached" });
    await context.close();
  });
});
