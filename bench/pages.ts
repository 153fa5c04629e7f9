// Server-render latency of the public and signed-in pages, against the real built app on
// a fresh SQLite database. Prints p50/p95/max per page and requests per second.
// Run: npx remix vite:build && node --import tsx bench/pages.ts [requestsPerPage]
import { performance } from "node:perf_hooks";
import { startStack } from "../tests/support/stack.ts";
import { Client } from "../tests/support/client.ts";
import { register, login } from "../tests/support/accounts.ts";

const N = Number(process.argv[2] ?? 200);
const PUBLIC = ["/homepage", "/Algorithm", "/document", "/signin", "/leaderboard", "/datasetPreview"];
const SIGNED_IN = ["/profile", "/history", "/submission"];

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function measure(c: Client, path: string) {
  for (let i = 0; i < 10; i++) await (await c.get(path)).arrayBuffer(); // warm-up
  const times: number[] = [];
  let status = 0;
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const s = performance.now();
    const res = await c.get(path);
    await res.arrayBuffer();
    status = res.status;
    times.push(performance.now() - s);
  }
  const total = performance.now() - t0;
  times.sort((a, b) => a - b);
  return { path, status, p50: pct(times, 50), p95: pct(times, 95), max: times.at(-1)!, rps: (N / total) * 1000 };
}

const stack = await startStack({ db: "sqlite" });
try {
  const anon = new Client(stack.baseUrl);
  const user = new Client(stack.baseUrl);
  await register(user, "bench-user");
  await login(user, "bench-user");
  const rows = [];
  for (const p of PUBLIC) rows.push(await measure(anon, p));
  for (const p of SIGNED_IN) rows.push(await measure(user, p));
  console.log(`pages: ${N} sequential requests each (one client, keep-alive off), server-rendered HTML incl. DB session lookup`);
  console.log("path".padEnd(18), "status", "p50 ms".padStart(8), "p95 ms".padStart(8), "max ms".padStart(8), "req/s".padStart(8));
  for (const r of rows)
    console.log(r.path.padEnd(18), String(r.status).padStart(6), r.p50.toFixed(1).padStart(8), r.p95.toFixed(1).padStart(8), r.max.toFixed(1).padStart(8), r.rps.toFixed(0).padStart(8));
} finally {
  await stack.stop();
}
