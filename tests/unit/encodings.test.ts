// Cached answers in the codings browsers ask for (server/encoding.ts, server/pageCache.ts,
// server/compression.ts; docs/performance.md "Encodings"): Accept-Encoding negotiation, a cached
// page's brotli, gzip and identity bodies (made once), Vary, 304, and the cached body's scripts
// allowed by hash instead of a repeated nonce. A real Express app on a loopback port, no stack.
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addVary, chooseEncoding } from "../../server/encoding.ts";
import { neutralisePage, pageCache } from "../../server/pageCache.ts";
import { responseCompression } from "../../server/compression.ts";
import { contentSecurityPolicy } from "../../server/securityHeaders.ts";

describe("chooseEncoding", () => {
  it.each([
    [undefined, "identity"],
    ["", "identity"],
    ["gzip, deflate, br", "br"],
    ["gzip, deflate, br, zstd", "br"],
    ["gzip", "gzip"],
    ["x-gzip", "gzip"],
    ["deflate", "identity"],
    ["identity", "identity"],
    ["br;q=0, gzip", "gzip"],
    ["br;q=0.5, gzip;q=0.8", "gzip"],
    ["gzip;q=0.5, br;q=0.5", "br"],
    ["*", "br"],
    ["*;q=0", "identity"],
    ["gzip;q=0, *", "br"],
    ["BR", "br"],
  ] as const)("%j → %s", (header, coding) => {
    expect(chooseEncoding(header)).toBe(coding);
  });

  it("addVary keeps what is there and adds each name once", () => {
    expect(addVary(undefined, "Accept-Encoding")).toBe("Accept-Encoding");
    expect(addVary("accept-encoding, Origin", "Accept-Encoding", "Cookie")).toBe("accept-encoding, Origin, Cookie");
    expect(addVary("*", "Cookie")).toBe("*");
  });
});

/** GET over node:http (fetch would decode the body): status, headers and the raw bytes. */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

const decode = (r: { headers: http.IncomingHttpHeaders; body: Buffer }) =>
  (r.headers["content-encoding"] === "br"
    ? zlib.brotliDecompressSync(r.body)
    : r.headers["content-encoding"] === "gzip"
      ? zlib.gunzipSync(r.body)
      : r.body
  ).toString("utf8");

let server: http.Server;
let base = "";
let renders = 0;
let slowRenders = 0;
let flakyRenders = 0;
const staticRoot = fs.mkdtempSync(path.join(os.tmpdir(), "metarank-static-"));
const SCRIPT = 'window.__page = "cached";';

beforeAll(async () => {
  fs.mkdirSync(path.join(staticRoot, "assets"));
  fs.writeFileSync(path.join(staticRoot, "assets/app-1.css"), "body { color: red; }\n".repeat(400));
  const app = express();
  app.use((_req, res, next) => {
    res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
    res.setHeader("Content-Security-Policy", contentSecurityPolicy(res.locals.cspNonce));
    next();
  });
  app.use(responseCompression({ staticRoot }));
  app.use("/assets", express.static(path.join(staticRoot, "assets"), { immutable: true, maxAge: "1y" }));
  const cached = new Set(["/page", "/slow", "/flaky"]);
  app.use(pageCache({ keyOf: async (req) => (cached.has(req.path) && !req.headers.cookie ? `en ${req.url} v1` : null) }));
  app.get("/slow", (_req, res) => {
    slowRenders++;
    setTimeout(() => res.type("html").send(`<!DOCTYPE html><p>slow page ${slowRenders}</p>`), 150);
  });
  app.get("/flaky", (_req, res) => {
    // The first render fails (nothing is stored); the visitors who waited for it render again.
    flakyRenders++;
    const n = flakyRenders;
    setTimeout(
      () =>
        res
          .status(n === 1 ? 500 : 200)
          .type("html")
          .send(`<p>flaky ${n}</p>`),
      100,
    );
  });
  app.get("/page", (_req, res) => {
    renders++;
    const nonce = res.locals.cspNonce as string;
    res.type("html").send(`<!DOCTYPE html><html><body>${"<p>board row</p>".repeat(300)}<script nonce="${nonce}">${SCRIPT}</script></body></html>`);
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  fs.rmSync(staticRoot, { recursive: true, force: true });
});

describe("the page cache's codings", () => {
  it("renders once; br, gzip and identity answers are the same page, each with Vary and the entry's ETag", async () => {
    const miss = await get(`${base}/page`, { "accept-encoding": "gzip, deflate, br" });
    expect(miss.headers["x-page-cache"]).toBe("miss");
    // Let the entry's codings be made (in the thread pool, right after the miss).
    await new Promise((r) => setTimeout(r, 200));
    const answers = {
      br: await get(`${base}/page`, { "accept-encoding": "gzip, deflate, br" }),
      gzip: await get(`${base}/page`, { "accept-encoding": "gzip" }),
      identity: await get(`${base}/page`, { "accept-encoding": "identity" }),
      none: await get(`${base}/page`),
    };
    expect(renders).toBe(1);
    const pages = new Set(Object.values(answers).map(decode));
    expect(pages.size).toBe(1);
    expect([...pages][0]).toContain("board row");
    expect(answers.br.headers["content-encoding"]).toBe("br");
    expect(answers.gzip.headers["content-encoding"]).toBe("gzip");
    expect(answers.identity.headers["content-encoding"]).toBeUndefined();
    expect(answers.none.headers["content-encoding"]).toBeUndefined();
    for (const a of Object.values(answers)) {
      expect(a.headers["x-page-cache"]).toBe("hit");
      expect(a.headers.vary).toMatch(/Accept-Encoding/);
      expect(a.headers.vary).toMatch(/Accept-Language/);
      expect(a.headers.vary).toMatch(/Cookie/);
      expect(Number(a.headers["content-length"])).toBe(a.body.length);
      expect(a.headers.etag).toBe(miss.headers.etag);
    }
    expect(miss.headers.vary).toMatch(/Accept-Encoding/);
    expect(answers.br.body.length).toBeLessThan(answers.identity.body.length / 5);
    const revalidated = await get(`${base}/page`, { "if-none-match": String(miss.headers.etag), "accept-encoding": "br" });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(revalidated.headers.vary).toMatch(/Accept-Encoding/);
  });

  it("a cached body carries no nonce: its policy allows its inline scripts by their hashes", async () => {
    const hit = await get(`${base}/page`, { "accept-encoding": "br" });
    const html = decode(hit);
    expect(html).not.toMatch(/nonce=/);
    const csp = String(hit.headers["content-security-policy"]);
    expect(csp).not.toMatch(/'nonce-/);
    const hash = crypto.createHash("sha256").update(SCRIPT).digest("base64");
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}'`);
  });

  it("a burst of first visitors waits for one render instead of each rendering the page", async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => get(`${base}/slow`, { "accept-encoding": "identity" })));
    expect(slowRenders).toBe(1);
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.body.toString("utf8")))).toEqual(new Set(["<!DOCTYPE html><p>slow page 1</p>"]));
    expect(answers.filter((a) => a.headers["x-page-cache"] === "miss")).toHaveLength(1);
  });

  it("when that render fails, the visitors who waited render the page themselves", async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => get(`${base}/flaky`)));
    expect(answers.filter((a) => a.status === 500)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(flakyRenders).toBeGreaterThanOrEqual(2);
  });

  it("neutralisePage hashes inline scripts only, the bytes between the tags", () => {
    const page = neutralisePage('<script nonce="n1">a()</script><script nonce="n1" src="/x.js"></script><script type="module" nonce="n1">b()</script>', "n1");
    expect(page.html).toBe('<script>a()</script><script src="/x.js"></script><script type="module">b()</script>');
    const h = (s: string) => `'sha256-${crypto.createHash("sha256").update(s).digest("base64")}'`;
    expect(page.scriptHashes).toBe(`${h("a()")} ${h("b()")}`);
  });
});

describe("static files compressed once and kept", () => {
  it("the first answer streams, later ones are the kept codings with the static headers and Vary", async () => {
    const first = await get(`${base}/assets/app-1.css`, { "accept-encoding": "br" });
    expect(first.status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    const br = await get(`${base}/assets/app-1.css`, { "accept-encoding": "gzip, deflate, br" });
    const gz = await get(`${base}/assets/app-1.css`, { "accept-encoding": "gzip" });
    const plain = await get(`${base}/assets/app-1.css`);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(decode(br)).toBe(plain.body.toString());
    expect(decode(gz)).toBe(plain.body.toString());
    expect(br.headers["content-type"]).toMatch(/^text\/css/);
    expect(br.headers["cache-control"]).toContain("immutable");
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect((await get(`${base}/assets/app-1.css`, { "accept-encoding": "br", "if-none-match": String(br.headers.etag) })).status).toBe(304);
    // Outside the folder: never read.
    expect((await get(`${base}/assets/..%2f..%2fetc%2fpasswd.css`, { "accept-encoding": "br" })).status).toBe(404);
  });
});
