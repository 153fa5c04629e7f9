import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-quic",
      "--no-first-run",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** Opens a page and, with JavaScript on, waits until React has hydrated it (handlers attached). */
export async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 30_000 });
}

/** A context with JavaScript on or off (the no-JS journeys use plain server-rendered forms). */
export function newContext(browser: Browser, baseURL: string, javaScriptEnabled = true): Promise<BrowserContext> {
  return browser.newContext({ baseURL, javaScriptEnabled });
}

/**
 * Waits until the whole current document has arrived. Pages are streamed (app/entry.server.tsx):
 * without JavaScript, after a form's navigation, a notice at the top can be visible while the
 * rows below it are still on their way, so a count taken then can come out short (seen once on a
 * loaded machine: servers.e2e found none of the table's rows under the confirmation step).
 */
export async function wholePage(page: Page): Promise<void> {
  await page.waitForLoadState("load");
}

/** Signs a browser context in as a test client: the client's cookies (its session) for the stack's origin. */
export function signIn(context: BrowserContext, client: { cookies: Map<string, string> }, baseURL: string): Promise<void> {
  return context.addCookies([...client.cookies].map(([name, value]) => ({ name, value, url: baseURL })));
}
