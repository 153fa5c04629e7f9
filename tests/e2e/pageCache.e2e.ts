// A page the cache answers with 304 (server/pageCache.ts) keeps its JavaScript in a real browser:
// the browser reuses its stored copy, whose scripts carry that copy's nonce, so the revalidation
// must not hand it a policy with another nonce (a new-user walk found /leaderboard's second visit
// logging CSP errors and its controls dead).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startStack, type Stack } from "../support/stack.ts";
import { launchBrowser, newContext } from "./browser.ts";

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack({ sidecar: false }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe("cached public pages in the browser", () => {
  for (const path of ["/leaderboard", "/Algorithm", "/homepage"]) {
    it(`${path}: visited again (answered 304), the page still runs its scripts`, async () => {
      const context = await newContext(browser, stack.baseUrl, true);
      const page = await context.newPage();
      const blocked: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error" && /Content Security Policy/i.test(m.text())) blocked.push(m.text());
      });
      const documents: Promise<{ status: number; revalidated: boolean }>[] = [];
      page.on("response", (r) => {
        if (r.request().resourceType() !== "document" || !r.url().endsWith(path)) return;
        documents.push(
          r
            .request()
            .headerValue("if-none-match")
            .then((tag) => ({ status: r.status(), revalidated: Boolean(tag) })),
        );
      });
      for (let visit = 0; visit < 2; visit++) {
        // A fresh navigation each time (not a reload, which Chromium may send without If-None-Match).
        await page.goto("about:blank");
        await page.goto(path);
        await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 30_000 });
      }
      // The second visit was the revalidation this test is about: it asked with the page's ETag.
      expect((await Promise.all(documents)).map((d) => d.revalidated)).toEqual([false, true]);
      expect(blocked).toEqual([]);
      await context.close();
    }, 90_000);
  }
});
