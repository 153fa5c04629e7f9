// The top menu reaches every area at desktop and phone width, with JavaScript on and off.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startStack, type Stack } from "../support/stack.ts";
import { launchBrowser } from "./browser.ts";

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack({ sidecar: false }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe("top menu", () => {
  for (const javaScriptEnabled of [true, false]) {
    it(`desktop: DEMOS and DATASETS open and lead to their pages (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async () => {
      const ctx = await browser.newContext({ baseURL: stack.baseUrl, javaScriptEnabled, viewport: { width: 1280, height: 800 } });
      const page = await ctx.newPage();
      await page.goto("/homepage");
      // With JavaScript, open the menu once React has hydrated: a click before that is undone by hydration.
      if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 30_000 });
      const nav = page.getByRole("navigation");
      await nav.getByText("DEMOS", { exact: true }).click();
      await nav.getByRole("link", { name: "Image classification" }).click();
      await page.waitForURL(/\/UserImgclassification/);
      await page.getByRole("navigation").getByText("DATASETS", { exact: true }).click();
      await page.getByRole("navigation").getByRole("link", { name: "Dataset gallery" }).click();
      await page.waitForURL(/\/datasetPreview/);
      // "My datasets" is for signed-in users only.
      await page.getByRole("navigation").getByText("DATASETS", { exact: true }).click();
      expect(await page.getByRole("navigation").getByRole("link", { name: "My datasets" }).count()).toBe(0);
      await page.getByRole("navigation").getByRole("link", { name: "DOCS" }).click();
      await page.waitForURL(/\/document/);
      await ctx.close();
    });

    it(`phone width (390 px): the bar collapses into a menu button that opens it (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async () => {
      const ctx = await browser.newContext({ baseURL: stack.baseUrl, javaScriptEnabled, viewport: { width: 390, height: 844 } });
      const page = await ctx.newPage();
      await page.goto("/homepage");
      const leaderboard = page.getByRole("navigation").getByRole("link", { name: "LEADERBOARD" });
      expect(await leaderboard.isVisible()).toBe(false);
      await page.getByText("Menu", { exact: true }).click();
      await leaderboard.waitFor({ state: "visible" });
      // Nothing on the page is wider than the phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await leaderboard.click();
      await page.waitForURL(/\/leaderboard/);
      await ctx.close();
    });
  }
});
