// Pages served from what every viewer shares (docs/performance.md "Fragments", "Encodings", "Plots"):
// two signed-in researchers and an anonymous visitor get the same shared fragment of the
// leaderboard, each with their own top bar and never the other's name; the cached page goes out
// in the coding each asks for with Vary right; a plot is an SVG with an ETag.
import http from "node:http";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack.ts";
import { Client } from "../support/client.ts";
import { userClient } from "../support/accounts.ts";

let stack: Stack;
let alice: Client;
let bob: Client;
const DOCUMENT = { Accept: "text/html", "Sec-Fetch-Dest": "document" };

beforeAll(async () => {
  stack = await startStack({ sidecar: false });
  [alice, bob] = await Promise.all([userClient(stack.baseUrl, "frag-alice"), userClient(stack.baseUrl, "frag-bob")]);
});
afterAll(async () => {
  await stack?.stop();
});

/** The markup of the shared fragment `name` in a page. */
function fragmentOf(html: string, name: string): string {
  const start = html.indexOf(`data-fragment="${name}"`);
  expect(start).toBeGreaterThan(0);
  return html.slice(start, html.indexOf("</section>", start));
}

/** GET over node:http, so the body stays as it was sent (fetch would decode it). */
function raw(path: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(stack.baseUrl + path, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

describe(`shared fragments and encodings on ${process.env.TEST_DB}`, () => {
  it("two researchers and an anonymous visitor share the board's fragment; each top bar is their own", async () => {
    const anonymous = new Client(stack.baseUrl);
    const pages: Record<string, string> = {};
    // Alice first (she renders the fragment), then Bob and the visitor reuse it, then Alice again.
    for (const [who, client] of [
      ["alice", alice],
      ["bob", bob],
      ["anonymous", anonymous],
      ["alice2", alice],
    ] as const) {
      pages[who] = await (await client.request("/leaderboard", { headers: DOCUMENT })).text();
    }
    const shared = fragmentOf(pages.alice, "leaderboard");
    expect(shared).toContain('data-testid="board-overall"');
    for (const who of ["bob", "anonymous", "alice2"]) expect(fragmentOf(pages[who], "leaderboard")).toBe(shared);
    expect(shared).not.toMatch(/frag-alice|frag-bob/);
    for (const [who, own, other] of [
      ["alice", "frag-alice", "frag-bob"],
      ["alice2", "frag-alice", "frag-bob"],
      ["bob", "frag-bob", "frag-alice"],
    ]) {
      expect(pages[who]).toContain(own);
      expect(pages[who]).not.toContain(other);
    }
    expect(pages.anonymous).not.toMatch(/frag-alice|frag-bob/);
  });

  it("on every signed-in page each sees only their own name, whoever asked first", async () => {
    for (const path of ["/homepage", "/datasetPreview", "/history", "/submission", "/leaderboard?page=1"]) {
      for (const [client, own, other] of [
        [bob, "frag-bob", "frag-alice"],
        [alice, "frag-alice", "frag-bob"],
      ] as const) {
        const res = await client.request(path, { headers: DOCUMENT });
        expect(res.status, path).toBe(200);
        const html = await res.text();
        expect(html, path).toContain(own);
        expect(html, path).not.toContain(other);
      }
    }
    // A client-side navigation's data carries the fragment's markup, and still no one else's name.
    const data = await (await alice.get("/leaderboard.data")).text();
    expect(data).toContain("board-overall");
    expect(data).not.toContain("frag-bob");
  });

  it("the cached page in br, gzip and identity is one page, with Vary; a signed-in page varies too", async () => {
    await raw("/leaderboard", { ...DOCUMENT, "Accept-Encoding": "identity" }); // fills the cache
    await new Promise((r) => setTimeout(r, 300)); // its codings are made right after
    const br = await raw("/leaderboard", { ...DOCUMENT, "Accept-Encoding": "gzip, deflate, br" });
    const gz = await raw("/leaderboard", { ...DOCUMENT, "Accept-Encoding": "gzip" });
    const plain = await raw("/leaderboard", { ...DOCUMENT, "Accept-Encoding": "identity" });
    expect([br, gz, plain].map((r) => r.headers["x-page-cache"])).toEqual(["hit", "hit", "hit"]);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(zlib.gunzipSync(gz.body).equals(plain.body)).toBe(true);
    for (const r of [br, gz, plain]) expect(r.headers.vary).toMatch(/Accept-Encoding.*Accept-Language.*Cookie/);
    // The document without its plots stays small (they are images of their own).
    expect(plain.body.length).toBeLessThan(100 * 1024);
    const cookie = [...alice.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const signedIn = await raw("/leaderboard", { ...DOCUMENT, "Accept-Encoding": "gzip, deflate, br", Cookie: cookie });
    expect(signedIn.headers["x-page-cache"]).toBeUndefined();
    expect(signedIn.headers["content-encoding"]).toBe("br");
    expect(signedIn.headers.vary).toMatch(/Accept-Encoding/);
    expect(zlib.brotliDecompressSync(signedIn.body).toString()).toContain("frag-alice");
  });

  it("a plot is an SVG of its own, compressed, with an ETag that revalidates", async () => {
    const html = plainText(await raw("/leaderboard", { ...DOCUMENT, "Accept-Encoding": "identity" }));
    const src = html.match(/<img src="(\/leaderboard\/plots\/heatmap\.svg\?[^"]+)"[^>]*loading="lazy"[^>]*alt="[^"]+"/)?.[1].replaceAll("&amp;", "&");
    expect(src).toBeTruthy();
    const svg = await raw(src!, { "Accept-Encoding": "gzip" });
    expect(svg.headers["content-type"]).toMatch(/^image\/svg\+xml/);
    expect(svg.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(svg.body).toString()).toMatch(/<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect((await raw(src!, { "If-None-Match": String(svg.headers.etag) })).status).toBe(304);
    expect((await raw("/leaderboard/plots/heatmap.svg?suite=no-such-board&lng=en", {})).status).toBe(404);
  });
});

const plainText = (r: { body: Buffer }) => r.body.toString("utf8");
