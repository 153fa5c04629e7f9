// Progress of a request that is still running in this process (the /tcav page's TCAV run:
// app/routes/tcav.tsx), read by the page while its form is submitting. The page makes up a
// random key and sends it with the form; the action reports under that key, and the resource
// route /tcav/progress answers it. Kept in memory: it matters only while the request runs, in
// the process that runs it (the app is one process, docs/architecture.md); entries expire.
const TTL_MS = 10 * 60_000;
const MAX_ENTRIES = 5_000;

export interface Progress {
  done: number;
  total: number;
}

/** A key the page may send: random, URL-safe, bounded. */
export const PROGRESS_KEY = /^[A-Za-z0-9_-]{16,64}$/;

const entries = new Map<string, Progress & { at: number }>();

function sweep(now: number) {
  for (const [k, v] of entries) if (now - v.at > TTL_MS) entries.delete(k);
  // Still too many (a flood of keys): drop the oldest; Map keeps insertion order.
  for (const k of entries.keys()) {
    if (entries.size <= MAX_ENTRIES) break;
    entries.delete(k);
  }
}

export function reportProgress(key: string, done: number, total: number): void {
  if (!PROGRESS_KEY.test(key)) return;
  const now = Date.now();
  entries.delete(key);
  entries.set(key, { done, total, at: now });
  if (entries.size > MAX_ENTRIES) sweep(now);
}

export function readProgress(key: string): Progress | null {
  const e = entries.get(key);
  if (!e || Date.now() - e.at > TTL_MS) return null;
  return { done: e.done, total: e.total };
}

export function clearProgress(key: string): void {
  entries.delete(key);
}
