// Wide tables at phone width: at 390 px the page itself never scrolls sideways; a table wider than
// the screen scrolls inside its card instead. Checked on the pages with the widest tables, as the
// person who may open each, in Chromium (JavaScript off: the first render every phone gets).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { adminClient, userClient } from "../support/accounts.ts";
import { Client } from "../support/client.ts";
import { startStack, type Stack } from "../support/stack.ts";
import { launchBrowser, signIn } from "./browser.ts";

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack({ sidecar: false, env: { SEED_FASHION_MNIST_PICTURES: "0", SEED_SCENES_PICTURES: "4" } }), launchBrowser()]);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const PAGES: Array<[string, "visitor" | "user" | "admin"]> = [
  ["/leaderboard", "visitor"],
  ["/history", "user"],
  ["/approval", "admin"],
  ["/user", "admin"],
  ["/admin/ranking", "admin"],
  ["/admin/manage_server", "admin"],
  ["/admin/evaluations", "admin"],
  // Not tables, but pages that scrolled sideways at this width: the profile's facts beside its
  // avatar, and a server's fixed-width charts (the seeded local sidecar's entry is server 1).
  ["/profile", "user"],
  ["/server_detail/1", "admin"],
];

/** Every table's width, its scrolling ancestor's width and overflow, and the page's own scroll width. */
async function measure(page: Page) {
  return page.evaluate(() => {
    const tables = [...document.querySelectorAll("main table, section table, table")].map((t) => {
      // The table itself may be the scrolling box (display: block; overflow-x: auto).
      let box: HTMLElement | null = t as HTMLElement;
      while (box && box !== document.body && !/(auto|scroll)/.test(getComputedStyle(box).overflowX)) box = box.parentElement;
      const owner = t.closest("[data-testid], section, details");
      return {
        where: owner ? (owner.getAttribute("data-testid") ?? owner.className ?? owner.tagName) : "page",
        width: (t as HTMLElement).scrollWidth,
        box: box && box !== document.body ? { width: box.clientWidth, scrolls: box.scrollWidth > box.clientWidth } : null,
      };
    });
    // The outermost elements that stick out on the right, to name in a failure.
    const sticking = [...document.body.querySelectorAll("*")]
      .filter(
        (e) =>
          e.getBoundingClientRect().right > window.innerWidth + 1 &&
          !(e.parentElement && e.parentElement.getBoundingClientRect().right > window.innerWidth + 1),
      )
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join(".")}[${Math.round(e.getBoundingClientRect().right)}]`);
    return { pageWidth: document.documentElement.scrollWidth, viewport: window.innerWidth, tables, sticking };
  });
}

// Layout is CSS: the server-rendered page (JavaScript off) is what every phone gets first.
describe.each([false])("at 390 px with JavaScript %s", (js) => {
  it("no page scrolls sideways; wide tables scroll inside their card", async () => {
    const clients = { visitor: new Client(stack.baseUrl), user: await userClient(stack.baseUrl, `phone-${js}`), admin: await adminClient(stack.baseUrl) };
    let scrolledInside = 0;
    for (const [url, who] of PAGES) {
      const context = await browser.newContext({ baseURL: stack.baseUrl, javaScriptEnabled: js, viewport: { width: 390, height: 844 } });
      await signIn(context, clients[who], stack.baseUrl);
      const page = await context.newPage();
      await page.goto(url);
      if (js) await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 30_000 });
      const m = await measure(page);
      expect(m.pageWidth, `${url}: the page scrolls sideways (${m.sticking.join(", ")})`).toBeLessThanOrEqual(m.viewport);
      for (const t of m.tables) {
        if (t.width <= m.viewport) continue;
        // Wider than the screen: it must sit in a box that scrolls, no wider than the screen.
        expect(t.box, `${url}: a ${t.width} px table (${t.where}) outside a scrolling box`).not.toBeNull();
        expect(t.box!.width).toBeLessThanOrEqual(m.viewport);
        if (t.box!.scrolls) scrolledInside++;
      }
      await context.close();
    }
    // The leaderboard's and the admin lists' tables are wider than a phone: at least one scrolls.
    expect(scrolledInside).toBeGreaterThan(0);
  }, 180_000);

  it("the profile's API tokens: one card per token, each date on one line, in both languages", async () => {
    const user = await userClient(stack.baseUrl, `tokens-${js}`);
    await user.post("/profile", { intent: "token-create", name: "laptop-script", expiresIn: "90" });
    for (const lng of ["en", "zh"]) {
      await user.post("/language", { lng, redirectTo: "/profile" });
      const context = await browser.newContext({ baseURL: stack.baseUrl, javaScriptEnabled: js, viewport: { width: 390, height: 844 } });
      await signIn(context, user, stack.baseUrl);
      const page = await context.newPage();
      await page.goto("/profile");
      const cells = await page.locator('[data-testid="api-token-table"] tbody tr td[data-label]').evaluateAll((tds) =>
        tds.map((td) => {
          const value = td.lastElementChild ?? td.lastChild!;
          const range = document.createRange();
          range.selectNodeContents(value);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
          return { label: getComputedStyle(td, "::before").content, lines };
        }),
      );
      // Name, prefix, created, last used, expires: each under its column's name, none wrapped (five
      // columns side by side wrapped each date onto three or four lines).
      expect(cells.map((c) => c.lines)).toEqual([1, 1, 1, 1, 1]);
      expect(cells[2].label).toBe(lng === "en" ? '"Created"' : '"创建时间"');
      expect((await measure(page)).pageWidth).toBeLessThanOrEqual(390);
      await context.close();
    }
  }, 60_000);
});
