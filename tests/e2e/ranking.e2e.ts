// The contributor ranking's edit mode in Chromium: with JavaScript a tick is saved at once (a
// fetcher) and the count follows; hide and restore are plain forms.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startStack, type Stack } from "../support/stack.ts";
import { adminClient } from "../support/accounts.ts";
import { gotoHydrated, launchBrowser, newContext, wholePage } from "./browser.ts";

let stack: Stack;
let browser: Browser;
let sessionCookie = "";

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack({ sidecar: false }), launchBrowser()]);
  sessionCookie = (await adminClient(stack.baseUrl)).cookies.get("mr_session")!;
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe("contributor ranking edit mode in Chromium", () => {
  it("ticks save at once; selected entries are hidden, tagged, restored; the selection clears", async () => {
    const ctx = await newContext(browser, stack.baseUrl, true);
    await ctx.addCookies([{ name: "mr_session", value: sessionCookie, url: stack.baseUrl }]);
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    await gotoHydrated(page, "/admin/ranking");
    await page.getByTestId("ranking-edit-mode").click();
    await page.waitForURL(/edit=1/);
    const count = page.getByTestId("selected-count");
    await count.getByText("0 entries selected").waitFor();
    const boxes = page.locator('input[type="checkbox"][name="ids"]');
    expect(await boxes.count()).toBe(8);
    await boxes.nth(0).check();
    await count.getByText("1 entry selected").waitFor();
    await boxes.nth(1).check();
    await count.getByText("2 entries selected").waitFor();
    await boxes.nth(1).uncheck();
    await count.getByText("1 entry selected").waitFor();

    await page.getByTestId("ranking-hide").click();
    await page.getByText("1 entry hidden from the public board.").waitFor();
    await wholePage(page);
    expect(await page.locator('.p-tag[data-testid^="hidden-"]').count()).toBe(1);
    await page.getByTestId("ranking-restore").click();
    await page.getByText("1 entry restored to the public board.").waitFor();
    await wholePage(page);
    expect(await page.locator('.p-tag[data-testid^="hidden-"]').count()).toBe(0);
    await page.getByTestId("ranking-clear").click();
    await page.getByText("The selection is cleared.").waitFor();
    await count.getByText("0 entries selected").waitFor();
    expect(await boxes.nth(0).isChecked()).toBe(false);
    // The audit trail lists what happened, newest first.
    const actions = await page.locator('[data-testid="ranking-audit"] tr[data-action]').evaluateAll((rows) => rows.map((r) => r.getAttribute("data-action")));
    expect(actions).toEqual(["clear", "restore", "hide", "unselect", "select", "select"]);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
