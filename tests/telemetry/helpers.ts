// Shared by the telemetry tests: the fake nvidia-smi, free ports, a recording HTTP app.
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const FAKE_SMI_DIR = path.join(REPO_ROOT, "tests/fixtures/nvidia-smi/bin");
export const FAKE_SMI = path.join(FAKE_SMI_DIR, "nvidia-smi");

/** Options for the nvidiaSmi readers that run the fake executable in one scenario. */
export function fakeSmi(scenario: string, extra: Partial<{ timeoutMs: number }> = {}) {
  return { binary: FAKE_SMI, env: { ...process.env, FAKE_NVIDIA_SMI_SCENARIO: scenario }, ...extra };
}

export { freePort } from "../support/stack.ts";

export interface RecordedPost {
  path: string;
  body: any;
  at: number;
}

/** A stand-in for the web app's heartbeat endpoint: records POSTs, answers per `statusFor`. */
export async function recordingApp(statusFor: (n: number) => number) {
  const posts: RecordedPost[] = [];
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        /* keep the raw text; the test will show it */
      }
      posts.push({ path: req.url ?? "", body, at: Date.now() });
      const status = statusFor(posts.length);
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(status === 200 ? { ok: true } : { ok: false, error: "invalid credentials" }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    posts,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export async function waitFor<T>(what: string, fn: () => T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
