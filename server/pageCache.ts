// Rendered-page cache for anonymous visitors (docs/performance.md, "Page cache"). The app says
// which requests qualify and gives each a key that embeds the version of the content it shows
// (app/.server/publicPages.server.ts); this middleware answers repeats from memory and answers
// a browser's revalidation (If-None-Match) with 304, so the leaderboard or homepage is rendered
// once per content change and language rather than once per request. Signed-in visitors are
// never served from it (their top bar is personal).
//
// An entry keeps its body in the codings browsers ask for, brotli and gzip, compressed once when
// the entry is made (server/encoding.ts), so a hit costs no compression at all. The stored body
// is therefore sent byte for byte to everyone: instead of a per-answer nonce, its inline scripts
// are allowed by their SHA-256 hashes in the Content-Security-Policy of each answer
// (docs/security.md, "Headers"); the nonce it was rendered with is taken out of it.
import crypto from "node:crypto";
import type { RequestHandler, Response } from "express";
import { addVary, chooseEncoding, encodeBodies, type EncodedBodies } from "./encoding.ts";

export interface PageCacheOptions {
  /** The cache key of a request, or null to render it. */
  keyOf(req: { method: string; path: string; url: string; headers: Record<string, string | string[] | undefined> }): Promise<string | null>;
  /** Entries kept (least recently used go first). */
  maxEntries?: number;
  /** Total bytes kept (all codings of every entry). */
  maxBytes?: number;
  /** An entry is rendered again after this long even if no write was seen (writes by other processes). */
  ttlMs?: number;
}

interface Entry {
  etag: string;
  headers: [string, string][];
  /** The `script-src` sources that allow this body's inline scripts: one SHA-256 hash each. */
  scriptHashes: string;
  identity: Buffer;
  /** The compressed bodies, once made (until then, and if that failed, the body streams through compression). */
  encoded: EncodedBodies | null;
  storedAt: number;
  bytes: number;
}

/** Headers a cached answer repeats; per-request ones (cookies, ids, lengths, encodings) are not kept. */
const KEPT_HEADERS = new Set(["content-type", "link", "content-language", "vary"]);
/**
 * What a cached page's content depends on besides its URL: the language comes from
 * Accept-Language or the language cookie, and a session cookie means it is not served from here.
 */
const VARY = ["Accept-Encoding", "Accept-Language", "Cookie"];

/** The body without the nonce it was rendered with, and the hashes of its inline scripts. */
export function neutralisePage(html: string, nonce: string): { html: string; scriptHashes: string } {
  const body = nonce ? html.replaceAll(` nonce="${nonce}"`, "") : html;
  const hashes = new Set<string>();
  // A script element's text is raw text (no character references), so the bytes between its
  // tags are what the browser hashes (CSP Level 3, "Does element match source list").
  for (const m of body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(m[1]) || m[2] === "") continue;
    hashes.add(`'sha256-${crypto.createHash("sha256").update(m[2], "utf8").digest("base64")}'`);
  }
  return { html: body, scriptHashes: [...hashes].join(" ") };
}

export function pageCache(opts: PageCacheOptions): RequestHandler {
  const maxEntries = opts.maxEntries ?? 500;
  const maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
  const ttlMs = opts.ttlMs ?? 30_000;
  const entries = new Map<string, Entry>();
  /**
   * Pages being rendered, by key: the first visitor renders and the others wait for that render
   * instead of each rendering the same page (a burst of first visitors after a write, or after
   * the time-to-live, used to render it once per request until the first one finished).
   */
  const rendering = new Map<string, Promise<void>>();
  let bytes = 0;

  const evict = () => {
    for (const [key, e] of entries) {
      if (entries.size <= maxEntries && bytes <= maxBytes) break;
      entries.delete(key);
      bytes -= e.bytes;
    }
  };
  const store = (key: string, e: Omit<Entry, "encoded" | "bytes">, previous: Entry | undefined) => {
    // The same page again (an entry re-rendered after its time-to-live, or many first visitors
    // rendering it at once): its codings, made or being made, are reused, never made again.
    if (previous && previous.identity.equals(e.identity)) {
      previous.storedAt = e.storedAt;
      entries.delete(key);
      entries.set(key, previous);
      return;
    }
    const entry: Entry = { ...e, encoded: null, bytes: e.identity.length };
    void encodeBodies(e.identity).then(
      (done) => {
        entry.encoded = done;
        if (entries.get(key) === entry) {
          entry.bytes += done.br.length + done.gzip.length;
          bytes += done.br.length + done.gzip.length;
          evict();
        }
      },
      () => undefined,
    );
    if (previous) bytes -= previous.bytes;
    entries.delete(key);
    entries.set(key, entry);
    bytes += entry.bytes;
    evict();
  };

  const send = (res: Response, e: Entry, method: string, ifNoneMatch: string | undefined, acceptEncoding: string | string[] | undefined) => {
    res.setHeader("ETag", e.etag);
    res.setHeader("Cache-Control", "private, no-cache");
    res.setHeader("X-Page-Cache", "hit");
    res.setHeader("Vary", addVary(e.headers.find(([k]) => k === "vary")?.[1], ...VARY));
    if (ifNoneMatch === e.etag) {
      // A 304's headers replace the stored ones in the browser's cache (RFC 9111 §4.3.4), but the
      // body it keeps is the copy it already has: the policy it keeps is the one that allows that
      // copy's scripts, so none is sent (a revisited /leaderboard once lost its JavaScript).
      res.removeHeader("Content-Security-Policy");
      return void res.status(304).end();
    }
    for (const [k, v] of e.headers) if (k !== "vary") res.setHeader(k, v);
    // The stored body is the same for everyone: its scripts are allowed by hash, not by this
    // answer's nonce (server/securityHeaders.ts set the header with one).
    const csp = res.getHeader("Content-Security-Policy");
    if (typeof csp === "string") res.setHeader("Content-Security-Policy", csp.replace(/'nonce-[^']*'/, e.scriptHashes || "'none'"));
    const coding = chooseEncoding(acceptEncoding);
    // Until the entry's codings are made (a moment after it is stored), its body goes out as it is
    // and the streaming middleware compresses it, as it did the miss: no answer waits for them.
    const encoded = coding === "identity" ? null : e.encoded;
    const body = encoded && coding !== "identity" ? encoded[coding] : e.identity;
    if (body !== e.identity) res.setHeader("Content-Encoding", coding);
    // The streaming middleware drops the length when it compresses an identity body.
    res.setHeader("Content-Length", String(body.length));
    res.status(200);
    res.end(method === "HEAD" ? undefined : body);
  };

  return (req, res, next) => {
    opts
      .keyOf(req)
      .then(async (key) => {
        if (!key) return next();
        const ifNoneMatch = req.headers["if-none-match"];
        const inFlight = rendering.get(key);
        if (inFlight) await inFlight;
        const hit = entries.get(key);
        if (hit && Date.now() - hit.storedAt < ttlMs) {
          // Most recently used last, so eviction takes the oldest first.
          entries.delete(key);
          entries.set(key, hit);
          return send(res, hit, req.method, ifNoneMatch, req.headers["accept-encoding"]);
        }
        const etag = `W/"${crypto.createHash("sha256").update(key).digest("base64url").slice(0, 27)}"`;
        if (ifNoneMatch === etag && hit) return send(res, hit, req.method, ifNoneMatch, req.headers["accept-encoding"]);
        // Render, keep a copy of what goes out, store it when it is a complete 200 without cookies.
        // Whoever asks for the key meanwhile waits for this render (a failed or aborted one
        // stores nothing, and they render it themselves).
        let rendered!: () => void;
        const done = new Promise<void>((resolve) => (rendered = resolve));
        const settle = () => {
          if (rendering.get(key) === done) rendering.delete(key);
          rendered();
        };
        rendering.set(key, done);
        res.once("close", settle);
        const chunks: Buffer[] = [];
        const write = res.write.bind(res) as (...a: unknown[]) => boolean;
        const end = res.end.bind(res) as (...a: unknown[]) => Response;
        const take = (chunk: unknown, encoding: unknown) => {
          if (chunk === undefined || chunk === null || typeof chunk === "function") return;
          chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"));
        };
        res.write = ((chunk: unknown, encoding?: unknown, cb?: unknown) => {
          take(chunk, encoding);
          return write(chunk, encoding, cb);
        }) as Response["write"];
        res.end = ((chunk?: unknown, encoding?: unknown, cb?: unknown) => {
          take(chunk, encoding);
          const cacheable = res.statusCode === 200 && !res.getHeader("set-cookie") && req.method === "GET";
          if (cacheable) {
            const nonce = typeof res.locals.cspNonce === "string" ? res.locals.cspNonce : "";
            const page = neutralisePage(Buffer.concat(chunks).toString("utf8"), nonce);
            const headers: [string, string][] = [];
            for (const [k, v] of Object.entries(res.getHeaders())) if (KEPT_HEADERS.has(k) && v !== undefined) headers.push([k, String(v)]);
            store(key, { etag, headers, scriptHashes: page.scriptHashes, identity: Buffer.from(page.html, "utf8"), storedAt: Date.now() }, entries.get(key));
          }
          settle();
          return end(chunk, encoding, cb);
        }) as Response["end"];
        res.setHeader("ETag", etag);
        res.setHeader("Cache-Control", "private, no-cache");
        res.setHeader("X-Page-Cache", "miss");
        res.setHeader("Vary", addVary(res.getHeader("Vary"), ...VARY));
        next();
      })
      .catch(next);
  };
}
