// Accessibility (docs/accessibility.md): axe-core (@axe-core/playwright, WCAG 2.1 A and AA rules)
// on every page of the README's route list (tests/support/pages.ts), in English and in Chinese, as
// the visitor, user or administrator who may open it, after React has hydrated. No serious or
// critical violation is allowed; each one found is printed with its rule, impact and elements. The
// same visits check that every page hydrates cleanly: no React error in the console (a server
// render that differs from the browser's makes React throw it away and render again).
import { AxeBuilder } from "@axe-core/playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext } from "playwright-core";
import { adminClient, userClient } from "../support/accounts.ts";
import { Client } from "../support/client.ts";
import { PAGES, type Who } from "../support/pages.ts";
import { startStack, type Stack } from "../support/stack.ts";
import { gotoHydrated, launchBrowser, newContext, signIn } from "./browser.ts";

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([
    startStack({ env: { SEED_FASHION_MNIST_PICTURES: "6", SEED_SCENES_PICTURES: "6", SEED_VQA_PICTURES: "9" } }),
    launchBrowser(),
  ]);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** A browser with the client's session and language cookies (the language chosen through the toggle's form). */
async function contextFor(client: Client, lng: "en" | "zh"): Promise<BrowserContext> {
  await client.post("/language", { lng, redirectTo: "/homepage" });
  const context = await newContext(browser, stack.baseUrl, true);
  await signIn(context, client, stack.baseUrl);
  return context;
}

describe.each(["en", "zh"] as const)("axe-core in %s", (lng) => {
  it("finds no serious or critical violation on any page", async () => {
    const clients: Record<Who, Client> = {
      visitor: new Client(stack.baseUrl),
      user: await userClient(stack.baseUrl, `axe-${lng}`),
      admin: await adminClient(stack.baseUrl),
    };
    const contexts = new Map<Who, BrowserContext>();
    const found: string[] = [];
    const reactErrors: string[] = [];
    let checked = 0;
    const times: string[] = [];
    for (const [url, who] of PAGES) {
      if (!contexts.has(who)) contexts.set(who, await contextFor(clients[who], lng));
      const page = await contexts.get(who)!.newPage();
      page.on("pageerror", (e) => reactErrors.push(`${url} (${who}): ${e.message.slice(0, 160)}`));
      page.on("console", (m) => {
        if (m.type() === "error" && /React error|hydrat/i.test(m.text())) reactErrors.push(`${url} (${who}): ${m.text().slice(0, 160)}`);
      });
      const t0 = Date.now();
      await gotoHydrated(page, url);
      const t1 = Date.now();
      expect(await page.locator("html").getAttribute("lang"), url).toBe(lng === "zh" ? "zh-CN" : "en");
      const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      for (const v of violations.filter((v) => v.impact === "serious" || v.impact === "critical"))
        found.push(
          `${url} (${who}): ${v.id} [${v.impact}] ${v.help} — ${v.nodes
            .slice(0, 4)
            .map((n) => `${n.target.join(" ")}: ${(n.any[0] ?? n.all[0] ?? n.none[0])?.message ?? ""}`)
            .join(" | ")}`,
        );
      checked++;
      times.push(`${url} ${t1 - t0}+${Date.now() - t1} ms`);
      await page.close();
    }
    for (const c of contexts.values()) await c.close();
    console.log(`axe ${lng}: ${checked} pages checked, ${found.length} serious or critical violations\n${times.join("\n")}`);
    expect(found, found.join("\n")).toEqual([]);
    expect(reactErrors, reactErrors.join("\n")).toEqual([]);
  }, 300_000);
});
