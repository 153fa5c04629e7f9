// One value read from a compute server and kept for a while: the demos' model lists, the crack
// detector's figures, the tree form's options, the concept catalogue. Each is per web process on
// purpose (docs/architecture.md "Several web processes": short-lived lists read from sidecars),
// and a restarted sidecar's new checkpoints show after the lifetime at the latest.

/** How long a sidecar's model list is kept: checkpoints do not change under a running app. */
export const MODEL_LIST_TTL_MS = 60_000;

export interface TimedCache<T> {
  /** The kept value while it is younger than the lifetime, else `load()`'s (kept from when it answers). */
  get(): Promise<T>;
  /** The last value loaded, however old (null before the first): what a page shows when the sidecar does not answer. */
  last(): T | null;
  /** Forget the value (a test, or a sidecar known to serve new checkpoints). */
  clear(): void;
}

/** A value that `load` reads and that is kept `ttlMs` milliseconds; a failed load keeps nothing and throws. */
export function timedCache<T>(ttlMs: number, load: () => Promise<T>): TimedCache<T> {
  let kept: { at: number; value: T } | null = null;
  return {
    async get() {
      if (kept && Date.now() - kept.at < ttlMs) return kept.value;
      const value = await load();
      kept = { at: Date.now(), value };
      return value;
    },
    last: () => kept?.value ?? null,
    clear() {
      kept = null;
    },
  };
}
