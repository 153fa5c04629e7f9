// Server-render latency of the public and signed-in pages, against the real built app in
// production mode (React's production build) on a fresh SQLite database. Prints p50/p95/max
// per page and requests per second, and the same for the loader data alone (.data requests)
// so rendering and data can be told apart.
// Run: npx remix vite:build && node --import tsx bench/pages.ts [requestsPerPage]
import { performance } from "node:perf_hooks";
import { startStack } from "../tests/support/stack.ts";
import { Client } from "../tests/support/client.ts";

const N = Number(process.argv[2] ?? 200);
const PUBLIC = ["/homepage", "/Algorithm", "/document", "/signin", "/leaderboard", "/datasetPreview"];
const SIGNED_IN = ["/profile", "/history", "/submission"];

const dataOf = (path: string) => `${path}.data`;
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

const stack = await startStack({ db: "sqlite", sidecar: false, env: { NODE_ENV: "production" } });
try {
  const anon = new Client(stack.baseUrl);
  // Production refuses the fixed test captcha, so the signed-in client gets its session
  // the way a login would create it: a user row and a session row, through the app's own module.
  process.env.DATABASE_URL = stack.dbUrl;
  const { User } = await import("../models/index.ts");
  const { startSession } = await import("../app/.server/session.server.ts");
  const u = await User.create({ username: "bench-user", passwordHash: "x", telephone: "13800138000", institute: "Bench" });
  const user = new Client(stack.baseUrl);
  const [pair] = (await startSession(u, new Request(stack.baseUrl))).split(";");
  user.cookies.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
  const rows = [];
  for (const p of PUBLIC) rows.push(await measure(anon, p), await measure(anon, dataOf(p)));
  for (const p of SIGNED_IN) rows.push(await measure(user, p), await measure(user, dataOf(p)));
  console.log(`pages: ${N} sequential requests each, NODE_ENV=production; "X.data" = the loader data alone (no HTML render)`);
  console.log("path".padEnd(22), "status", "p50 ms".padStart(8), "p95 ms".padStart(8), "max ms".padStart(8), "req/s".padStart(8));
  for (const r of rows)
    console.log(
      r.path.padEnd(22),
      String(r.status).padStart(6),
      r.p50.toFixed(1).padStart(8),
      r.p95.toFixed(1).padStart(8),
      r.max.toFixed(1).padStart(8),
      r.rps.toFixed(0).padStart(8),
    );
} finally {
  await stack.stop();
}
