// The one time-limited cache of app/.server (timedCache.server.ts): a value is read once per
// lifetime, a failed read keeps nothing, and the last value stays readable for pages that show it
// when the sidecar does not answer.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { timedCache } from "../../app/.server/timedCache.server.ts";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("timedCache", () => {
  it("reads once per lifetime, again after it, and after clear()", async () => {
    let reads = 0;
    const cache = timedCache(60_000, async () => ++reads);
    expect(cache.last()).toBeNull();
    expect(await cache.get()).toBe(1);
    vi.advanceTimersByTime(59_999);
    expect(await cache.get()).toBe(1);
    vi.advanceTimersByTime(1);
    expect(await cache.get()).toBe(2);
    cache.clear();
    expect(cache.last()).toBeNull();
    expect(await cache.get()).toBe(3);
  });

  it("keeps nothing from a failed read and still has the last value", async () => {
    let fail = false;
    const cache = timedCache(1_000, async () => {
      if (fail) throw new Error("no sidecar");
      return "info";
    });
    expect(await cache.get()).toBe("info");
    fail = true;
    vi.advanceTimersByTime(1_000);
    await expect(cache.get()).rejects.toThrow("no sidecar");
    expect(cache.last()).toBe("info");
    fail = false;
    expect(await cache.get()).toBe("info");
  });
});
