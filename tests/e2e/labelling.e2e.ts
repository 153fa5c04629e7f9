// Labelling (/labelPage) in a real Chromium against the real stack: with JavaScript the digit
// shortcuts label the current picture and the arrow keys / n, p move between pictures (the
// shortcuts are listed on the page); without JavaScript the page form and the class buttons do
// the same through plain form posts.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { location, type Client } from "../support/client.ts";
import { userClient } from "../support/accounts.ts";
import { gotoHydrated, launchBrowser, newContext, signIn } from "./browser.ts";

let stack: Stack;
let browser: Browser;
let uploadDir: string;

const png = fs.readFileSync(path.join(ROOT, "tests/fixtures/images/red.png"));

beforeAll(async () => {
  uploadDir = path.join(ROOT, `var/test/uploads_e2e_lbl_${process.pid}_${Date.now()}`);
  [stack, browser] = await Promise.all([
    startStack({ sidecar: false, env: { UPLOAD_DIR: uploadDir, SEED_FASHION_MNIST_PICTURES: "0", SEED_SCENES_PICTURES: "0" } }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  if (uploadDir) fs.rmSync(uploadDir, { recursive: true, force: true });
});

/** A fresh user with a dataset of `count` pictures and the classes cat, dog, bird (set up over HTTP), and a browser signed in as them. */
async function prepared(username: string, js: boolean, count = 3): Promise<{ context: BrowserContext; client: Client; datasetId: number }> {
  const client = await userClient(stack.baseUrl, username);
  const created = await client.post("/datasetInDetail", { intent: "create", name: "pets", visibility: "private" });
  const datasetId = Number(new URL(location(created)!, "http://x").searchParams.get("dataset"));
  const fd = new FormData();
  fd.append("intent", "upload");
  fd.append("datasetId", String(datasetId));
  for (let i = 0; i < count; i++) fd.append("pictures", new Blob([png], { type: "image/png" }), `pet${i + 1}.png`);
  expect((await client.post(`/datasetInDetail?dataset=${datasetId}`, fd)).status).toBe(302);
  expect((await client.post(`/labelPage?dataset=${datasetId}`, { intent: "classes", datasetId: String(datasetId), classes: "cat\ndog\nbird" })).status).toBe(
    302,
  );
  const context = await newContext(browser, stack.baseUrl, js);
  await signIn(context, client, stack.baseUrl);
  return { context, client, datasetId };
}

const progressText = (page: Page) => page.getByTestId("progress").innerText();
const currentId = (page: Page) => page.getByTestId("current").getAttribute("data-picture-id");
const tileIds = async (page: Page) =>
  page
    .getByTestId("picture-grid")
    .locator(".ds-tile")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-picture-id")));

describe("labelling with JavaScript", () => {
  it("digit shortcuts label the current picture and the arrow keys and n/p move between pictures", async () => {
    const { context, datasetId } = await prepared("lbl-js", true);
    const page = await context.newPage();
    await gotoHydrated(page, `/labelPage?dataset=${datasetId}`);
    const ids = await tileIds(page);
    expect(ids).toHaveLength(3);
    // The shortcuts are listed once they work.
    await page.getByTestId("shortcuts").waitFor();
    expect(await page.getByTestId("shortcuts").innerText()).toContain("1–9: label the current picture with that class");
    expect(await progressText(page)).toBe("0 of 3 pictures labelled");
    expect(await currentId(page)).toBe(ids[0]);

    // "2" labels the first picture "dog" and moves on to the second.
    await page.keyboard.press("2");
    await page.waitForURL(/msg=labelled/);
    await page.getByText("1 of 3 pictures labelled").waitFor();
    expect(await currentId(page)).toBe(ids[1]);
    expect(await page.locator(`select[name="label-${ids[0]}"]`).inputValue()).toBe("dog");

    // Moving needs no request: → to the third, p back to the second, n to the third again.
    await page.keyboard.press("ArrowRight");
    expect(await currentId(page)).toBe(ids[2]);
    await page.keyboard.press("p");
    expect(await currentId(page)).toBe(ids[1]);
    await page.keyboard.press("n");
    expect(await currentId(page)).toBe(ids[2]);
    await page.keyboard.press("3");
    await page.getByText("2 of 3 pictures labelled").waitFor();
    expect(await page.locator(`select[name="label-${ids[2]}"]`).inputValue()).toBe("bird");
    expect(await page.locator(`select[name="label-${ids[1]}"]`).inputValue()).toBe("");
    await page.keyboard.press("ArrowLeft");
    expect(await currentId(page)).toBe(ids[1]);

    // Typing in the class list is typing, not a shortcut.
    await page.locator("#classes").click();
    await page.keyboard.press("1");
    expect(await progressText(page)).toBe("2 of 3 pictures labelled");
    expect(await page.locator("#classes").inputValue()).toContain("1");
    await context.close();
  });
});

describe("labelling without JavaScript", () => {
  it("labels with the page form and with the class buttons, one picture at a time", async () => {
    const { context, datasetId } = await prepared("lbl-nojs", false);
    const page = await context.newPage();
    await page.goto(`/labelPage?dataset=${datasetId}`);
    const ids = await tileIds(page);
    expect(await page.getByTestId("shortcuts").count()).toBe(0);
    await page.locator(`select[name="label-${ids[1]}"]`).selectOption("cat");
    await page.getByRole("button", { name: "Save labels" }).click();
    await page.waitForURL(/msg=saved/);
    await page.getByText("1 label changed.").waitFor();
    expect(await progressText(page)).toBe("1 of 3 pictures labelled");
    expect(await page.locator(`select[name="label-${ids[1]}"]`).inputValue()).toBe("cat");

    // The first unlabelled picture is current; its class button labels it and shows the next one.
    expect(await currentId(page)).toBe(ids[0]);
    await page.getByTestId("current").getByRole("button", { name: "bird" }).click();
    await page.waitForURL(/msg=labelled/);
    expect(await progressText(page)).toBe("2 of 3 pictures labelled");
    expect(await currentId(page)).toBe(ids[1]);
    await page.getByRole("link", { name: "Next picture ›" }).click();
    expect(await currentId(page)).toBe(ids[2]);
    await page.getByTestId("current").getByRole("button", { name: "dog" }).click();
    await page.waitForURL(/msg=labelled/);
    expect(await progressText(page)).toBe("3 of 3 pictures labelled");
    await context.close();
  });
});

describe("creating a dataset", () => {
  it("refuses a name longer than the limit with the rule, instead of the browser cutting it short", async () => {
    const client = await userClient(stack.baseUrl, "long-name");
    const context = await newContext(browser, stack.baseUrl, false);
    await signIn(context, client, stack.baseUrl);
    const page = await context.newPage();
    await page.goto("/datasetInDetail");
    await page.locator("#ds-name").fill("a very long dataset name ".repeat(15).trim());
    await page.getByRole("button", { name: "Create" }).click();
    await page.locator("#ds-name-error").waitFor();
    expect(await page.locator("#ds-name-error").innerText()).toBe("The dataset name can be at most 100 characters.");
    await context.close();
  });
});
