// Content codings for answers made once and sent many times: the page cache's entries
// (server/pageCache.ts) and the built static files (server/compression.ts). Each body is
// compressed once, off the event loop, in the two codings browsers ask for, and every request
// gets the one its Accept-Encoding prefers (docs/performance.md "Encodings").
import zlib from "node:zlib";
import { promisify } from "node:util";

export type Coding = "br" | "gzip" | "identity";

/**
 * Brotli quality of bodies compressed once (docs/performance.md "Encodings", measured with
 * bench/brotli.ts on the leaderboard and home page): 11 costs several times the time of 9 for
 * ~2 % fewer bytes, but it is paid once per entry, off the event loop, so the smaller body wins.
 */
export const STORED_BROTLI_QUALITY = 11;
/** gzip level of bodies compressed once: 9 is still a few milliseconds on a page. */
export const STORED_GZIP_LEVEL = 9;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * The coding an Accept-Encoding header prefers among br and gzip (RFC 9110 §12.5.3): the highest
 * q-value wins, br before gzip when equal, `*` stands for any coding not named, q=0 refuses.
 * Without either (no header, `identity`, `deflate` only) the body goes as it is.
 */
export function chooseEncoding(header: string | string[] | undefined): Coding {
  const value = Array.isArray(header) ? header.join(",") : header;
  if (!value) return "identity";
  const q = new Map<string, number>();
  for (const part of value.split(",")) {
    const [name, ...params] = part.split(";");
    let coding = name.trim().toLowerCase();
    if (!coding) continue;
    if (coding === "x-gzip") coding = "gzip";
    let quality = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) quality = Number(m[1]);
    }
    q.set(coding, Number.isFinite(quality) ? Math.min(1, quality) : 0);
  }
  const of = (c: string) => q.get(c) ?? q.get("*") ?? 0;
  const br = of("br");
  const gz = of("gzip");
  if (br <= 0 && gz <= 0) return "identity";
  return br >= gz ? "br" : "gzip";
}

export interface EncodedBodies {
  br: Buffer;
  gzip: Buffer;
}

/** Both compressed forms of a body, made in libuv's thread pool (the event loop keeps answering). */
export async function encodeBodies(body: Buffer): Promise<EncodedBodies> {
  const [b, g] = await Promise.all([
    brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: STORED_BROTLI_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzip(body, { level: STORED_GZIP_LEVEL }),
  ]);
  return { br: b, gzip: g };
}

/** Adds `names` to the answer's Vary header, keeping what is there. */
export function addVary(current: string | number | string[] | undefined, ...names: string[]): string {
  const have = String(Array.isArray(current) ? current.join(",") : (current ?? ""))
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (have.includes("*")) return "*";
  const lower = new Set(have.map((h) => h.toLowerCase()));
  for (const n of names) {
    if (lower.has(n.toLowerCase())) continue;
    have.push(n);
    lower.add(n.toLowerCase());
  }
  return have.join(", ");
}
