// Rendered-page cache for anonymous visitors (docs/performance.md, "Page cache"). The app says
// which requests qualify and gives each a key that embeds the version of the content it shows
// (app/.server/publicPages.server.ts); this middleware answers repeats from memory and answers
// a browser's revalidation (If-None-Match) with 304, so the leaderboard or homepage is rendered
// once per content change and language rather than once per request. Signed-in visitors are
// never served from it (their top bar is personal).
import crypto from "node:crypto";
import type { RequestHandler, Response } from "express";

export interface PageCacheOptions {
  /** The cache key of a request, or null to render it. */
  keyOf(req: { method: string; path: string; url: string; headers: Record<string, string | string[] | undefined> }): Promise<string | null>;
  /** Entries kept (least recently used go first). */
  maxEntries?: number;
  /** Total bytes kept. */
  maxBytes?: number;
  /** An entry is rendered again after this long even if no write was seen (writes by other processes). */
  ttlMs?: number;
}

interface Entry {
  etag: string;
  /** The CSP nonce the stored page was rendered with; each answer gets the request's own instead. */
  nonce: string;
  headers: [string, string][];
  body: Buffer;
  storedAt: number;
}

/** Headers a cached answer repeats; per-request ones (cookies, ids, lengths, encodings) are not kept. */
const KEPT_HEADERS = new Set(["content-type", "link", "content-language", "vary"]);

export function pageCache(opts: PageCacheOptions): RequestHandler {
  const maxEntries = opts.maxEntries ?? 500;
  const maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
  const ttlMs = opts.ttlMs ?? 30_000;
  const entries = new Map<string, Entry>();
  let bytes = 0;

  const evict = () => {
    for (const [key, e] of entries) {
      if (entries.size <= maxEntries && bytes <= maxBytes) break;
      entries.delete(key);
      bytes -= e.body.length;
    }
  };
  const send = (res: Response, e: Entry, method: string, ifNoneMatch: string | undefined) => {
    res.setHeader("ETag", e.etag);
    res.setHeader("Cache-Control", "private, no-cache");
    res.setHeader("X-Page-Cache", "hit");
    if (ifNoneMatch === e.etag) {
      // A 304's headers replace the stored ones in the browser's cache (RFC 9111 §4.3.4), but the
      // body it keeps is the copy it already has, whose scripts carry that copy's nonce: a policy
      // with this request's new nonce would block every script of the page (a revisited
      // /leaderboard lost its JavaScript). Without the header the stored, matching one stays.
      res.removeHeader("Content-Security-Policy");
      return void res.status(304).end();
    }
    for (const [k, v] of e.headers) res.setHeader(k, v);
    res.status(200);
    if (method === "HEAD") return void res.end();
    // A nonce must not repeat across answers: the stored page's is swapped for this response's
    // (server/securityHeaders.ts set it and the matching header).
    const nonce = typeof res.locals.cspNonce === "string" ? res.locals.cspNonce : "";
    res.end(e.nonce && nonce ? Buffer.from(e.body.toString("utf8").replaceAll(`nonce="${e.nonce}"`, `nonce="${nonce}"`)) : e.body);
  };

  return (req, res, next) => {
    opts
      .keyOf(req)
      .then((key) => {
        if (!key) return next();
        const ifNoneMatch = req.headers["if-none-match"];
        const hit = entries.get(key);
        if (hit && Date.now() - hit.storedAt < ttlMs) {
          // Most recently used last, so eviction takes the oldest first.
          entries.delete(key);
          entries.set(key, hit);
          return send(res, hit, req.method, ifNoneMatch);
        }
        const etag = `W/"${crypto.createHash("sha256").update(key).digest("base64url").slice(0, 27)}"`;
        if (ifNoneMatch === etag && hit) return send(res, hit, req.method, ifNoneMatch);
        // Render, keep a copy of what goes out, store it when it is a complete 200 without cookies.
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
            const body = Buffer.concat(chunks);
            const headers: [string, string][] = [];
            for (const [k, v] of Object.entries(res.getHeaders())) if (KEPT_HEADERS.has(k) && v !== undefined) headers.push([k, String(v)]);
            const old = entries.get(key);
            if (old) bytes -= old.body.length;
            entries.set(key, { etag, nonce: typeof res.locals.cspNonce === "string" ? res.locals.cspNonce : "", headers, body, storedAt: Date.now() });
            bytes += body.length;
            evict();
          }
          return end(chunk, encoding, cb);
        }) as Response["end"];
        res.setHeader("ETag", etag);
        res.setHeader("Cache-Control", "private, no-cache");
        res.setHeader("X-Page-Cache", "miss");
        next();
      })
      .catch(next);
  };
}
