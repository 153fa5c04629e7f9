// Throughput under load: autocannon with 50 connections against the built app in production
// mode, for /healthz (the same Express process answering without rendering: the reference) and
// the public pages, with the page cache on and off (PAGE_CACHE=0), anonymous visitors.
// Prints requests/s, p99 latency and the ratio to /healthz of the same run.
// Run: npx remix vite:build && node --import tsx bench/load.ts [seconds-per-page]
import autocannon from "autocannon";
import { startStack } from "../tests/support/stack.ts";

const SECONDS = Number(process.argv[2] ?? 5);
const PAGES = ["/healthz", "/homepage", "/leaderboard", "/datasetPreview", "/document"];

async function load(url: string) {
  const r = await autocannon({ url, connections: 50, duration: SECONDS, headers: { "accept-encoding": "gzip" } });
  return { rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

for (const cache of ["on", "off"] as const) {
  const stack = await startStack({ db: "sqlite", sidecar: false, env: { NODE_ENV: "production", PAGE_CACHE: cache === "on" ? "1" : "0", LOG_LEVEL: "warn" } });
  try {
    console.log(`\npage cache ${cache} (50 connections, ${SECONDS} s each)`);
    console.log("page".padEnd(18), "req/s".padStart(8), "p99 ms".padStart(8), "vs /healthz".padStart(12));
    let reference = 0;
    for (const page of PAGES) {
      await load(stack.baseUrl + page); // warm-up (fills the cache, JIT)
      const r = await load(stack.baseUrl + page);
      if (page === "/healthz") reference = r.rps;
      const ratio = reference ? `${((r.rps / reference) * 100).toFixed(0)} %` : "";
      console.log(
        page.padEnd(18),
        r.rps.toFixed(0).padStart(8),
        String(r.p99).padStart(8),
        ratio.padStart(12),
        r.non2xx || r.errors ? `(${r.non2xx} non-2xx, ${r.errors} errors)` : "",
      );
    }
  } finally {
    await stack.stop();
  }
}
