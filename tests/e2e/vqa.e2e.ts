// The question-answering page in a real Chromium (docs/vqa.md), with JavaScript on and off: search
// the scenes dataset, pick it, pick an image, choose model and algorithm, ask an empty question
// first (its required-field message), then a real one, and read the answer, the coloured words and
// the contributions; and the page in Chinese at phone width without sideways scrolling.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { gotoHydrated, launchBrowser, newContext, wholePage } from "./browser.ts";

let stack: Stack;
let browser: Browser;
const uploadDir = path.join(ROOT, `var/test/uploads_vqa_e2e_${process.pid}_${Date.now()}`);
const shots = path.join(ROOT, "var/test/screenshots");

beforeAll(async () => {
  [stack, browser] = await Promise.all([
    startStack({ env: { UPLOAD_DIR: uploadDir, SEED_FASHION_MNIST_PICTURES: "4", SEED_SCENES_PICTURES: "4", SEED_VQA_PICTURES: "20" } }),
    launchBrowser(),
  ]);
  fs.mkdirSync(shots, { recursive: true });
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  fs.rmSync(uploadDir, { recursive: true, force: true });
});

async function open(page: Page, js: boolean, url: string) {
  if (js) await gotoHydrated(page, url);
  else await page.goto(url);
}

describe.each([true, false])("/UserQuery with JavaScript %s", (js) => {
  it("asks a question about a scene and explains the answer", async () => {
    const context = await newContext(browser, stack.baseUrl, js);
    const page = await context.newPage();
    await open(page, js, "/UserQuery");
    await page.getByRole("heading", { name: "Step 1: choose a dataset" }).waitFor();
    await page.getByRole("textbox").first().fill("Question-answer");
    await page.getByRole("textbox").first().press("Enter");
    await page.getByText("Question-answer scenes (generated, held-out split)").first().waitFor();
    await page.getByRole("link", { name: "Select" }).first().click();
    await page.getByRole("heading", { name: /Step 2: choose an image/ }).waitFor();
    expect(await page.locator("[data-testid=image-grid] [data-picture-id]").count()).toBe(16);
    await page
      .locator("[data-testid=image-grid] a")
      .nth(js ? 0 : 1)
      .click();
    await page.getByText(/^Image: vqa-scenes-\d+\.png$/).waitFor();
    await page.getByLabel("Model").selectOption("vqa-scenes");
    await page.getByLabel("Algorithm").selectOption(js ? "IntegratedGradients" : "LayerIntegratedGradients");
    // A question is required (docs/product.md "Question answering").
    await page.getByTestId("vqa-start").click();
    await page.getByText("Please enter the question you want to ask").waitFor();
    await page.getByLabel("Question (English or Chinese)").fill("is there a red circle?");
    await page.getByTestId("vqa-start").click();
    await page.getByTestId("answer").waitFor({ timeout: 60_000 });
    await page.getByText("The algorithm executed successfully!").waitFor();
    expect(["yes", "no"]).toContain((await page.getByTestId("answer").innerText()).trim());
    expect(await page.locator("[data-testid=words] span").allInnerTexts()).toEqual(["is", "there", "a", "red", "circle"]);
    await wholePage(page);
    expect(await page.getByTestId("top-answers").locator("tbody tr").count()).toBe(5);
    for (const id of ["contribution-text", "contribution-image", "contribution-total"]) expect(await page.getByTestId(id).innerText()).toMatch(/^-?\d/);
    expect(await page.getByTestId("heatmap").evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(shots, `vqa-result-js-${js}.png`), fullPage: true });
    await context.close();
  }, 120_000);
});

describe("/UserQuery in Chinese at phone width", () => {
  it("fits 390 px and speaks Chinese", async () => {
    const context = await browser.newContext({ baseURL: stack.baseUrl, viewport: { width: 390, height: 844 }, locale: "zh-CN" });
    const page = await context.newPage();
    await page.goto("/UserQuery?type=name&q=Question-answer");
    await page.getByRole("heading", { name: "第一步：选择数据集" }).waitFor();
    expect(await page.locator("html").getAttribute("lang")).toBe("zh-CN");
    await page.getByRole("link", { name: "选择" }).first().click();
    await page.getByRole("heading", { name: "第三步：模型、算法和问题" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: path.join(shots, "vqa-zh-phone.png"), fullPage: true });
    await context.close();
  }, 60_000);
});
