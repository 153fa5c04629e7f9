// The submission journey in Chromium: with JavaScript (each box uploads on its own, toasts)
// and without it (one multipart form scores, server-rendered errors with line:column).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startStack, type Stack } from "../support/stack.ts";
import { adminClient, userClient } from "../support/accounts.ts";
import { gotoHydrated, launchBrowser, newContext, signIn } from "./browser.ts";
import { SEED_SUITE, lerfCsv, morfCsv, resultCsv } from "../integration/metarankFixtures.ts";

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** A browser context signed in as a fresh user (registered over HTTP, cookie handed over). */
async function signedIn(username: string, javaScriptEnabled: boolean): Promise<BrowserContext> {
  const client = await userClient(stack.baseUrl, username);
  const context = await newContext(browser, stack.baseUrl, javaScriptEnabled);
  await signIn(context, client, stack.baseUrl);
  return context;
}

const csv = (name: string, text: string) => ({ name, mimeType: "text/csv", buffer: Buffer.from(text) });

async function toast(page: Page, text: string) {
  await page.locator(".p-toast-message", { hasText: text }).first().waitFor({ timeout: 15_000 });
}

describe("submission page", () => {
  it("with JavaScript: boxes upload on their own with toasts, scores, then submits", async () => {
    const context = await signedIn("js_user", true);
    const page = await context.newPage();
    await gotoHydrated(page, `/submission?suite=${SEED_SUITE.id}`);
    // The upload boxes exist only once React has hydrated.
    await page.getByTestId("upload-morf").waitFor();

    await page.getByRole("button", { name: "Get your current scores and meta-rank" }).click();
    await toast(page, "Please input the name of your attribution algorithm!");
    await toast(page, "Please upload your morf result!");

    const broken = resultCsv(0.2).split("\n");
    broken[3] = broken[3].replace(/^([^,]+),([^,]+),([^,]+)/, "$1,$2,abc");
    await page.getByTestId("upload-morf").setInputFiles(csv("morf.csv", broken.join("\n")));
    await page.getByText('morf.csv:4:3 "abc" is not a number').first().waitFor();
    await toast(page, "File upload failed.");

    await page.getByTestId("upload-morf").setInputFiles({ name: "morf.txt", mimeType: "text/plain", buffer: Buffer.from("x") });
    await toast(page, "Please upload a CSV file.");

    await page.getByTestId("upload-morf").setInputFiles(csv("morf.csv", morfCsv(0.8)));
    await toast(page, "Morf file uploaded successfully.");
    // The earlier "Please upload your morf result!" under the box goes once the file is there.
    await page.getByTestId("morf-state").waitFor();
    expect(await page.locator("#morf-error").count()).toBe(0);
    expect(await page.locator("#lerf-error").innerText()).toContain("Please upload your lerf result!");
    await page.getByTestId("upload-lerf").setInputFiles(csv("lerf.csv", lerfCsv(0.8)));
    await toast(page, "Lerf file uploaded successfully.");
    await page.getByTestId("lerf-state").waitFor();

    await page.getByLabel("Name of your attribution algorithm").fill("JS-CAM");
    await page.getByRole("button", { name: "Get your current scores and meta-rank" }).click();
    const current = page.getByTestId("board-current");
    await current.waitFor();
    await expect(current.locator(".rank-row-candidate").innerText()).resolves.toMatch(/1\s+js_user\s+Test University\s+JS-CAM\s+0\.0000/);
    await expect(page.getByTestId("board-original").innerText()).resolves.toContain("No approved methods");

    // A file refused before sending stays named under its box, after the toast has gone.
    await page.getByTestId("upload-python").setInputFiles({ name: "js_cam.txt", mimeType: "text/plain", buffer: Buffer.from("x") });
    await toast(page, "Please upload a python file.");
    await page.locator("#python-refused", { hasText: "Please upload a python file." }).waitFor();
    await page
      .getByTestId("upload-python")
      .setInputFiles({ name: "js_cam.py", mimeType: "text/x-python", buffer: Buffer.from("def explain(x):\n    return x\n") });
    await toast(page, "File uploaded successfully.");
    expect(await page.locator("#python-refused").count()).toBe(0);
    await page.getByRole("button", { name: "Submit your algorithm" }).click();
    await toast(page, "Please provide your email address!");
    await page.getByLabel("Email").fill("js@example.org");
    await page.getByLabel("Detailed information").fill("A CAM variant for the e2e test.");
    await page.getByRole("button", { name: "Submit your algorithm" }).click();
    await toast(page, "Upload algorithm successfully!");
    await toast(page, "Your algorithm file will be submitted with your results.");

    await page.goto("/history");
    const row = page.locator("tr", { hasText: "JS-CAM" });
    await expect(row.locator(".status-inprocess").innerText()).resolves.toBe("In Process");
    await context.close();
  });

  it("an admin approves it through the Cancel/Confirm dialog and it joins the leaderboard", async () => {
    const admin = await adminClient(stack.baseUrl);
    const context = await newContext(browser, stack.baseUrl, true);
    await signIn(context, admin, stack.baseUrl);
    const page = await context.newPage();
    await gotoHydrated(page, "/approval");
    const row = page.locator("tr", { hasText: "JS-CAM" });
    await row.getByText("Details").click();
    await row.getByRole("link", { name: "js_cam.py" }).waitFor();
    await row.getByRole("link", { name: "Approve" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("irreversible").waitFor();
    await dialog.getByRole("link", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    await row.getByRole("link", { name: "Approve" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click();
    await toast(page, "You have approved this submission!");
    await expect(page.locator("tr", { hasText: "JS-CAM" }).locator(".status-approved").first().innerText()).resolves.toBe("Approved");
    await page.goto(`/leaderboard?suite=${SEED_SUITE.id}`);
    await expect(page.getByTestId("board-overall").innerText()).resolves.toMatch(/1\s+js_user\s+Test University\s+JS-CAM/);
    await context.close();
  });

  it("without JavaScript: one form scores; errors show their line and column", async () => {
    const context = await signedIn("nojs_user", false);
    const page = await context.newPage();
    await page.goto(`/submission?suite=${SEED_SUITE.id}`);
    await page.getByLabel("Name of your attribution algorithm").fill("NoJS-Grad");
    const broken = resultCsv(0.3).split("\n");
    broken[5] = broken[5].replace(/,[^,]+$/, ",1.7");
    await page.locator('input[name="morf"]').setInputFiles(csv("my_morf.csv", broken.join("\n")));
    await page.locator('input[name="lerf"]').setInputFiles(csv("my_lerf.csv", lerfCsv(0.4)));
    await page.getByRole("button", { name: "Get your current scores and meta-rank" }).click();
    await page.getByText("my_morf.csv:6:12 accuracy 1.7 is outside [0, 1]").waitFor();
    await page.getByText("my_lerf.csv uploaded").waitFor();

    // Only the MoRF file needs sending again: the valid LeRF file was kept.
    await page.locator('input[name="morf"]').setInputFiles(csv("my_morf.csv", morfCsv(0.4)));
    await page.getByRole("button", { name: "Get your current scores and meta-rank" }).click();
    await page.getByTestId("board-current").waitFor();
    await expect(page.getByTestId("board-current").innerText()).resolves.toMatch(/nojs_user\s+Test University\s+NoJS-Grad/);
    await expect(page.getByTestId("candidate-score").innerText()).resolves.toMatch(/NoJS-Grad: metascore -?\d\.\d{4}, rank \d of \d/);

    await page.getByLabel("Email").fill("nojs@example.org");
    await page.getByLabel("Detailed information").fill("Plain gradients.");
    await page.getByRole("button", { name: "Submit your algorithm" }).click();
    await page.getByText("Upload algorithm successfully!").waitFor();
    await page.getByText("You choose not to submit your algorithm file.").waitFor();
    await context.close();
  });
});
