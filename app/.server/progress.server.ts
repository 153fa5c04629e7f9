// Progress of a request that is still running (the /tcav page's TCAV run: app/routes/demos/concepts.tsx),
// read by the page while its form is submitting. The page makes up a random key and sends it with
// the form; the action reports under that key, and the resource route /tcav/progress answers it.
// The poll may reach another web process than the one running the request (server/cluster.ts,
// docs/architecture.md "Several web processes"), so the numbers are kept where every process
// reads them (shared.server.ts: Redis, else the primary of this machine's processes); they matter
// only while the request runs and expire.
import { getValue, putValue, removeValue } from "./shared.server.ts";

const TTL_MS = 10 * 60_000;

export interface Progress {
  done: number;
  total: number;
}

/** A key the page may send: random, URL-safe, bounded. */
export const PROGRESS_KEY = /^[A-Za-z0-9_-]{16,64}$/;

const stored = (key: string) => `progress:${key}`;

export function reportProgress(key: string, done: number, total: number): void {
  if (!PROGRESS_KEY.test(key)) return;
  void putValue(stored(key), { done, total } satisfies Progress, TTL_MS).catch(() => undefined);
}

export async function readProgress(key: string): Promise<Progress | null> {
  if (!PROGRESS_KEY.test(key)) return null;
  const v = (await getValue(stored(key)).catch(() => null)) as Progress | null;
  return v && typeof v.done === "number" && typeof v.total === "number" ? { done: v.done, total: v.total } : null;
}

export function clearProgress(key: string): void {
  void removeValue(stored(key)).catch(() => undefined);
}
