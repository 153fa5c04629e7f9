// The frame of the demo pages' browser journeys (classification.e2e.ts, segmentation.e2e.ts,
// voc.e2e.ts): the real stack with its own upload folder and seeded pictures, and one Chromium,
// started before the file's tests and stopped after them; a context signed in as a fresh user;
// the wait for a shown picture to have loaded. Each file keeps its journey.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { userClient } from "../support/accounts.ts";
import { launchBrowser, newContext, signIn } from "./browser.ts";

/**
 * Registers the file's beforeAll/afterAll: the stack (uploads under var/test/uploads_e2e_<name>_…,
 * `seed` its SEED_* pictures) and the browser, handed to `onStarted` for a file that uses them
 * itself. Answers how to get a signed-in context.
 */
export function demoStackAndBrowser(name: string, seed: Record<string, string>, onStarted?: (started: { stack: Stack; browser: Browser }) => void) {
  let stack: Stack;
  let browser: Browser;
  let uploadDir: string;
  beforeAll(async () => {
    uploadDir = path.join(ROOT, `var/test/uploads_e2e_${name}_${process.pid}_${Date.now()}`);
    [stack, browser] = await Promise.all([startStack({ env: { ...process.env, UPLOAD_DIR: uploadDir, ...seed } }), launchBrowser()]);
    onStarted?.({ stack, browser });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    if (uploadDir) fs.rmSync(uploadDir, { recursive: true, force: true });
  });
  /** A browser context signed in as a fresh user (the session cookie comes from a real login). */
  async function signedIn(username: string, javaScriptEnabled: boolean): Promise<BrowserContext> {
    const client = await userClient(stack.baseUrl, username);
    const ctx = await newContext(browser, stack.baseUrl, javaScriptEnabled);
    await signIn(ctx, client, stack.baseUrl);
    return ctx;
  }
  return { signedIn };
}

/** Waits until the picture with this test id is shown and has loaded (a broken image has no natural width). */
export async function imageLoaded(page: Page, testId: string): Promise<void> {
  const img = page.getByTestId(testId);
  await img.waitFor();
  await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await img.elementHandle());
}
