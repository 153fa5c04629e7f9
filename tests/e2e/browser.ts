import { chromium, type Browser, type BrowserContext } from "playwright-core";

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

/** A context with JavaScript on or off (the no-JS journeys use plain server-rendered forms). */
export function newContext(browser: Browser, baseURL: string, javaScriptEnabled = true): Promise<BrowserContext> {
  return browser.newContext({ baseURL, javaScriptEnabled });
}
