// The language toggle in a real Chromium, with JavaScript on and off; the Chinese page is
// rendered with the shipped Noto Sans SC (a screenshot is kept under var/screenshots/).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startStack, type Stack } from "../support/stack.ts";
import { gotoHydrated, launchBrowser, newContext } from "./browser.ts";

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack({ sidecar: false }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe("interface languages in Chromium", () => {
  for (const javaScriptEnabled of [true, false]) {
    it(`the toggle switches to Chinese and back (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async () => {
      const ctx = await newContext(browser, stack.baseUrl, javaScriptEnabled);
      const page = await ctx.newPage();
      const errors: string[] = [];
      page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
      if (javaScriptEnabled) await gotoHydrated(page, "/homepage");
      else await page.goto("/homepage");
      expect(await page.getAttribute("html", "lang")).toBe("en");
      await page.getByRole("button", { name: "中文" }).click();
      await page.getByRole("navigation").getByRole("link", { name: "排行榜" }).waitFor({ state: "visible" });
      expect(await page.getAttribute("html", "lang")).toBe("zh-CN");
      // A wait, not an instant check: without JavaScript the new page is still streaming in when
      // the navigation (first in the HTML) shows; CI once looked before the heading had arrived.
      await page.getByRole("heading", { name: "研究动机" }).waitFor({ state: "visible" });
      if (javaScriptEnabled) {
        // The Chinese glyphs come from the shipped web font, not the machine's fonts.
        await page.evaluate(() => document.fonts.ready);
        const loaded = await page.evaluate(() => [...document.fonts].some((f) => f.family.includes("Noto Sans SC") && f.status === "loaded"));
        expect(loaded).toBe(true);
        fs.mkdirSync(path.resolve("var/screenshots"), { recursive: true });
        await page.screenshot({ path: path.resolve("var/screenshots/homepage-zh.png"), fullPage: true });
      }
      await page.getByRole("button", { name: "English" }).click();
      await page.getByRole("navigation").getByRole("link", { name: "LEADERBOARD" }).waitFor({ state: "visible" });
      expect(await page.getAttribute("html", "lang")).toBe("en");
      // Hydrated without mismatches, and nothing refused by the Content-Security-Policy.
      expect(errors.filter((e) => /hydrat|Content Security Policy|Refused to/i.test(e))).toEqual([]);
      await ctx.close();
    });
  }
});
