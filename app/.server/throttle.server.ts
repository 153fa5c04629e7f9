// Throttles against guessing (docs/security.md "Throttles"): every place a secret is checked goes
// through this module — log-in passwords, the old password of a password change, the admin
// register code (registration and Edit Profile) and sidecar heartbeat passwords. Counters live
// in the app's database (table rate_limits) and are updated atomically by rate-limiter-flexible,
// so parallel guesses cannot slip between a read and a write.
//
// Keys name the guesser as well as the target: a secret of one account (or server entry) is
// counted per client address, never per account alone, so guesses from elsewhere cannot lock its
// owner out; each address has a larger allowance over every target together. After MAX_FAILURES
// failures within WINDOW_S for one key (MAX_FAILURES_PER_IP for an address, which many people may
// share behind a NAT), the key is refused for LOCK_S. A successful attempt clears its target's
// counter but never the address's: an attacker's own account must not reset the lock on the
// address they guess from.
import net from "node:net";
import sqlite3 from "sqlite3";
import { RateLimiterMySQL, RateLimiterSQLite, type RateLimiterAbstract } from "rate-limiter-flexible";
import { databaseUrl, isSqlite, sequelize } from "./db.server.ts";

export const MAX_FAILURES = 5;
export const MAX_FAILURES_PER_IP = 20;
export const WINDOW_S = 15 * 60;
export const LOCK_S = 5 * 60;

/**
 * The guesser's address as a throttle counts it: an IPv4 address (also when the socket reports
 * it IPv4-mapped, `::ffff:10.0.0.1`), or an IPv6 address's /64 — one subscriber's network holds
 * 2^64 addresses, so counting each alone would give an attacker an endless supply.
 */
export function addressOf(ip: string): string {
  const plain = ip.trim().toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(plain);
  if (mapped) return mapped[1];
  if (net.isIPv6(plain)) {
    // Expand "::" so the first four groups can be read.
    const [head, tail = ""] = plain.split("::");
    const h = head ? head.split(":") : [];
    const t = tail ? tail.split(":") : [];
    const groups = plain.includes("::") ? [...h, ...Array<string>(8 - h.length - t.length).fill("0"), ...t] : h;
    return `${groups
      .slice(0, 4)
      .map((g) => g.replace(/^0+(?=.)/, ""))
      .join(":")}::/64`;
  }
  return plain || "unknown";
}

const account = (username: string) => username.normalize("NFKC").toLowerCase();

/** A log-in or the old password of a password change: this account from this address, and the address. */
export const keysFor = (username: string, ip: string) => [`login:${account(username)}@${addressOf(ip)}`, `ip:${addressOf(ip)}`];
/**
 * The admin register code, on registration and in Edit Profile: one code for the whole site, so
 * its guesses are counted per address over both forms (a new account brings no new attempts),
 * plus per account in Edit Profile (the guesser's own account), and the address's allowance.
 */
export const adminCodeKeys = (ip: string, userId?: number) => [
  `admin-code@${addressOf(ip)}`,
  ...(userId === undefined ? [] : [`admin-code:user:${userId}`]),
  `ip:${addressOf(ip)}`,
];
/** A heartbeat's server password: this server entry from this address, and the address over every entry. */
export const heartbeatKeys = (server: string, ip: string) => [`heartbeat:${server}@${addressOf(ip)}`, `ip:heartbeat:${addressOf(ip)}`];

const isAddressKey = (key: string) => key.startsWith("ip:");

/**
 * Live demos: explanations that reach the compute server (cached results are free), per visitor
 * (signed-in user, else address). 20 in 10 minutes lets a person explore every method on several
 * pictures while no one visitor can keep the sidecar's workers busy (docs/security.md).
 */
export const DEMO_RUNS = Number(process.env.DEMO_RUNS) || 20;
export const DEMO_WINDOW_S = 10 * 60;

/**
 * rate-limiter-flexible's SQLite store wraps each update in a SAVEPOINT on the shared connection;
 * when the update meets SQLITE_BUSY it rolls back to the savepoint without releasing it, leaving a
 * transaction open that blocks every later write to the database. Its update is a single
 * `INSERT … ON CONFLICT … RETURNING`, which SQLite already runs atomically, so it runs bare here.
 */
class RateLimiterSQLiteStatement extends RateLimiterSQLite {
  _upsertTransactionSQLite3(conn: sqlite3.Database, query: string, params: unknown[]): Promise<unknown> {
    return new Promise((resolve, reject) => conn.get(query, params, (err, row) => (err ? reject(err) : resolve(row))));
  }
}

let limiters: { perKey: RateLimiterAbstract; perAddress: RateLimiterAbstract; demo: RateLimiterAbstract } | null = null;

function createLimiters() {
  const common = { tableName: "rate_limits", tableCreated: true, duration: WINDOW_S, blockDuration: LOCK_S };
  if (isSqlite()) {
    // Its own connection to the same file: the library runs each update in a transaction of its own.
    const file = databaseUrl().slice("sqlite:".length).replace(/^\/\//, "");
    const db = new sqlite3.Database(file);
    db.configure("busyTimeout", 5000);
    return {
      perKey: new RateLimiterSQLiteStatement({ ...common, storeClient: db, storeType: "sqlite3", keyPrefix: "k", points: MAX_FAILURES }),
      perAddress: new RateLimiterSQLiteStatement({ ...common, storeClient: db, storeType: "sqlite3", keyPrefix: "a", points: MAX_FAILURES_PER_IP }),
      demo: new RateLimiterSQLiteStatement({
        ...common,
        storeClient: db,
        storeType: "sqlite3",
        keyPrefix: "demo",
        points: DEMO_RUNS,
        duration: DEMO_WINDOW_S,
        blockDuration: 0,
      }),
    };
  }
  const dbName = sequelize.getDatabaseName();
  return {
    perKey: new RateLimiterMySQL({ ...common, storeClient: sequelize, storeType: "sequelize", dbName, keyPrefix: "k", points: MAX_FAILURES }),
    perAddress: new RateLimiterMySQL({ ...common, storeClient: sequelize, storeType: "sequelize", dbName, keyPrefix: "a", points: MAX_FAILURES_PER_IP }),
    demo: new RateLimiterMySQL({
      ...common,
      storeClient: sequelize,
      storeType: "sequelize",
      dbName,
      keyPrefix: "demo",
      points: DEMO_RUNS,
      duration: DEMO_WINDOW_S,
      blockDuration: 0,
    }),
  };
}

function limiterFor(key: string): RateLimiterAbstract {
  limiters ??= createLimiters();
  return isAddressKey(key) ? limiters.perAddress : limiters.perKey;
}

/**
 * Counts one attempt on every key, atomically, before the secret is checked, and returns the
 * seconds to wait when any key is over its limit (0: go ahead). Counting before checking is what
 * makes parallel guesses count: each one reserves its attempt in a single database update. The
 * attempt after the limit starts a LOCK_S lock.
 */
export async function beginAttempt(keys: string[]): Promise<number> {
  let wait = 0;
  for (const key of keys) {
    const limiter = limiterFor(key);
    const state = await limiter.penalty(key, 1);
    if (state.consumedPoints === limiter.points + 1) await limiter.block(key, LOCK_S);
    if (state.consumedPoints > limiter.points) wait = Math.max(wait, Math.ceil((await limiter.get(key))!.msBeforeNext / 1000));
  }
  return wait;
}

/**
 * The attempt was right: the account's (or code's) counter starts again; an address only gets
 * this one attempt back, so an attacker's own successful log-in cannot clear the failures they
 * made from that address.
 */
export async function attemptSucceeded(keys: string[]): Promise<void> {
  for (const key of keys) {
    const limiter = limiterFor(key);
    if (isAddressKey(key)) await limiter.reward(key, 1);
    else await limiter.delete(key);
  }
}

/**
 * A plain request counter in the same store (table rate_limits): `points` per `durationS` seconds
 * per key, nothing blocked beyond the window. The JSON API's limits use it (app/.server/api/).
 */
export function requestCounter(keyPrefix: string, points: number, durationS: number): RateLimiterAbstract {
  const common = { tableName: "rate_limits", tableCreated: true, keyPrefix, points, duration: durationS, blockDuration: 0 };
  if (isSqlite()) {
    const file = databaseUrl().slice("sqlite:".length).replace(/^\/\//, "");
    const db = new sqlite3.Database(file);
    db.configure("busyTimeout", 5000);
    return new RateLimiterSQLiteStatement({ ...common, storeClient: db, storeType: "sqlite3" });
  }
  return new RateLimiterMySQL({ ...common, storeClient: sequelize, storeType: "sequelize", dbName: sequelize.getDatabaseName() });
}

/** Whose demo allowance a run spends: the signed-in user's, else the client address's. */
export const demoVisitor = (viewer: { id: number } | null, ip: string | undefined): string => (viewer ? `user:${viewer.id}` : `ip:${ip ?? "unknown"}`);

/** Spends one demo run of a visitor; the seconds to wait when their allowance is used up (0: go ahead). */
export async function spendDemoRun(visitor: string): Promise<number> {
  limiters ??= createLimiters();
  const state = await limiters.demo.penalty(visitor, 1);
  return state.consumedPoints > DEMO_RUNS ? Math.ceil(state.msBeforeNext / 1000) : 0;
}

/** Gives a spent demo run back (the compute server was busy and ran nothing). */
export async function returnDemoRun(visitor: string): Promise<void> {
  limiters ??= createLimiters();
  await limiters.demo.reward(visitor, 1).catch(() => {});
}
