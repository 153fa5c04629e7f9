// Approval's layout in Chromium: opening a row's Details (long file names, e-mail and remarks)
// keeps its Reject and Approve buttons in the viewport and uncovered, and the toast after a
// decision covers neither the table nor the user menu.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Locator, Page } from "playwright-core";
import { startStack, type Stack } from "../support/stack.ts";
import { adminClient, userClient } from "../support/accounts.ts";
import { Client } from "../support/client.ts";
import { gotoHydrated, launchBrowser, newContext, signIn } from "./browser.ts";
import { SEED_SUITE, csvBlob, lerfCsv, morfCsv } from "../integration/metarankFixtures.ts";

let stack: Stack;
let browser: Browser;
/** Layout-Three's author, who reads the rejection's reason. */
let submitter: Client;
const SUITE = SEED_SUITE.id;

async function submit(c: Client, algorithm: string, quality: number) {
  const score = new FormData();
  score.set("intent", "score");
  score.set("suite", SUITE);
  score.set("algorithm", algorithm);
  score.set("morf", csvBlob(morfCsv(quality)), `${"a_very_long_result_file_name_".repeat(4)}morf.csv`);
  score.set("lerf", csvBlob(lerfCsv(quality)), `${"a_very_long_result_file_name_".repeat(4)}lerf.csv`);
  expect((await c.post(`/submission?suite=${SUITE}`, score)).status).toBe(302);
  const form = new FormData();
  form.set("intent", "submit");
  form.set("suite", SUITE);
  form.set("algorithm", algorithm);
  form.set("email", `${"someone.with.a.long.address".repeat(2)}@example.org`);
  form.set("info", "A remark that goes on. ".repeat(60));
  expect((await c.post(`/submission?suite=${SUITE}`, form)).status).toBe(302);
}

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  await submit(await userClient(stack.baseUrl, "layout_a"), "Layout-One", 0.6);
  await submit(await userClient(stack.baseUrl, "layout_b"), "Layout-Two", 0.5);
  submitter = await userClient(stack.baseUrl, "layout_c");
  await submit(submitter, "Layout-Three", 0.4);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** In the viewport and the element a click at its centre would reach (nothing drawn over it). */
async function expectReachable(page: Page, button: Locator, name: string) {
  const box = (await button.boundingBox())!;
  const view = page.viewportSize()!;
  expect(box, name).not.toBeNull();
  expect(box.x, `${name} left edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${name} right edge`).toBeLessThanOrEqual(view.width);
  expect(box.y, `${name} top edge`).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, `${name} bottom edge`).toBeLessThanOrEqual(view.height);
  const onTop = await button.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return hit !== null && (hit === el || el.contains(hit));
  });
  expect(onTop, `${name} is covered`).toBe(true);
}

describe("approval layout", () => {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 1024, height: 700 },
  ])
    it(`Details keep Approve and Reject in view, and the toast covers neither the table nor the user menu (${viewport.width}×${viewport.height})`, async () => {
      const admin = await adminClient(stack.baseUrl);
      const ctx = await newContext(browser, stack.baseUrl, true);
      await signIn(ctx, admin, stack.baseUrl);
      const page = await ctx.newPage();
      await page.setViewportSize(viewport);
      await gotoHydrated(page, "/approval");
      const row = page.locator("tr", { hasText: viewport.width === 1280 ? "Layout-One" : "Layout-Two" });
      const before = (await row.getByRole("link", { name: "Reject" }).boundingBox())!;
      await row.getByText("Details").click();
      await row.getByText("A remark that goes on.").first().waitFor();
      // Opening the details moves neither button (they open as a panel, not a wider column).
      const after = (await row.getByRole("link", { name: "Reject" }).boundingBox())!;
      expect(Math.abs(after.x - before.x), "Reject moved sideways when Details opened").toBeLessThan(1);
      // The row's decision cell brought into view vertically; at 1024 px the ten-column table
      // scrolls sideways inside its card, as wide tables do, so it is scrolled to the buttons.
      await row.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - 120));
      if (viewport.width < 1280) await row.getByRole("link", { name: "Reject" }).scrollIntoViewIfNeeded();
      await expectReachable(page, row.getByRole("link", { name: "Approve" }), "Approve");
      await expectReachable(page, row.getByRole("link", { name: "Reject" }), "Reject");

      await row.getByRole("link", { name: "Approve" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click();
      const toast = page.locator(".p-toast-message").first();
      await toast.waitFor({ timeout: 15_000 });
      await page.evaluate(() => window.scrollTo(0, 0));
      const toastBox = (await toast.boundingBox())!;
      const tableBox = (await page.getByTestId("approval-table").boundingBox())!;
      const menuBox = (await page.locator(".user-menu").boundingBox())!;
      expect(intersects(toastBox, tableBox), `toast ${JSON.stringify(toastBox)} over table ${JSON.stringify(tableBox)}`).toBe(false);
      expect(intersects(toastBox, menuBox), `toast ${JSON.stringify(toastBox)} over user menu ${JSON.stringify(menuBox)}`).toBe(false);
      await ctx.close();
    });

  it("the last row's Details open in full: nothing of them is cut off by the table's scroll box", async () => {
    const admin = await adminClient(stack.baseUrl);
    const ctx = await newContext(browser, stack.baseUrl, true);
    await signIn(ctx, admin, stack.baseUrl);
    const page = await ctx.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await gotoHydrated(page, "/approval");
    const last = page.getByTestId("approval-table").locator("tbody tr").last();
    await last.getByText("Details").click();
    const panel = last.locator("details[open] dl");
    await panel.waitFor();
    const measured = await panel.evaluate((dl) => {
      let box = dl.parentElement;
      while (box && !/(auto|scroll)/.test(getComputedStyle(box).overflowY)) box = box.parentElement;
      const p = dl.getBoundingClientRect();
      const b = box!.getBoundingClientRect();
      return { panel: p.height, visible: Math.min(p.bottom, b.bottom) - Math.max(p.top, b.top), scrollsInside: box!.scrollHeight > box!.clientHeight + 1 };
    });
    // The whole panel shows, and the admin does not scroll inside the table to read it.
    expect(measured.visible, JSON.stringify(measured)).toBeGreaterThanOrEqual(measured.panel - 1);
    expect(measured.scrollsInside, JSON.stringify(measured)).toBe(false);
    await ctx.close();
  });

  it("a rejection's reason, typed in the dialog, reaches the submitter's history", async () => {
    const admin = await adminClient(stack.baseUrl);
    const ctx = await newContext(browser, stack.baseUrl, true);
    await signIn(ctx, admin, stack.baseUrl);
    const page = await ctx.newPage();
    await gotoHydrated(page, "/approval");
    const row = page.locator("tr", { hasText: "Layout-Three" });
    await row.getByRole("link", { name: "Reject" }).click();
    const dialog = page.getByRole("dialog");
    const reason = "The LeRF curve is the MoRF curve reversed.\nPlease evaluate both orders.";
    await dialog.getByLabel(/Reason for the submitter/).fill(reason);
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await page.locator(".p-toast-message", { hasText: "You have rejected this submission!" }).waitFor({ timeout: 15_000 });
    await ctx.close();

    const own = await newContext(browser, stack.baseUrl, false);
    await signIn(own, submitter, stack.baseUrl);
    const history = await own.newPage();
    await history.goto("/history");
    const note = history.locator("tr", { hasText: "Layout-Three" }).getByTestId("decision-note");
    await note.waitFor({ state: "visible" });
    // As typed, with its line break.
    expect(await note.innerText()).toBe(`Reason: ${reason}`);
    await own.close();
  });
});
