// The SeBoW demos in a real Chromium against the real stack (database, sidecar with the committed
// sebow-scenes model, built app), with JavaScript on and off: pool → pick (red border) → the
// messages in order (docs/product.md "Demo pages") → NeuralDecisionTree with DI (decisions, saliency pictures, path end) and
// SearchSpaceModel with SPI (superpixel grid); /cifarsebow says it serves the scenes model.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startStack, type Stack } from "../support/stack.ts";
import { launchBrowser, newContext, wholePage } from "./browser.ts";

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack({ env: { ...process.env, SEED_FASHION_MNIST_PICTURES: "4", SEED_SCENES_PICTURES: "4" } }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe.each([true, false])("SeBoW scene demo with JavaScript %s", (js) => {
  it("runs the tree with DI and the search space with SPI on a pooled scene", async () => {
    const context = await newContext(browser, stack.baseUrl, js);
    const page = await context.newPage();
    await page.goto("/scenesebow");
    await page
      .getByTestId("model-facts")
      .getByText(/sebow-scenes/)
      .waitFor();
    expect(await page.getByTestId("image-pool").locator("a").count()).toBe(12);
    // Results are hidden until a run has finished.
    expect(await page.getByTestId("results").count()).toBe(0);
    await page.getByRole("button", { name: "Start inference" }).click();
    await page.getByText("Please choose the model to use").waitFor();
    await page.locator("#model").selectOption("NeuralDecisionTree");
    await page.getByRole("button", { name: "Start inference" }).click();
    await page.getByText("Please choose the algorithm to use").waitFor();
    await page.locator("#model").selectOption("NeuralDecisionTree");
    await page.locator("#algorithm").selectOption("DI");
    await page.getByRole("button", { name: "Start inference" }).click();
    await page.getByText("Please choose the image to explain").waitFor();

    await page.getByTestId("image-pool").locator("a").nth(2).click();
    await page.waitForURL(/sample=test%3A\d+|sample=test:\d+/);
    await page.locator(".ds-tile.picked").waitFor();
    await page.locator("#model").selectOption("NeuralDecisionTree");
    await page.locator("#algorithm").selectOption("DI");
    await page.getByRole("button", { name: "Start inference" }).click();
    await page.getByTestId("results").waitFor({ timeout: 120_000 });
    await page.getByTestId("success").waitFor();
    await wholePage(page);
    expect(await page.getByTestId("decision").count()).toBe(3);
    const truth = await page.getByTestId("ground-truth").textContent();
    expect(["circle", "square", "triangle", "cross", "ring", "star"]).toContain(truth);
    expect(await page.getByTestId("probability").textContent()).toMatch(/^\d{1,3}\.\d{2}%$/);
    await page
      .getByTestId("leaf")
      .getByText(/The path ends at n\d+/)
      .waitFor();

    await page.locator("#model").selectOption("SearchSpaceModel");
    await page.locator("#algorithm").selectOption("SPI");
    await page.getByRole("button", { name: "Start inference" }).click();
    await page.getByTestId("spi").waitFor({ timeout: 120_000 });
    await wholePage(page);
    expect(await page.getByTestId("patch-table").locator("td").count()).toBe(16);
    await page.getByText(/SearchSpaceModel of model sebow-scenes/).waitFor();
    await context.close();
  });
});

it("/cifarsebow says CIFAR is not installed and serves the scenes model", async () => {
  const context = await newContext(browser, stack.baseUrl, false);
  const page = await context.newPage();
  await page.goto("/cifarsebow");
  await page.getByTestId("fallback").waitFor();
  await page
    .getByTestId("model-facts")
    .getByText(/sebow-scenes/)
    .waitFor();
  await context.close();
});
