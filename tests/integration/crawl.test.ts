// Every feature reachable and every page in both languages: starting at /homepage, a visitor, a
// user and an administrator follow the site's own links (the menu, the pages' links) and reach
// every route the README lists; every page they reach answers without a server error, in English
// and in Chinese, with exactly one <h1>, no untranslated key and no unfilled {{variable}} — and the
// Chinese pages' headings are Chinese.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSequelize } from "../../models/db.ts";
import { adminClient, userClient } from "../support/accounts.ts";
import { Client } from "../support/client.ts";
import { PAGES } from "../support/pages.ts";
import { ROOT, startStack, type Stack } from "../support/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ sidecar: false, env: { SEED_FASHION_MNIST_PICTURES: "0", SEED_SCENES_PICTURES: "12" } });
  // A compute server as its first heartbeat registers it (this stack runs no sidecar), so the
  // server list links its detail page /server_detail/<id>.
  const db = createSequelize(stack.dbUrl);
  try {
    await db.query(
      "INSERT INTO servers (username, password_hash, grpc_address, gpu_index, processes_json, last_login, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      { replacements: ["crawl-gpu-box", "x".repeat(60), "127.0.0.1:1", 0, "[]", new Date(), new Date(), new Date()] },
    );
  } finally {
    await db.close();
  }
});
afterAll(async () => {
  await stack?.stop();
});

const NAMESPACES = fs.readdirSync(path.join(ROOT, "app/locales/en")).map((f) => f.replace(/\.json$/, ""));
/** A message ref or translation key that reached the page instead of its text. */
const RAW_KEY = new RegExp(`(?<![\\w/.-])(${NAMESPACES.join("|")}):[a-z][A-Za-z]*(\\.[A-Za-z_]+)*(?![\\w/-])`);
const CJK = /[\u4e00-\u9fff]/;

/** The README's routes, as the paths a crawl must reach (patterns for the ones with parameters). */
function readmeRoutes(): string[] {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Routes"));
  return [...new Set([...section.matchAll(/`(\/[A-Za-z_./<>-]*)`/g)].map((m) => m[1]))];
}
const matches = (route: string, visited: string) => new RegExp(`^${route.replace(/<[^>]+>/g, "[^/]+").replace(/\./g, "\\.")}$`).test(visited);

/** The visible HTML (scripts and the hydration data removed: keys inside them are not shown). */
const visible = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<style[\s\S]*?<\/style>/g, "");
const h1s = (html: string) => [...visible(html).matchAll(/<h1[^>]*>([\s\S]*?)<\/h1>/g)].map((m) => m[1].replace(/<[^>]+>/g, "").trim());

/** Every same-site path a crawled page links to, downloads included. */
const linked = new Set<string>();

async function crawl(c: Client, limit = 80): Promise<Map<string, { status: number; html: string }>> {
  const seen = new Map<string, { status: number; html: string }>();
  const queue = ["/homepage"];
  while (queue.length && seen.size < limit) {
    const url = queue.shift()!;
    if (seen.has(url)) continue;
    const res = await c.get(url);
    const html = res.headers.get("content-type")?.includes("text/html") ? await res.text() : "";
    seen.set(url, { status: res.status, html });
    const location = res.headers.get("location");
    if (location && location.startsWith("/")) queue.push(location);
    for (const m of html.matchAll(/<a [^>]*href="(\/[^"#?]*)(?:\?[^"#]*)?(?:#[^"]*)?"/g)) {
      const p = m[1];
      linked.add(p);
      // Downloads, files and pictures are not pages; sign-out would end the crawl's session.
      if (/^\/(signout|files|picture|explanation|admin\/evaluations\/\d|leaderboard\/inconsistency|assets|fonts)/.test(p) || /\.\w+$/.test(p)) continue;
      if (!seen.has(p) && !queue.includes(p)) queue.push(p);
    }
  }
  return seen;
}

describe("crawl from /homepage", () => {
  it("visitor, user and administrator reach every route the README lists, and no page is a server error", async () => {
    const visitor = new Client(stack.baseUrl);
    const user = await userClient(stack.baseUrl, "crawler");
    const admin = await adminClient(stack.baseUrl);
    const reached = new Set<string>();
    for (const c of [visitor, user, admin]) {
      for (const [url, { status }] of await crawl(c)) {
        expect(status, url).toBeLessThan(500);
        reached.add(url);
      }
    }
    // Reached other than by a link: the form targets and redirects the README lists.
    // /tcav/progress is asked by the concept page's script while a run is going.
    // /trees/jobs/<id> is polled by the tree page's script while an adjust or save job runs;
    // /voc/map/<id> is an explanation picture shown after a run; /task_detail/<id> exists once a
    // task does (tests/integration/treeTasks.test.ts and tests/e2e/tasks.e2e.ts open them).
    const formTargets = new Set([
      "/language",
      "/cifar",
      "/",
      "/algorithm/getResults",
      "/tcav/progress",
      "/trees/jobs/<id>",
      "/voc/map/<id>",
      "/task_detail/<id>",
    ]);
    // Downloads (the inconsistency CSVs) are reached by being linked, not opened as pages.
    const missing = readmeRoutes().filter((r) => !formTargets.has(r) && ![...reached, ...linked].some((v) => matches(r, v)));
    expect(missing, `reached: ${[...reached].sort().join(" ")}`).toEqual([]);
    // Opened as pages, not only linked: a seeded server's detail page and the job-queue tab.
    expect([...reached].some((u) => /^\/server_detail\/\d+$/.test(u))).toBe(true);
    expect(reached.has("/admin/queues")).toBe(true);
    console.log(`crawl reached ${reached.size} distinct paths`);
  });
});

describe("every page in both languages", () => {
  for (const lng of ["en", "zh"] as const) {
    it(`${lng}: one h1, no untranslated key, no unfilled variable${lng === "zh" ? ", Chinese headings" : ""}`, async () => {
      const clients = {
        visitor: new Client(stack.baseUrl),
        user: await userClient(stack.baseUrl, `reader-${lng}`),
        admin: await adminClient(stack.baseUrl),
      };
      for (const c of Object.values(clients)) await c.post("/language", { lng, redirectTo: "/homepage" });
      for (const [url, who] of PAGES) {
        const res = await clients[who].get(url);
        const html = await res.text();
        expect(res.status, url).toBeLessThan(500);
        expect(html, url).toContain(`<html lang="${lng === "zh" ? "zh-CN" : "en"}"`);
        const shown = visible(html);
        expect(shown.match(RAW_KEY)?.[0], `${url}: raw key`).toBeUndefined();
        expect(shown, `${url}: unfilled variable`).not.toMatch(/\{\{\s*\w+\s*\}\}/);
        // React 18's stream wrote NUL bytes where a Chinese character met its buffer's end (app/.server/stripNul.server.ts).
        expect(html.includes("\u0000"), `${url}: NUL byte in the page`).toBe(false);
        // The layout's <main> is the page's only one (/tcav once nested a second inside it).
        expect(html.match(/<main[\s>]/g)?.length, `${url}: <main> count`).toBe(1);
        const headings = h1s(html);
        expect(headings.length, `${url}: h1 count (${headings.join(" | ")})`).toBe(1);
        // The brand name is the homepage's heading in both languages.
        if (lng === "zh" && url !== "/homepage") expect(headings[0], `${url}: h1`).toMatch(CJK);
      }
    });
  }
});
