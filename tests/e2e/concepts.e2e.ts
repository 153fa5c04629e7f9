// The concept page in a real Chromium (docs/concepts.md): pick an image from the pool, page through
// the concept slots choosing "striped" (the choice survives paging), start TCAV and read the score
// chart and table — with JavaScript on and off; the first check (docs/product.md "Concepts"); and the page in Chinese at
// phone width without sideways scrolling.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { gotoHydrated, launchBrowser, newContext, wholePage } from "./browser.ts";

let stack: Stack;
let browser: Browser;
const cavDir = path.join(ROOT, `var/test/cavs_e2e_${process.pid}_${Date.now()}`);
const shots = path.join(ROOT, "var/test/screenshots");

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack({ env: { CAV_CACHE_DIR: cavDir } }), launchBrowser()]);
  fs.mkdirSync(shots, { recursive: true });
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  fs.rmSync(cavDir, { recursive: true, force: true });
});

async function open(page: Page, js: boolean, url: string) {
  if (js) await gotoHydrated(page, url);
  else await page.goto(url);
}

describe.each([true, false])("/tcav with JavaScript %s", (js) => {
  it("runs TCAV for a pool image and the striped concept chosen on another page", async () => {
    const context = await newContext(browser, stack.baseUrl, js);
    const page = await context.newPage();
    await open(page, js, "/tcav?cpage=14");
    expect(await page.getByTestId("pool-image").count()).toBe(8);
    // Refresh: another 8 held-out images, and the concept page stays where it was.
    const ids = () => page.locator('input[name="image"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value).join(","));
    const before = await ids();
    await page.getByRole("button", { name: "Refresh images" }).click();
    await expect.poll(ids, { timeout: 15_000 }).not.toBe(before);
    await page.getByText("Page 14 of 16").waitFor();
    // The pick: the second pool image (js on) or the third (js off), so the two runs differ.
    await page
      .getByTestId("pool-image")
      .nth(js ? 1 : 2)
      .click();
    const striped = page.locator('[data-testid="concept-slot"][data-concept="striped"]');
    await striped.getByLabel("with", { exact: true }).check();
    expect(await striped.locator("img").count()).toBe(3);
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByText("Page 15 of 16").waitFor();
    await page.getByText("Chosen (1): striped").waitFor();
    // Paging submitted the form with GET: the picked image is still picked.
    await wholePage(page);
    expect(await page.locator('input[name="image"]:checked').count()).toBe(1);
    await page.getByTestId("tcav-start").click();
    // With JavaScript the page shows how many concept vectors are done while it waits (this
    // run trains them: its CAV cache is empty); without, the browser's own loading indicator.
    if (js) {
      const bar = page.getByTestId("tcav-progress").getByRole("progressbar");
      await bar.waitFor({ timeout: 60_000 });
      await page.getByText(/Concept vectors: \d+ of 48/).waitFor();
    }
    const results = page.getByTestId("tcav-results");
    await results.waitFor({ timeout: 120_000 });
    await page.getByText("The algorithm executed successfully!").waitFor();
    // The form is as it was: the concept page it was started from, striped still chosen.
    await page.getByText("Page 15 of 16").waitFor();
    await page.getByText("Chosen (1): striped").waitFor();
    await wholePage(page);
    expect(await page.getByTestId("tcav-chart").count()).toBe(1);
    expect(await page.locator('[data-testid="tcav-chart"] svg rect').count()).toBeGreaterThanOrEqual(4);
    expect(await page.locator("table[data-testid=tcav-table] tbody tr").count()).toBe(4);
    await results.getByText(/Model inception-textured-shapes \(data: textured-shapes\)/).waitFor();
    await page.screenshot({ path: path.join(shots, `tcav-result-js-${js}.png`), fullPage: true });
    await context.close();
  }, 180_000);

  it("asks for a concept first (the first check, docs/product.md)", async () => {
    const context = await newContext(browser, stack.baseUrl, js);
    const page = await context.newPage();
    await open(page, js, "/tcav");
    await page.getByTestId("pool-image").first().click();
    await page.getByTestId("tcav-start").click();
    await page.getByText("Please choose at least one concept").waitFor();
    await context.close();
  });
});

describe("/tcav in Chinese at phone width", () => {
  it.each([true, false])("fits 390 px and speaks Chinese (JavaScript %s)", async (js) => {
    const context = await browser.newContext({ baseURL: stack.baseUrl, javaScriptEnabled: js, viewport: { width: 390, height: 844 }, locale: "zh-CN" });
    const page = await context.newPage();
    await page.goto("/tcav");
    await page.getByRole("heading", { name: "第一步：选择图像" }).waitFor();
    expect(await page.locator("html").getAttribute("lang")).toBe("zh-CN");
    await page.getByTestId("pool-image").first().click();
    await page.getByTestId("tcav-start").click();
    await page.getByText("请至少选择一个概念").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // Headings and PrimeReact-styled buttons name the shipped CJK font (buttons do not inherit it in Chromium).
    const families = await page.evaluate(() =>
      ["h2", "[data-testid=tcav-start]", "button[name=reseed]"].map((sel) => getComputedStyle(document.querySelector(sel)!).fontFamily),
    );
    for (const family of families) expect(family).toContain("Noto Sans SC");
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: path.join(shots, `tcav-zh-phone-js-${js}.png`), fullPage: true });
    await context.close();
  });
});
