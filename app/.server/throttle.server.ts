// Throttles against guessing (docs/security.md): log-in passwords, the old password of a password
// change, the admin register code in Edit Profile, and sidecar heartbeat passwords. Counters live
// in the app's database (table rate_limits) and are updated atomically by rate-limiter-flexible,
// so parallel guesses cannot slip between a read and a write.
//
// After MAX_FAILURES failures within WINDOW_S for one key (MAX_FAILURES_PER_IP for an address,
// which many people may share behind a NAT), the key is refused for LOCK_S. A successful log-in
// clears the account's counter but never the address's: an attacker's own account must not
// reset the lock on the address they guess from.
import sqlite3 from "sqlite3";
import { RateLimiterMySQL, RateLimiterSQLite, type RateLimiterAbstract } from "rate-limiter-flexible";
import { databaseUrl, isSqlite, sequelize } from "./db.server.ts";

export const MAX_FAILURES = 5;
export const MAX_FAILURES_PER_IP = 20;
export const WINDOW_S = 15 * 60;
export const LOCK_S = 5 * 60;

export const keysFor = (username: string, ip: string) => [`user:${username.normalize("NFKC").toLowerCase()}`, `ip:${ip}`];
export const adminCodeKeys = (userId: number, ip: string) => [`admin-code:${userId}`, `ip:${ip}`];
export const heartbeatKeys = (server: string, ip: string) => [`heartbeat:${server}@${ip}`];

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
