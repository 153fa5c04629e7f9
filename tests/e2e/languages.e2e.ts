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
  it("draws a Chinese heading in the interface font when its bold face arrives after the first layout", async () => {
    const ctx = await browser.newContext({ baseURL: stack.baseUrl, locale: "zh-CN" });
    const page = await ctx.newPage();
    // A slow first load: the bold face held back until the page has been laid out without it
    // (the heading then stayed in boxes: Chromium did not redraw it when the face arrived).
    await page.route(/noto-sans-sc-ui-700[^/]*\.woff2/, async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await page.goto("/homepage");
    const cdp = await ctx.newCDPSession(page);
    await cdp.send("DOM.enable");
    await cdp.send("CSS.enable");
    /** The fonts Chromium drew the first card's heading with. */
    const drawnWith = async () => {
      const { root } = await cdp.send("DOM.getDocument", { depth: -1 });
      const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector: "article.card h2" });
      return (await cdp.send("CSS.getPlatformFontsForNode", { nodeId })).fonts.map((f) => f.postScriptName);
    };
    const until = Date.now() + 15_000;
    let fonts = await drawnWith();
    while (fonts.join() !== "NotoSansSC-Bold" && Date.now() < until) {
      await page.waitForTimeout(250);
      fonts = await drawnWith();
    }
    expect(fonts).toEqual(["NotoSansSC-Bold"]);
    await ctx.close();
  });

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
