// The rendered-page cache (server/pageCache.ts): anonymous repeats are served from memory and
// revalidate with 304; a write to what the page shows is visible at once; signed-in visitors and
// other languages never get someone else's page.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack.ts";
import { Client } from "../support/client.ts";
import { userClient } from "../support/accounts.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ sidecar: false });
});
afterAll(async () => {
  await stack?.stop();
});

describe(`page cache on ${process.env.TEST_DB}`, () => {
  it("an anonymous repeat is a hit with the same page, and If-None-Match gets 304", async () => {
    const c = new Client(stack.baseUrl);
    const first = await c.get("/leaderboard");
    const body = await first.text();
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^W\/"/);
    const second = await c.get("/leaderboard");
    expect(second.headers.get("x-page-cache")).toBe("hit");
    // The same page, but for the CSP nonce the rendered one carries (the cached one has none).
    const withoutNonces = (html: string) => html.replace(/ nonce="[^"]*"/g, "");
    expect(withoutNonces(await second.text()) === withoutNonces(body)).toBe(true);
    const revalidated = await c.request("/leaderboard", { headers: { "If-None-Match": etag! } });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe("");
    // The browser keeps its copy and that copy's policy: another policy here could block its scripts.
    expect(first.headers.get("content-security-policy")).toMatch(/'nonce-/);
    expect(revalidated.headers.get("content-security-policy")).toBeNull();
  });

  it("a rendered page carries its own nonce; a cached one none, its inline scripts allowed by hash (never a repeated nonce)", async () => {
    const c = new Client(stack.baseUrl);
    const hash = (s: string) => `'sha256-${crypto.createHash("sha256").update(s, "utf8").digest("base64")}'`;
    const nonces: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await c.get("/document");
      const header = res.headers.get("content-security-policy") ?? "";
      const html = await res.text();
      const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].filter((m) => !/\bsrc=/.test(m[1]) && m[2]);
      expect(scripts.length).toBeGreaterThan(0);
      if (res.headers.get("x-page-cache") === "hit") {
        // The stored body is sent to everyone as it is: no nonce in it or in its policy.
        expect(html).not.toMatch(/ nonce="/);
        expect(header).not.toMatch(/'nonce-/);
        for (const m of scripts) expect(header).toContain(hash(m[2]));
      } else {
        const fromHeader = header.match(/'nonce-([^']+)'/)?.[1];
        expect(new Set(scripts.map((m) => m[1].match(/nonce="([^"]+)"/)?.[1]))).toEqual(new Set([fromHeader]));
        nonces.push(fromHeader!);
      }
    }
    expect(new Set(nonces).size).toBe(nonces.length);
    expect(res2headers(await c.get("/document"))).toMatchObject({ "x-content-type-options": "nosniff", "referrer-policy": "strict-origin-when-cross-origin" });
  });

  it("languages are cached apart", async () => {
    const c = new Client(stack.baseUrl);
    await c.get("/homepage");
    const zh = await (await c.request("/homepage", { headers: { "Accept-Language": "zh-CN" } })).text();
    expect(zh).toContain('<html lang="zh-CN"');
    const en = await (await c.request("/homepage", { headers: { "Accept-Language": "en" } })).text();
    expect(en).toContain('<html lang="en"');
  });

  it("signed-in visitors always get their own page", async () => {
    const alice = await userClient(stack.baseUrl, "cache-alice");
    await new Client(stack.baseUrl).get("/homepage"); // an anonymous copy exists
    const res = await alice.get("/homepage");
    expect(res.headers.get("x-page-cache")).toBeNull();
    expect(await res.text()).toContain("cache-alice");
  });

  it("a write to what a page shows is visible on the next request", async () => {
    const anon = new Client(stack.baseUrl);
    const before = await anon.get("/datasetPreview?tab=users");
    const etag = before.headers.get("etag");
    expect(await before.text()).not.toContain("freshly shared set");
    expect((await anon.get("/datasetPreview?tab=users")).headers.get("x-page-cache")).toBe("hit");
    const bob = await userClient(stack.baseUrl, "cache-bob");
    const created = await bob.post("/datasetInDetail", { intent: "create", name: "freshly shared set", visibility: "public" });
    expect(created.status).toBeLessThan(400);
    const after = await anon.request("/datasetPreview?tab=users", { headers: { "If-None-Match": etag! } });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect(await after.text()).toContain("freshly shared set");
  });
});

const res2headers = (res: Response) => Object.fromEntries(res.headers.entries());
