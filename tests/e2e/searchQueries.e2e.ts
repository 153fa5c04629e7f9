// The search-queries table in Chromium (/admin/search_queries): with JavaScript it is a PrimeReact
// DataTable whose column headers sort (through the server, so the order covers every keyword, not
// just the page shown); without JavaScript the header links do the same.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startStack, type Stack } from "../support/stack.ts";
import { Client } from "../support/client.ts";
import { adminClient } from "../support/accounts.ts";
import { gotoHydrated, launchBrowser, newContext } from "./browser.ts";

let stack: Stack;
let browser: Browser;
let session: string;
const UA = { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36" };

beforeAll(async () => {
  [stack, browser] = await Promise.all([
    startStack({ env: { SEED_FASHION_MNIST_PICTURES: "2", SEED_SCENES_PICTURES: "2", SEED_INSPECTION_PICTURES: "2" } }),
    launchBrowser(),
  ]);
  session = (await adminClient(stack.baseUrl)).cookies.get("mr_session")!;
  // "alpha" searched 3 times and opened once, "beta" searched once and opened once, "gamma" searched twice.
  const c = new Client(stack.baseUrl);
  const search = (q: string) => c.request(`/datasetPreview?tab=users&type=name&q=${q}`, { headers: UA });
  for (const q of ["alpha", "alpha", "alpha", "beta", "gamma", "gamma"]) await search(q);
  const admin = await adminClient(stack.baseUrl);
  for (const [q, rank] of [
    ["alpha", 2],
    ["beta", 1],
  ] as const)
    await admin.request(`/datasetInDetail?dataset=1&from=search&q=${q}&rank=${rank}`, { headers: UA });
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const order = async (page: import("playwright-core").Page) =>
  (await page.locator('[data-testid="search-queries"] tbody tr').allInnerTexts()).map((r) => r.trim().split(/\s+/)[0]);

describe.each([true, false])("the search-queries table with JavaScript %s", (js) => {
  it("sorts by impressions by default and by CTR when its header is clicked", async () => {
    const context = await newContext(browser, stack.baseUrl, js);
    await context.addCookies([{ name: "mr_session", value: session, url: stack.baseUrl }]);
    const page = await context.newPage();
    if (js) await gotoHydrated(page, "/admin/search_queries");
    else await page.goto("/admin/search_queries");
    expect(await order(page)).toEqual(["alpha", "gamma", "beta"]);
    // CTR: beta 100 %, alpha 33 %, gamma 0 %.
    if (js) await page.locator('[data-testid="search-queries"] th', { hasText: "CTR" }).click();
    else await page.getByTestId("sort-ctr").click();
    await page.waitForURL(/sort=ctr/);
    await expect.poll(() => order(page)).toEqual(["beta", "alpha", "gamma"]);
    await context.close();
  });
});
