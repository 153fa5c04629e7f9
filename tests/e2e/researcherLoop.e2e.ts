// The researcher's loop in Chromium (docs/evaluation.md "Evaluating your own method"): read the
// tutorial, download the default suite's kit through the browser, unpack it with the tutorial's own
// command and run the tutorial's Python script as the page prints it (Debian's python3-numpy),
// upload the maps.zip it writes in /submission's "Verified evaluation" section, watch the queued
// evaluation on the real sidecar, get the scores, submit; an admin approves and the leaderboard
// shows the rows as verified. With JavaScript the page polls (progress, then completion without a
// reload); without it the upload is a plain multipart form and the page offers a Refresh button
// while the run is active. A bad upload (a zip missing a task) shows its message next to the file
// field; the Chinese interface is checked once for the section's heading. Two checks are soft (the
// loop goes on past them, the test still fails): each Refresh click reloads the page, and an
// admin's opened Details show their values.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { adminClient, userClient } from "../support/accounts.ts";
import { runOk } from "../support/command.ts";
import { gotoHydrated, launchBrowser, newContext, signIn } from "./browser.ts";

const SUITE = "metarank-local-v1";
const SUITE_JSON = JSON.parse(fs.readFileSync(path.join(ROOT, "seeds/suites", SUITE, "suite.json"), "utf8")) as {
  name: string;
  tasks: string[];
  evaluation: { images: number };
};
const TASKS = SUITE_JSON.tasks;
const IMAGES = TASKS.length * SUITE_JSON.evaluation.images;
const TAG = `${process.pid}_${crypto.randomBytes(3).toString("hex")}`;
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), "researcher-loop-"));
const UPLOAD_DIR = path.join(ROOT, "var/test", `uploads_${TAG}`);
const EVALUATION_DIR = path.join(ROOT, "var/test", `evaluations_${TAG}`);

const JS_METHOD = "Sobel edges (browser, JS)";
const NOJS_METHOD = "Sobel edges (browser, no JS)";
const MAPS = path.join(TMP, "maps.zip");
const MISSING = path.join(TMP, "maps-missing-task.zip");

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack({ env: { EVALUATION_WORKERS: "2", UPLOAD_DIR, EVALUATION_DIR } }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  for (const dir of [TMP, UPLOAD_DIR, EVALUATION_DIR]) fs.rmSync(dir, { recursive: true, force: true });
});

/** A browser context signed in as a fresh user (registered over HTTP, cookie handed over). */
async function signedIn(username: string, javaScriptEnabled: boolean): Promise<BrowserContext> {
  const client = await userClient(stack.baseUrl, username);
  const context = await newContext(browser, stack.baseUrl, javaScriptEnabled);
  await signIn(context, client, stack.baseUrl);
  return context;
}

async function adminContext(javaScriptEnabled: boolean): Promise<BrowserContext> {
  const admin = await adminClient(stack.baseUrl);
  const context = await newContext(browser, stack.baseUrl, javaScriptEnabled);
  await signIn(context, admin, stack.baseUrl);
  return context;
}

async function toast(page: Page, text: string) {
  await page.locator(".p-toast-message", { hasText: text }).first().waitFor({ timeout: 15_000 });
}

const zipNames = async (zip: string): Promise<string[]> =>
  JSON.parse(await runOk("python3", ["-c", "import sys, json, zipfile; print(json.dumps(sorted(zipfile.ZipFile(sys.argv[1]).namelist())))", zip]));

const runState = (page: Page) => page.getByTestId("maps-run").getAttribute("data-state");

/** Scores the verified draft and submits it (the same buttons with JavaScript on and off). */
async function scoreAndSubmit(page: Page, method: string, email: string) {
  // The verified run's own score button (the self-reported form below has one with the same words).
  await page.getByTestId("maps-score").click();
  await page.getByTestId("board-current").waitFor();
  await expect(page.getByTestId("candidate-score").innerText()).resolves.toMatch(new RegExp(`${escape(method)}: metascore -?\\d\\.\\d{4}, rank \\d+ of \\d+`));
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Detailed information").fill("Gradient magnitude of the kit's images, computed with the tutorial's numpy script.");
  await page.getByRole("button", { name: "Submit your algorithm" }).click();
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("the researcher's loop: tutorial → kit → numpy maps → verified row", () => {
  it("the tutorial's kit downloads in the browser, unpacks with its command, and its script writes maps.zip", async () => {
    const context = await newContext(browser, stack.baseUrl, true);
    const page = await context.newPage();
    await gotoHydrated(page, `/Algorithm?suite=${SUITE}`);
    // The unpack command the tutorial prints names the file the download gets.
    const unpack = (await page.locator("pre.script", { hasText: "unzip " }).first().innerText()).trim();
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 240_000 }), page.getByTestId("kit-link").click()]);
    const kitName = download.suggestedFilename();
    expect(kitName).toBe(`${SUITE}-kit.zip`);
    expect(unpack).toBe(`unzip ${kitName} -d kit`);
    await download.saveAs(path.join(TMP, kitName));
    await runOk("sh", ["-c", unpack], { cwd: TMP });
    for (const task of TASKS) expect(fs.existsSync(path.join(TMP, "kit/tasks", task, "images.npy")), task).toBe(true);

    // The script exactly as the page prints it, run next to the unpacked kit.
    const script = await page.getByTestId("maps-script").innerText();
    fs.writeFileSync(path.join(TMP, "tutorial_maps.py"), script);
    expect(await runOk("python3", ["tutorial_maps.py"], { cwd: TMP })).toContain("wrote maps.zip");
    expect(await zipNames(MAPS)).toEqual(TASKS.map((t) => `${t}.npy`).sort());
    // The bad upload of the next test: the same maps without the first task.
    await runOk("python3", [
      "-c",
      "import sys, zipfile\nsrc, dst, drop = sys.argv[1:]\nwith zipfile.ZipFile(src) as a, zipfile.ZipFile(dst, 'w') as b:\n    [b.writestr(n, a.read(n)) for n in a.namelist() if n != drop]",
      MAPS,
      MISSING,
      `${TASKS[0]}.npy`,
    ]);
    // The tutorial sends the researcher to the verified section of the submission page.
    await expect(page.locator(`a[href="/submission?suite=${SUITE}#verified"]`).count()).resolves.toBeGreaterThan(0);
    await context.close();
  }, 300_000);

  it("with JavaScript: a bad zip's message sits at the file field; the run shows progress and completes without a reload; score and submit", async () => {
    const context = await signedIn("researcher_js", true);
    const page = await context.newPage();
    await gotoHydrated(page, `/submission?suite=${SUITE}`);
    const section = page.getByTestId("verified-evaluation");
    await expect(section.getByRole("heading", { level: 2 }).innerText()).resolves.toBe("Verified evaluation: upload your attribution maps");

    // A zip missing a task: refused at once, the message next to the file field (and only there in the section).
    await section.getByLabel("Name of your attribution method").fill(JS_METHOD);
    await section.locator("#maps-file").setInputFiles(MISSING);
    await section.getByRole("button", { name: "Upload and evaluate" }).click();
    const missing = `The maps of task ${TASKS[0]} are missing (${TASKS[0]}.npy).`;
    const fieldError = page.locator("#maps-file-error");
    await fieldError.getByText(missing).waitFor();
    const fieldStep = page.locator(".step", { has: page.locator("#maps-file") });
    await expect(fieldStep.locator("#maps-file-error").count()).resolves.toBe(1);
    await expect(section.getByText(missing).count()).resolves.toBe(1);
    await expect(page.locator("#maps-file").getAttribute("aria-describedby")).resolves.toBe("maps-file-error");
    await expect(page.getByTestId("maps-run").count()).resolves.toBe(0);
    // In place only: no toast repeats it over the list.
    await expect(page.locator(".p-toast-message", { hasText: missing }).count()).resolves.toBe(0);

    // The good maps: from here on the page must not reload (a marker on window survives only client-side navigation).
    await page.evaluate(() => ((window as unknown as { loopMarker: number }).loopMarker = 13));
    await section.getByLabel("Name of your attribution method").fill(JS_METHOD);
    await section.locator("#maps-file").setInputFiles(MAPS);
    const started = Date.now();
    await section.getByRole("button", { name: "Upload and evaluate" }).click();
    await page.waitForURL(/[?&]maps=\d+/);
    // The earlier refusal no longer applies once these maps were accepted.
    await page.locator("#maps-file-error").waitFor({ state: "detached", timeout: 10_000 });
    const run = page.getByTestId("maps-run");
    await run.waitFor();
    // The zip just sent is no longer chosen: one more click cannot queue the same run twice.
    await expect(section.locator("#maps-file").evaluate((el) => (el as HTMLInputElement).files?.length)).resolves.toBe(0);
    await expect(run.getByRole("heading", { level: 3 }).innerText()).resolves.toMatch(new RegExp(`^Evaluation #\\d+: ${escape(JS_METHOD)}$`));

    // Watch it: progress while active, then completion, all by the page's own polling.
    const progress = new Set<string>();
    let sawActive = false;
    let state: string | null = null;
    for (const until = Date.now() + 180_000; Date.now() < until; await page.waitForTimeout(250)) {
      state = await runState(page);
      if (state === "queued" || state === "running") {
        const bar = run.getByRole("progressbar");
        if (await bar.isVisible()) {
          sawActive = true;
          progress.add((await bar.getAttribute("aria-valuenow")) ?? "");
          // While active the upload button waits for this run (the run may finish between two reads).
          const disabled = await section.getByRole("button", { name: "Upload and evaluate" }).isDisabled();
          const text = await run.innerText();
          const still = await runState(page);
          if (still === "queued" || still === "running") {
            expect(disabled).toBe(true);
            expect(text).toMatch(new RegExp(`(\\d+|…) of (${IMAGES}|…) images`));
          }
        }
      } else if (state) break;
    }
    const seconds = (Date.now() - started) / 1000;
    expect(state, stack.logs().slice(-3000)).toBe("completed");
    console.log(`JS: upload → completed shown by polling in ${seconds.toFixed(1)} s; progress values seen: ${[...progress].join(", ")}`);
    expect(sawActive).toBe(true);
    expect(progress.size).toBeGreaterThanOrEqual(2);
    await expect(page.evaluate(() => (window as unknown as { loopMarker?: number }).loopMarker)).resolves.toBe(13);
    await expect(run.innerText()).resolves.toMatch(/The platform computed MoRF and LeRF from your maps in [\d.]+ s \(metascore -?\d\.\d{4}, rank \d+ of \d+\)/);
    await expect(run.getByRole("progressbar").count()).resolves.toBe(0);
    await expect(run.getByRole("button", { name: "Refresh" }).count()).resolves.toBe(0);
    await page.getByTestId("draft-verified").waitFor();
    // The score form's name follows the finished run.
    await expect(page.getByLabel("Name of your attribution algorithm").inputValue()).resolves.toBe(JS_METHOD);

    await scoreAndSubmit(page, JS_METHOD, "js-researcher@example.org");
    await toast(page, "Upload algorithm successfully!");

    await page.goto("/history");
    const row = page.locator("tr", { hasText: JS_METHOD });
    await expect(row.locator("[data-provenance]").getAttribute("data-provenance")).resolves.toBe("verified");
    await expect(row.locator("[data-provenance]").innerText()).resolves.toBe("verified");
    await context.close();
  }, 300_000);

  it("without JavaScript: the Chinese heading, a plain-form upload, a Refresh button while active, then score and submit", async () => {
    const context = await signedIn("researcher_nojs", false);
    const page = await context.newPage();
    await page.goto(`/submission?suite=${SUITE}`);

    // Once in Chinese, through the top bar's toggle, then back.
    await page.getByRole("button", { name: "中文" }).click();
    await page.getByRole("heading", { name: "平台验证评测：上传归因图" }).waitFor();
    expect(await page.getAttribute("html", "lang")).toBe("zh-CN");
    expect(new URL(page.url()).pathname).toBe("/submission");
    await page.getByRole("button", { name: "English" }).click();
    const section = page.getByTestId("verified-evaluation");
    await section.getByRole("heading", { name: "Verified evaluation: upload your attribution maps" }).waitFor();

    await section.getByLabel("Name of your attribution method").fill(NOJS_METHOD);
    await section.locator('input[type="file"][name="maps"]').setInputFiles(MAPS);
    const started = Date.now();
    await section.getByRole("button", { name: "Upload and evaluate" }).click();
    await page.waitForURL(/[?&]maps=\d+/);
    const run = page.getByTestId("maps-run");
    const first = await runState(page);
    expect(["queued", "running"]).toContain(first);
    // No polling without JavaScript: the page offers a button that reloads it.
    await expect(run.getByRole("button", { name: "Refresh" }).count()).resolves.toBe(1);
    await expect(run.getByRole("progressbar").count()).resolves.toBe(1);
    let state = first;
    let refreshes = 0;
    const deadReloads: number[] = [];
    for (const until = Date.now() + 180_000; (state === "queued" || state === "running") && Date.now() < until;) {
      await page.waitForTimeout(1000);
      refreshes++;
      // Each click must load the page again (a document request), or the researcher sees a frozen state.
      const reloaded = page.waitForResponse((r) => r.request().resourceType() === "document" && new URL(r.url()).pathname === "/submission", {
        timeout: 5_000,
      });
      await run.getByRole("button", { name: "Refresh" }).click();
      if (!(await reloaded.then(() => true).catch(() => false))) {
        deadReloads.push(refreshes);
        await page.reload();
      }
      state = await runState(page);
    }
    console.log(`no JS: upload → completed after ${refreshes} refreshes, ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect.soft(deadReloads, "clicks on Refresh that did not reload the page (a same-URL #verified link would only jump to the fragment)").toEqual([]);
    expect(state, stack.logs().slice(-3000)).toBe("completed");
    await expect(run.getByRole("button", { name: "Refresh" }).count()).resolves.toBe(0);
    await expect(run.innerText()).resolves.toContain("marked verified");
    await page.getByTestId("draft-verified").waitFor();
    await expect(page.getByLabel("Name of your attribution algorithm").inputValue()).resolves.toBe(NOJS_METHOD);

    await scoreAndSubmit(page, NOJS_METHOD, "nojs-researcher@example.org");
    await page.getByText("Upload algorithm successfully!").waitFor();

    await page.goto("/history");
    await expect(page.locator("tr", { hasText: NOJS_METHOD }).locator("[data-provenance]").getAttribute("data-provenance")).resolves.toBe("verified");
    await context.close();
  }, 300_000);

  it("the admin sees both as verified with their maps, approves them, and the leaderboard marks them verified", async () => {
    // With JavaScript: the details and the confirmation dialog.
    const context = await adminContext(true);
    const page = await context.newPage();
    await gotoHydrated(page, "/approval");
    const row = page.locator("tr", { hasText: JS_METHOD });
    await row.locator("summary", { hasText: "Details" }).click();
    const source = row.locator("details dd", { has: page.locator('[data-provenance="verified"]') });
    await source.waitFor({ state: "attached" });
    await expect(source.textContent()).resolves.toMatch(/the platform computed these files from the submitter's maps in evaluation #\d+/);
    await expect(source.getByRole("link", { name: "maps (.zip)" }).getAttribute("href")).resolves.toMatch(/^\/files\/submission\/\d+\/maps$/);
    // The admin must be able to read it: an opened Details shows its values, not only their labels.
    await expect.soft(await source.isVisible(), "the opened Details' values (source, maps link) are visible, not a 0 px wide column").toBe(true);
    await row.getByRole("link", { name: "Approve" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click();
    await toast(page, "You have approved this submission!");
    await context.close();

    // Without JavaScript: the confirmation is a page section.
    const plain = await adminContext(false);
    const p2 = await plain.newPage();
    await p2.goto("/approval");
    const row2 = p2.locator("tr", { hasText: NOJS_METHOD });
    await expect(row2.locator('[data-provenance="verified"]').count()).resolves.toBeGreaterThan(0);
    await row2.getByRole("link", { name: "Approve" }).click();
    await p2.getByRole("button", { name: "Confirm" }).click();
    await p2.getByText("You have approved this submission!").first().waitFor();

    // The public board (any page of it) shows both rows as verified next to the platform's baselines.
    const found = new Map<string, string | null>();
    let platform = 0;
    for (let n = 1; n <= 5; n++) {
      await p2.goto(`/leaderboard?suite=${SUITE}&page=${n}`);
      const board = p2.getByTestId("board-overall");
      platform += await board.locator('td[data-source="platform"]').count();
      for (const method of [JS_METHOD, NOJS_METHOD]) {
        const r = board.locator("tr", { hasText: method });
        if (await r.count()) found.set(method, await r.locator("td[data-source]").getAttribute("data-source"));
      }
      if (!(await board.locator('a[rel="next"]').count())) break;
    }
    expect(Object.fromEntries(found)).toEqual({ [JS_METHOD]: "verified", [NOJS_METHOD]: "verified" });
    expect(platform).toBeGreaterThan(0);
    await plain.close();
  }, 120_000);
});
