// Dataset-search analytics (the admin's search-queries table) on the real app and database:
// impressions and clicks from the three dataset searches, CTR and average rank on the admin page,
// exact counts under concurrent searches, no personal data stored, and every column sorted and
// paged on the server; the page is for administrators only.
import { QueryTypes, type Sequelize } from "sequelize";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSequelize } from "../../models/db.ts";
import { Client, location } from "../support/client.ts";
import { adminClient, userClient } from "../support/accounts.ts";
import { startStack, type Stack } from "../support/stack.ts";

let stack: Stack;
let db: Sequelize;
let admin: Client;
let alice: Client;
let anon: Client;

/** Node's fetch says "node", which isbot counts as a bot: these clients say what a browser says. */
const BROWSER_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
function asBrowser<C extends Client>(c: C): C {
  const request = c.request.bind(c);
  c.request = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has("User-Agent")) headers.set("User-Agent", BROWSER_UA);
    return request(path, { ...init, headers });
  };
  return c;
}

const decode = (html: string) => html.replace(/<!-- -->/g, "").replace(/&amp;/g, "&");
const keywordsOf = (html: string) => [...html.matchAll(/<tr data-keyword="([^"]*)"/g)].map((m) => m[1]);
async function row(keyword: string) {
  const rows = await db.query<{ impressions: number; clicks: number; rank_sum: number }>(
    "SELECT impressions, clicks, rank_sum FROM search_queries WHERE keyword = ?",
    {
      replacements: [keyword],
      type: QueryTypes.SELECT,
    },
  );
  return rows[0] ? { impressions: Number(rows[0].impressions), clicks: Number(rows[0].clicks), rankSum: Number(rows[0].rank_sum) } : null;
}

beforeAll(async () => {
  stack = await startStack({ env: { SEED_FASHION_MNIST_PICTURES: "2", SEED_SCENES_PICTURES: "2", SEED_INSPECTION_PICTURES: "2" } });
  db = createSequelize(stack.dbUrl);
  admin = asBrowser(await adminClient(stack.baseUrl));
  alice = asBrowser(await userClient(stack.baseUrl, "alice"));
  anon = asBrowser(new Client(stack.baseUrl));
  for (const name of ["Bridge photos", "bridge deck", "Old bridge"])
    expect((await alice.post("/datasetInDetail", { intent: "create", name, visibility: "public" })).status).toBe(302);
}, 180_000);

afterAll(async () => {
  await db?.close();
  await stack?.stop();
});

describe("recording", () => {
  it("counts result lists shown and results opened, per normalised keyword, from each search", async () => {
    // A signed-in user's search on My datasets: the result links carry the keyword and their position.
    const list = decode(await alice.html(`/datasetInDetail?type=name&q=${encodeURIComponent("  Bridge  ")}`));
    // The link carries the keyword as typed (trimmed); the server normalises it when the click comes.
    const links = [...list.matchAll(/href="(\/datasetInDetail\?dataset=\d+&from=search&q=Bridge&rank=(\d))"/g)];
    expect(links.map((m) => m[2])).toEqual(["1", "2", "3"]);
    expect(await row("bridge")).toEqual({ impressions: 1, clicks: 0, rankSum: 0 });
    expect((await alice.get(links[1][1])).status).toBe(200);
    expect(await row("bridge")).toEqual({ impressions: 1, clicks: 1, rankSum: 2 });
    // A visitor on the gallery's users tab, differently written: the same keyword.
    expect((await anon.get("/datasetPreview?tab=users&type=name&q=BRIDGE")).status).toBe(200);
    // The classification demo's dataset search.
    const demo = decode(await anon.html("/UserImgclassification?type=name&q=bridge"));
    const demoLink = demo.match(/href="(\/UserImgclassification\?dataset=\d+&from=search&q=bridge&rank=1)"/)![1];
    await anon.get(demoLink);
    expect(await row("bridge")).toEqual({ impressions: 3, clicks: 2, rankSum: 3 });
  });

  it("keeps no personal data: user-name searches are not recorded, crafted clicks add nothing, the table has counters only", async () => {
    await anon.get("/datasetPreview?tab=users&type=user&q=alice");
    expect(await row("alice")).toBeNull();
    await anon.get("/datasetInDetail?dataset=1&from=search&q=never-searched&rank=1");
    await alice.get("/UserImgclassification?dataset=1&from=search&q=never-searched&rank=1");
    expect(await row("never-searched")).toBeNull();
    await alice.get("/UserImgclassification?dataset=1&from=search&q=bridge&rank=99999999");
    expect((await row("bridge"))!.clicks).toBe(2);
    // Bots are not counted.
    await anon.request("/datasetPreview?tab=users&type=name&q=bridge", { headers: { "User-Agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" } });
    expect((await row("bridge"))!.impressions).toBe(3);
    const columns = (await db.getQueryInterface().describeTable("search_queries")) as Record<string, unknown>;
    expect(Object.keys(columns).sort()).toEqual(["clicks", "created_at", "id", "impressions", "keyword", "rank_sum", "updated_at"]);
  });

  it("loses no count under concurrent searches", async () => {
    const n = 40;
    await Promise.all(Array.from({ length: n }, () => asBrowser(new Client(stack.baseUrl)).get("/datasetPreview?tab=users&type=name&q=concurrent")));
    expect((await row("concurrent"))!.impressions).toBe(n);
  });
});

describe("the admin page", () => {
  it("is for administrators only", async () => {
    expect((await alice.get("/admin/search_queries")).status).toBe(403);
    const visitor = await anon.get("/admin/search_queries");
    expect(visitor.status).toBe(302);
    expect(location(visitor)).toMatch(/^\/signin/);
  });

  it("shows impressions, clicks, CTR and average rank, sorted by every column on the server, 10 a page", async () => {
    // Eleven more keywords with known counts: kw-i searched i times, opened once at rank i when i is even.
    for (let i = 1; i <= 11; i++) {
      const q = `kw-${String(i).padStart(2, "0")}`;
      for (let k = 0; k < i; k++) await anon.get(`/datasetPreview?tab=users&type=name&q=${q}`);
      if (i % 2 === 0) await alice.get(`/datasetInDetail?dataset=1&from=search&q=${q}&rank=${i}`);
    }
    const page1 = decode(await admin.html("/admin/search_queries"));
    expect(page1).toContain("Dataset search queries");
    // Default: impressions, most first. "concurrent" (40) leads, then kw-11 … .
    expect(keywordsOf(page1).slice(0, 3)).toEqual(["concurrent", "kw-11", "kw-10"]);
    expect(keywordsOf(page1)).toHaveLength(10);
    const page2 = decode(await admin.html("/admin/search_queries?sort=impressions&dir=desc&page=2"));
    expect(keywordsOf(page2)).toHaveLength(3); // 13 keywords in all
    const bridge =
      page1.match(/<tr data-keyword="bridge">([\s\S]*?)<\/tr>/)?.[1] ??
      decode(await admin.html("/admin/search_queries?sort=keyword&dir=asc")).match(/<tr data-keyword="bridge">([\s\S]*?)<\/tr>/)![1];
    expect(bridge.replace(/<[^>]+>/g, "|")).toContain("|3||2||66.7 %||1.50|");

    const all = async (sort: string, dir: string) => {
      const first = keywordsOf(decode(await admin.html(`/admin/search_queries?sort=${sort}&dir=${dir}`)));
      const second = keywordsOf(decode(await admin.html(`/admin/search_queries?sort=${sort}&dir=${dir}&page=2`)));
      return [...first, ...second];
    };
    const keywords = [...(await all("keyword", "asc"))];
    expect(keywords).toEqual([...keywords].sort());
    expect(await all("keyword", "desc")).toEqual([...keywords].sort().reverse());
    // The expected orders, from the counts the test made (ties broken by keyword).
    const stats = new Map<string, { impressions: number; clicks: number; rank: number | null }>([
      ["bridge", { impressions: 3, clicks: 2, rank: 1.5 }],
      ["concurrent", { impressions: 40, clicks: 0, rank: null }],
    ]);
    for (let i = 1; i <= 11; i++) stats.set(`kw-${String(i).padStart(2, "0")}`, { impressions: i, clicks: i % 2 === 0 ? 1 : 0, rank: i % 2 === 0 ? i : null });
    const by = (f: (s: { impressions: number; clicks: number; rank: number | null }) => number, dir: 1 | -1) =>
      [...stats.keys()].sort((a, b) => dir * (f(stats.get(a)!) - f(stats.get(b)!)) || a.localeCompare(b));
    expect(await all("clicks", "desc")).toEqual(by((s) => s.clicks, -1));
    expect(await all("impressions", "asc")).toEqual(by((s) => s.impressions, 1));
    expect(await all("ctr", "desc")).toEqual(by((s) => s.clicks / s.impressions, -1));
    // Average rank: keywords without clicks last in either direction.
    const ranked = [...stats.keys()].filter((k) => stats.get(k)!.rank !== null);
    const unranked = [...stats.keys()].filter((k) => stats.get(k)!.rank === null).sort();
    expect(await all("rank", "asc")).toEqual([...ranked.sort((a, b) => stats.get(a)!.rank! - stats.get(b)!.rank! || a.localeCompare(b)), ...unranked]);
    expect(await all("rank", "desc")).toEqual([...ranked.sort((a, b) => stats.get(b)!.rank! - stats.get(a)!.rank! || a.localeCompare(b)), ...unranked]);
  });

  it("is in Chinese too", async () => {
    const zh = await adminClient(stack.baseUrl);
    await zh.post("/language", { lng: "zh", redirectTo: "/homepage" });
    const html = await zh.html("/admin/search_queries");
    expect(html).toContain("数据集搜索查询");
    expect(html).toContain("点击率");
  });
});
