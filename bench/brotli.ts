// Which brotli quality the page cache and the plots store their bodies at (server/encoding.ts,
// docs/performance.md "Encodings"): each cached page of a fresh stack compressed at brotli 4–11
// and gzip 6 and 9, the milliseconds one compression takes (median of 5) and the bytes it sends.
// A stored body is compressed once per content version and sent many times, so the smallest body
// wins unless its time is out of proportion.
// Run: npx remix vite:build && node --import tsx bench/brotli.ts
import zlib from "node:zlib";
import { startStack } from "../tests/support/stack.ts";

const PAGES = ["/leaderboard", "/homepage", "/datasetPreview", "/document"];
const stack = await startStack({ db: "sqlite", sidecar: false, env: { NODE_ENV: "production", LOG_LEVEL: "warn" } });
const bodies: [string, Buffer][] = [];
try {
  for (const page of PAGES) {
    const html = Buffer.from(
      await (
        await fetch(stack.baseUrl + page, { headers: { "accept-encoding": "identity", accept: "text/html", "sec-fetch-dest": "document" } })
      ).arrayBuffer(),
    );
    bodies.push([page, html]);
  }
  const svg = (await (await fetch(stack.baseUrl + "/leaderboard")).text()).match(/src="(\/leaderboard\/plots\/agreement\.svg[^"]+)"/)?.[1];
  if (svg) bodies.push(["agreement.svg", Buffer.from(await (await fetch(stack.baseUrl + svg.replaceAll("&amp;", "&"))).arrayBuffer())]);
} finally {
  await stack.stop();
}

const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function time(f: () => Buffer): { ms: number; bytes: number } {
  let bytes = 0;
  const ms = median(
    Array.from({ length: 5 }, () => {
      const t = process.hrtime.bigint();
      bytes = f().length;
      return Number(process.hrtime.bigint() - t) / 1e6;
    }),
  );
  return { ms, bytes };
}

const settings: [string, (b: Buffer) => Buffer][] = [
  ...[4, 5, 6, 7, 8, 9, 10, 11].map((q): [string, (b: Buffer) => Buffer] => [
    `br ${q}`,
    (b) =>
      zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: q, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } }),
  ]),
  ["gzip 6", (b) => zlib.gzipSync(b, { level: 6 })],
  ["gzip 9", (b) => zlib.gzipSync(b, { level: 9 })],
];
console.log("coding".padEnd(8), ...bodies.map(([p, b]) => `${p} (${(b.length / 1024).toFixed(0)} KB)`.padStart(30)));
for (const [name, f] of settings) {
  console.log(
    name.padEnd(8),
    ...bodies.map(([, b]) => {
      const r = time(() => f(b));
      return `${r.ms.toFixed(1)} ms ${(r.bytes / 1024).toFixed(1)} KB`.padStart(30);
    }),
  );
}
