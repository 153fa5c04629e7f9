// The bird and car tree pages in a real Chromium against the real stack (docs/tree-service.md),
// with JavaScript on and off: pick an image → start → the result, the tree and the local
// explanation → change a node prototype through the form path (node → candidate → confirm changes)
// → adjust the whole tree (progress; old → new accuracy) → save under a name → the saved model is
// in the select. With JavaScript the react-flow tree is drawn and a click on a node opens its
// candidates. /cars: its six steps with their download links.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startStack, type Stack } from "../support/stack.ts";
import { userClient } from "../support/accounts.ts";
import { gotoHydrated, launchBrowser, newContext, signIn } from "./browser.ts";

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack({ env: { TREE_DIR: `var/test/trees_e2e_${process.pid}_${Date.now()}` } }), launchBrowser()]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function signedIn(username: string, javaScriptEnabled: boolean): Promise<BrowserContext> {
  const client = await userClient(stack.baseUrl, username);
  const ctx = await newContext(browser, stack.baseUrl, javaScriptEnabled);
  await signIn(ctx, client, stack.baseUrl);
  return ctx;
}

const open = (page: Page, url: string, js: boolean) => (js ? gotoHydrated(page, url) : page.goto(url).then(() => undefined));

async function imageLoaded(page: Page, testId: string) {
  const img = page.getByTestId(testId);
  await img.waitFor();
  await img.scrollIntoViewIfNeeded();
  await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await img.elementHandle(), {
    timeout: 60_000,
  });
}

/** Waits for a tree job to finish: with JavaScript the page polls by itself; without, the Refresh link. */
async function jobDone(page: Page, js: boolean) {
  const job = page.getByTestId("tree-job");
  await job.waitFor();
  for (let i = 0; i < 200; i++) {
    const state = await job.getAttribute("data-state");
    if (state === "completed" || state === "failed") break;
    if (js) await page.waitForTimeout(1000);
    else {
      // A person without JavaScript presses Refresh now and then, not every second.
      await page.waitForTimeout(3000);
      // Refresh must load the page again (a link to the same address with only its #job
      // fragment would merely scroll, and the job would look stuck).
      await Promise.all([page.waitForEvent("load", { timeout: 60_000 }), page.getByTestId("job-refresh").click()]);
    }
  }
  expect(await job.getAttribute("data-state")).toBe("completed");
}

describe.each([true, false])("bird tree page with JavaScript %s", (js) => {
  it("pick → start → explanation → change a prototype → adjust → save → the saved model in the select", async () => {
    const user = js ? "tree-js" : "tree-nojs";
    const name = js ? "edited-js" : "edited-nojs";
    const context = await signedIn(user, js);
    const page = await context.newPage();
    await open(page, "/cub", js);
    expect(await page.getByTestId("trained-on").innerText()).toMatch(/CUB-200-2011 is not installed on this server|trained on/);
    // Nothing chosen: the model message first, then the image message.
    await page.getByRole("button", { name: "Start inference" }).click();
    await page.getByText("Please choose the model to use").waitFor();
    await page.locator("#model").selectOption({ index: 1 });
    await page.getByRole("button", { name: "Start inference" }).click();
    await page.getByText("Please choose the image to explain").waitFor();
    expect(await page.locator("#algorithm option[value=none]").isDisabled()).toBe(true);
    // Pick: the picked thumbnail has the red border; then start.
    await page.getByTestId("tree-pool").locator("li a").first().click();
    await page.waitForURL(/sample=/);
    await page.locator(".tree-pool .ds-tile.picked").waitFor();
    await page.locator("#model").selectOption({ index: 1 });
    await page.getByRole("button", { name: "Start inference" }).click();
    await page.waitForURL(/run=1/, { timeout: 120_000 });
    await page.getByTestId("predicted").waitFor();
    expect(await page.getByTestId("probability").innerText()).toMatch(/^\d+\.\d%$/);
    expect(await page.getByTestId("tree-path").locator("li").count()).toBeGreaterThan(0);
    await imageLoaded(page, "tree-image");
    // Change node prototypes: the edit view; with JavaScript the react-flow tree and a click on a node.
    await page.getByTestId("change-prototypes").click();
    await page.getByTestId("tree-edit").waitFor();
    if (js) {
      await page.locator(".react-flow__node").first().waitFor({ timeout: 30_000 });
      await page.getByRole("link", { name: "Show the full tree" }).click();
      await page.waitForURL(/view=full/);
      await page.locator(".react-flow__node").first().waitFor();
      await page.locator(".react-flow__node").first().click();
      await page.waitForURL(/node=/);
    } else {
      await page.getByTestId("node-list").locator("li a").first().click();
      await page.waitForURL(/node=/);
    }
    await page.getByTestId("candidates").waitFor();
    const candidates = page.getByTestId("candidates").locator("input[type=radio]");
    expect(await candidates.count()).toBeGreaterThan(0);
    await candidates.nth(Math.min(1, (await candidates.count()) - 1)).check();
    await page.getByRole("button", { name: "Confirm changes" }).click();
    await page.getByTestId("pending-edits").waitFor();
    // Adjust the whole tree: progress, then old → new accuracy.
    await page.getByRole("button", { name: "Adjust whole tree" }).click();
    await page.waitForURL(/job=/);
    await jobDone(page, js);
    expect(await page.getByTestId("job-done").innerText()).toMatch(/Test accuracy: \d+\.\d% → \d+\.\d%/);
    // Save as a named model.
    await page.getByTestId("open-save").click();
    await page.getByTestId("save-dialog").waitFor();
    await page.getByPlaceholder("Please enter a model name").fill(name);
    await page.getByRole("button", { name: "Confirm", exact: true }).click();
    await page.waitForURL(/job=/);
    await jobDone(page, js);
    expect(await page.getByTestId("job-done").innerText()).toContain(`Saved as ${name}`);
    // With JavaScript the page reloads its data once the poll sees the job finished.
    await page.locator(`#model option[value="user:${user}:${name}"]`).waitFor({ state: "attached", timeout: 30_000 });
    expect(await page.locator(`#model option[value="user:${user}:${name}"]`).innerText()).toMatch(new RegExp(`^${name} \\(yours, trained on `));
    await context.close();
  }, 600_000);
});

describe("car tree page", () => {
  it("six steps with downloads", async () => {
    const context = await signedIn("cars-nojs", false);
    const page = await context.newPage();
    await page.goto("/cars");
    await page.getByTestId("tree-pool").locator("li a").first().click();
    await page.waitForURL(/sample=/);
    await page.locator("#model").selectOption({ index: 1 });
    await page.getByRole("button", { name: "Start inference" }).click();
    await page.waitForURL(/run=1/, { timeout: 120_000 });
    for (const h of [
      "Step 1: choose a car from the pool",
      "Step 3: the result",
      "Step 4: the tree before pruning",
      "Step 5: the tree after pruning",
      "Step 6: the local explanation",
    ])
      await page.getByRole("heading", { name: h }).waitFor();
    await imageLoaded(page, "tree-full-image");
    await imageLoaded(page, "tree-image");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("full-pdf").click()]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    await context.close();
  }, 300_000);
});
