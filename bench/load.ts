// Throughput under load: autocannon against the built app in production mode, for /healthz (the
// same Express process answering without rendering: the reference) and the pages visitors load
// most, requested the way browsers request them (Accept: text/html, Accept-Encoding: gzip,
// deflate, br; docs/performance.md "Load"):
//   - anonymous visitors, 50 connections: the public pages (page cache on, and off with PAGE_CACHE=0);
//   - a signed-in researcher, 20 connections: the same pages with their personal top bar, and
//     the researcher's own pages (/history, /submission).
// Prints requests/s, p99 latency, the bytes of one answer, the ratio to /healthz of the same run,
// and the time to first byte of single requests on the otherwise idle app (a miss when the page
// cache is off).
// Run: npx remix vite:build && node --import tsx bench/load.ts [seconds-per-page] [on|off|signed-in ...]
import os from "node:os";
import autocannon from "autocannon";
import { startStack } from "../tests/support/stack.ts";
import crypto from "node:crypto";
import { createCookie } from "@remix-run/node";
import { createSequelize } from "../models/db.ts";

const SECONDS = Number(process.argv[2] ?? 5);
const RUNS = process.argv.slice(3).length ? process.argv.slice(3) : ["on", "off", "signed-in"];
const ANONYMOUS = ["/healthz", "/homepage", "/leaderboard", "/datasetPreview", "/document"];
/** Web processes of the benchmarked app (server/cluster.ts); WEB_PROCESSES=2 measures both cores. */
const WEB_PROCESSES = Number(process.env.WEB_PROCESSES) || 1;
const SIGNED_IN = ["/healthz", "/leaderboard", "/homepage", "/history", "/submission", "/datasetPreview"];
/** What Chromium sends for a page (the headers that choose the answer). */
const BROWSER = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": "gzip, deflate, br",
  "accept-language": "en",
  "sec-fetch-dest": "document",
  "sec-fetch-mode": "navigate",
};

async function load(url: string, connections: number, headers: Record<string, string>) {
  const r = await autocannon({ url, connections, duration: SECONDS, headers });
  return { rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

/**
 * Time to first byte of one request at a time (no other load), median and 90th percentile of 30:
 * with the page cache off every answer is a miss, so this is what a first visitor after a write waits.
 */
async function firstByte(url: string, headers: Record<string, string>) {
  const http = await import("node:http");
  const times: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t0 = performance.now();
    await new Promise<void>((resolve, reject) => {
      http
        .get(url, { headers }, (res) => {
          res.once("data", () => times.push(performance.now() - t0));
          res.on("end", resolve);
          res.resume();
        })
        .on("error", reject);
    });
  }
  times.sort((a, b) => a - b);
  return `${times[14].toFixed(1)}/${times[26].toFixed(1)}`;
}

/** The answer's size as sent (compressed) and the document's own size. */
async function sizes(url: string, headers: Record<string, string>) {
  const sent = await fetch(url, { headers: { ...headers, "accept-encoding": "identity" } });
  const raw = (await sent.arrayBuffer()).byteLength;
  const http = await import("node:http");
  const wire = await new Promise<{ bytes: number; encoding: string }>((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let bytes = 0;
        res.on("data", (c: Buffer) => (bytes += c.length));
        res.on("end", () => resolve({ bytes, encoding: String(res.headers["content-encoding"] ?? "identity") }));
      })
      .on("error", reject);
  });
  return { raw, ...wire };
}

/** The session secret of the benchmarked app, so the bench can sign a session cookie itself. */
const SECRET = crypto.randomBytes(32).toString("hex");

/**
 * A signed-in researcher's cookie. Production mode keeps captchas random, so the bench writes
 * the user and its session row itself (app/.server/session.server.ts: the cookie carries a
 * token whose SHA-256 is the row's id) and signs the cookie with the app's secret.
 */
async function researcherCookie(dbUrl: string): Promise<string> {
  const db = createSequelize(dbUrl);
  const now = new Date();
  await db.query(
    "INSERT INTO users (username, username_key, password_hash, telephone, institute, authority, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?)",
    { replacements: ["bench-researcher", "bench-researcher", "x", "13800138000", "Bench University", now, now] },
  );
  const [[user]] = (await db.query("SELECT id FROM users WHERE username = 'bench-researcher'")) as [{ id: number }[], unknown];
  const token = crypto.randomBytes(32).toString("hex");
  await db.query("INSERT INTO sessions (id, user_id, expires_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?)", {
    replacements: [crypto.createHash("sha256").update(token).digest("hex"), user.id, new Date(Date.now() + 86_400_000), now, now],
  });
  await db.close();
  const cookie = await createCookie("mr_session", { secrets: [SECRET], path: "/", httpOnly: true, sameSite: "lax" }).serialize(token);
  return cookie.split(";")[0];
}

const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;

console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")} on ${os.cpus().length} cores; ${SECONDS} s per page; ${WEB_PROCESSES} web process(es)`,
);
for (const run of RUNS) {
  const stack = await startStack({
    db: "sqlite",
    sidecar: false,
    webProcesses: WEB_PROCESSES,
    env: { NODE_ENV: "production", PAGE_CACHE: run === "off" ? "0" : "1", LOG_LEVEL: "warn", SESSION_SECRET: SECRET },
  });
  try {
    const signedIn = run === "signed-in";
    const connections = signedIn ? 20 : 50;
    const headers: Record<string, string> = { ...BROWSER };
    if (signedIn) headers.cookie = await researcherCookie(stack.dbUrl);
    console.log(`\n${signedIn ? "signed-in researcher" : `anonymous, page cache ${run}`} (${connections} connections, browser headers)`);
    console.log(
      "page".padEnd(18),
      "req/s".padStart(8),
      "p99 ms".padStart(8),
      "vs /healthz".padStart(12),
      "document".padStart(10),
      "sent".padStart(14),
      "TTFB ms p50/p90".padStart(16),
    );
    let reference = 0;
    for (const page of signedIn ? SIGNED_IN : ANONYMOUS) {
      await load(stack.baseUrl + page, connections, headers); // warm-up (fills the cache, JIT)
      const r = await load(stack.baseUrl + page, connections, headers);
      if (page === "/healthz") reference = r.rps;
      const s = await sizes(stack.baseUrl + page, headers);
      const ttfb = await firstByte(stack.baseUrl + page, headers);
      const ratio = reference ? `${((r.rps / reference) * 100).toFixed(1)} %` : "";
      console.log(
        page.padEnd(18),
        r.rps.toFixed(0).padStart(8),
        String(r.p99).padStart(8),
        ratio.padStart(12),
        kb(s.raw).padStart(10),
        `${kb(s.bytes)} ${s.encoding}`.padStart(14),
        ttfb.padStart(16),
        r.non2xx || r.errors ? `(${r.non2xx} non-2xx, ${r.errors} errors)` : "",
      );
    }
  } finally {
    await stack.stop();
  }
}
console.log(
  `\nload average after: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")}`,
);
