// Bodies rendered once and answered many times: the leaderboard's plots (SVG resources,
// app/routes/board/plot.ts) and the fragments of pages every viewer shares
// (app/.server/fragments.server.ts). A key names what was rendered and embeds the content
// version and the language, so a write or a language switch is a new key, never a stale body
// (docs/performance.md "Plots" and "Fragments"). Least recently used entries go first.
import crypto from "node:crypto";
import { chooseEncoding, encodeBodies, type EncodedBodies } from "../../server/encoding.ts";

export interface RenderedBody {
  /** The rendered text, and its UTF-8 bytes. */
  text: string;
  body: Buffer;
  etag: string;
  /** Brotli and gzip forms, made once in the thread pool (null until then). */
  encoded: EncodedBodies | null;
  encoding: Promise<EncodedBodies | null> | null;
}

export class RenderedCache {
  private entries = new Map<string, RenderedBody>();
  private inFlight = new Map<string, Promise<RenderedBody>>();
  private bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The body of `key`, rendered by `render` when it is not kept (once, however many ask at the same time). */
  async get(key: string, render: () => Promise<string> | string, opts: { compress?: boolean } = {}): Promise<RenderedBody> {
    const kept = this.entries.get(key);
    if (kept) {
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept;
    }
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const made = (async () => {
      const text = await render();
      const body = Buffer.from(text, "utf8");
      const entry: RenderedBody = {
        text,
        body,
        etag: `W/"${crypto.createHash("sha256").update(key).update(body).digest("base64url").slice(0, 27)}"`,
        encoded: null,
        encoding: null,
      };
      if (opts.compress) {
        entry.encoding = encodeBodies(body).then(
          (done) => {
            entry.encoded = done;
            if (this.entries.get(key) === entry) {
              this.bytes += done.br.length + done.gzip.length;
              this.evict();
            }
            return done;
          },
          () => null,
        );
      }
      this.entries.set(key, entry);
      this.bytes += body.length * 2;
      this.evict();
      return entry;
    })();
    this.inFlight.set(key, made);
    try {
      return await made;
    } finally {
      this.inFlight.delete(key);
    }
  }

  private evict() {
    for (const [key, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(key);
      this.bytes -= e.body.length * 2 + (e.encoded ? e.encoded.br.length + e.encoded.gzip.length : 0);
    }
  }
}

/**
 * The answer for a kept body: 304 when the browser has it (If-None-Match), else the body in the
 * coding its Accept-Encoding prefers. `Vary: Accept-Encoding` either way; the streaming
 * compression middleware leaves an answer that already has a Content-Encoding alone.
 */
export function answerRendered(request: Request, entry: RenderedBody, headers: Record<string, string>): Response {
  const common = { ...headers, ETag: entry.etag, Vary: "Accept-Encoding" };
  if (request.headers.get("If-None-Match") === entry.etag) return new Response(null, { status: 304, headers: common });
  const coding = chooseEncoding(request.headers.get("Accept-Encoding") ?? undefined);
  // Until its codings are made (a moment after it is rendered) the body goes out as it is, through
  // the streaming compression middleware: no answer waits for the thread pool.
  const encoded = coding === "identity" ? null : entry.encoded;
  if (encoded && coding !== "identity") {
    return new Response(encoded[coding], { headers: { ...common, "Content-Encoding": coding, "Content-Length": String(encoded[coding].length) } });
  }
  return new Response(entry.body, { headers: { ...common, "Content-Length": String(entry.body.length) } });
}
