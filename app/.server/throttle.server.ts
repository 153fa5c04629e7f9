import { LoginThrottle } from "./db.server.ts";

// After MAX_FAILURES failed logins within WINDOW_MS for one username (or MAX_FAILURES_PER_IP
// for one address, which many people may share behind a NAT), that key is refused for LOCK_MS.
export const MAX_FAILURES = 5;
export const MAX_FAILURES_PER_IP = 20;
const WINDOW_MS = 15 * 60_000;
const LOCK_MS = 5 * 60_000;

export const keysFor = (username: string, ip: string) => [`user:${username.toLowerCase()}`, `ip:${ip}`];

/** Seconds until the first locked key unlocks, or 0 when the attempt may proceed. */
export async function lockedFor(keys: string[]): Promise<number> {
  const rows = await LoginThrottle.findAll({ where: { key: keys } });
  const now = Date.now();
  const until = Math.max(0, ...rows.map((r) => r.lockedUntil?.getTime() ?? 0));
  return until > now ? Math.ceil((until - now) / 1000) : 0;
}

export async function recordFailure(keys: string[]): Promise<void> {
  const now = new Date();
  for (const key of keys) {
    const row = await LoginThrottle.findByPk(key);
    if (!row || now.getTime() - row.windowStart.getTime() > WINDOW_MS) {
      await LoginThrottle.upsert({ key, failures: 1, windowStart: now, lockedUntil: null });
      continue;
    }
    const failures = row.failures + 1;
    const limit = key.startsWith("ip:") ? MAX_FAILURES_PER_IP : MAX_FAILURES;
    await row.update({ failures, lockedUntil: failures >= limit ? new Date(now.getTime() + LOCK_MS) : row.lockedUntil });
  }
}

export async function clearFailures(keys: string[]): Promise<void> {
  await LoginThrottle.destroy({ where: { key: keys } });
}
