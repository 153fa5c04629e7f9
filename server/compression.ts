// Response compression (docs/performance.md "Encodings"). Three kinds of answers:
//   - the page cache's entries carry their own brotli and gzip bodies (server/pageCache.ts);
//   - the built static files (build/client: scripts, styles, fonts' CSS, SVGs) are compressed
//     once each, in both codings, the first time one is asked for, and then served from memory
//     until the file changes (a new build): no request after the first compresses a file again;
//   - everything else (pages rendered per request) is compressed as it streams out by the
//     `compression` middleware, brotli at quality 4 (its default, a fast level: these bodies
//     are compressed once per request).
import fs from "node:fs";
import path from "node:path";
import express, { type RequestHandler } from "express";
import compression from "compression";
import { addVary, chooseEncoding, encodeBodies, type EncodedBodies } from "./encoding.ts";

/** Files whose bytes compress (fonts as woff2, images as PNG/JPEG are compressed already). */
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|html|txt|map|xml|webmanifest|ico|ttf|otf)$/i;
/** Larger files are left to the streaming middleware (the build's largest chunk is well below). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;

interface StaticEntry {
  mtimeMs: number;
  size: number;
  encoded: EncodedBodies | null;
}

export interface CompressionOptions {
  /** The folder express.static serves (build/client); null: no precompressed static files (Vite's dev server). */
  staticRoot: string | null;
  /** Total bytes of compressed static files kept. */
  maxStaticBytes?: number;
}

/**
 * Compression for the whole app: static files compressed once and kept, then the streaming
 * middleware for the rest. Mount where `compression()` was, before the static handlers.
 */
export function responseCompression(opts: CompressionOptions): RequestHandler {
  const streaming = compression();
  if (!opts.staticRoot) return streaming;
  const root = path.resolve(opts.staticRoot);
  const maxBytes = opts.maxStaticBytes ?? 32 * 1024 * 1024;
  const files = new Map<string, StaticEntry>();
  const pending = new Set<string>();
  let bytes = 0;
  const mime = express.static.mime;

  const fileOf = (urlPath: string): string | null => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return null;
    }
    if (decoded.includes("\0") || !COMPRESSIBLE.test(decoded)) return null;
    const file = path.join(root, decoded);
    return file.startsWith(root + path.sep) ? file : null;
  };

  const precompressed: RequestHandler = (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const file = fileOf(req.path);
    if (!file) return next();
    const coding = chooseEncoding(req.headers["accept-encoding"]);
    if (coding === "identity") return next();
    fs.stat(file, (err, stat) => {
      if (err || !stat.isFile() || stat.size > MAX_FILE_BYTES) return next();
      const known = files.get(file);
      if (known && known.mtimeMs === stat.mtimeMs && known.size === stat.size && known.encoded) {
        const body = known.encoded[coding];
        // The headers express.static would send (server.ts: hashed /assets are immutable).
        const immutable = req.path.startsWith("/assets/");
        const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
        res.setHeader("Vary", addVary(res.getHeader("Vary"), "Accept-Encoding"));
        res.setHeader("ETag", etag);
        res.setHeader("Last-Modified", stat.mtime.toUTCString());
        res.setHeader("Cache-Control", immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600");
        if (req.headers["if-none-match"] === etag) return void res.status(304).end();
        const type = mime.lookup(file);
        const charset = mime.charsets.lookup(type, "");
        res.setHeader("Content-Type", charset ? `${type}; charset=${charset}` : type);
        res.setHeader("Content-Encoding", coding);
        res.setHeader("Content-Length", String(body.length));
        return void res.status(200).end(req.method === "HEAD" ? undefined : body);
      }
      // The first request of this version of the file is answered by the streaming middleware;
      // its two codings are made meanwhile, in the thread pool, once.
      if (!pending.has(file)) {
        pending.add(file);
        fs.promises
          .readFile(file)
          .then(encodeBodies)
          .then((encoded) => {
            const old = files.get(file);
            if (old?.encoded) bytes -= old.encoded.br.length + old.encoded.gzip.length;
            const size = encoded.br.length + encoded.gzip.length;
            if (bytes + size <= maxBytes) {
              files.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, encoded });
              bytes += size;
            } else files.delete(file);
          })
          .catch(() => undefined)
          .finally(() => pending.delete(file));
      }
      next();
    });
  };
  return (req, res, next) => precompressed(req, res, () => streaming(req, res, next));
}
