// What the web processes share besides the database (docs/architecture.md "Several web
// processes"): counters (the page cache's content version, publicPages.server.ts), broadcasts (a
// job cancelled in one process, running in another) and small values with a lifetime (a running
// TCAV request's progress, progress.server.ts).
//
// With REDIS_URL they live in Redis, so every process of every host agrees: a counter is a key
// (INCR) whose new values are published on one channel, broadcasts go over the same channel, and
// values are keys with an expiry. Without it they go through the process group of this machine
// (server/cluster.ts relays them through the primary), or stay in this process when it is alone.
import crypto from "node:crypto";
import { Redis } from "ioredis";
import type { ProcessGroup } from "../../server/appEntry.ts";
import { logger } from "./logger.server.ts";

/** A process alone: every "shared" thing is its own. */
export function soloGroup(): ProcessGroup {
  const startedAt = Date.now();
  const counters = new Map<string, number>();
  const values = new Map<string, { value: unknown; until: number }>();
  let leaderHandler: ((op: string, args: unknown[]) => Promise<unknown>) | null = null;
  return {
    index: 0,
    size: 1,
    leader: true,
    async increment(name) {
      const value = (counters.get(name) ?? startedAt) + 1;
      counters.set(name, value);
      return value;
    },
    read: async (name) => counters.get(name) ?? startedAt,
    onCounter() {},
    broadcast() {},
    onBroadcast() {},
    put(key, value, ttlMs) {
      values.set(key, { value, until: Date.now() + ttlMs });
      if (values.size > 10_000) for (const [k, v] of values) if (v.until < Date.now()) values.delete(k);
    },
    async get(key) {
      const v = values.get(key);
      if (v && v.until > Date.now()) return v.value;
      values.delete(key);
      return null;
    },
    remove: (key) => void values.delete(key),
    async callLeader(op, args) {
      if (!leaderHandler) throw new Error("nothing leads this process");
      return leaderHandler(op, args);
    },
    serveLeader(handler) {
      leaderHandler = handler;
    },
  };
}

let group: ProcessGroup = soloGroup();

interface RedisShare {
  cmd: Redis;
  sub: Redis;
  prefix: string;
  channel: string;
  /** This process, so it can skip its own broadcasts. */
  self: string;
  initialised: Set<string>;
}
let redis: RedisShare | null = null;

const counterListeners: ((name: string, value: number) => void)[] = [];
const broadcastListeners: ((topic: string, data: unknown) => void)[] = [];
let groupWired = false;

type BusMessage = { from: string; counter: string; value: number } | { from: string; topic: string; data: unknown };

/** The process group this process belongs to (a group of one unless server.ts gave one). */
export function processGroup(): ProcessGroup {
  return group;
}

/**
 * Joins the group server.ts made (several web processes) and, with REDIS_URL, connects to Redis.
 * Called by startRuntime() before anything that shares (docs/architecture.md "One module graph").
 */
export async function startShared(given?: ProcessGroup, redisUrl = process.env.REDIS_URL): Promise<void> {
  if (given) group = given;
  if (!groupWired) {
    groupWired = true;
    group.onCounter((name, value) => counterListeners.forEach((l) => l(name, value)));
    group.onBroadcast((topic, data) => broadcastListeners.forEach((l) => l(topic, data)));
  }
  if (!redisUrl || redis) return;
  const prefix = `${process.env.QUEUE_PREFIX || "metarank"}:shared`;
  const channel = `${prefix}:bus`;
  // Redis down must not stop the web app: commands give up after two reconnection attempts
  // (a fraction of a second) and their callers carry on without it (publicPages.server.ts).
  const cmd = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  const sub = new Redis(redisUrl);
  const log = logger("shared");
  for (const c of [cmd, sub]) c.on("error", (err: Error) => log.warn({ err: err.message }, "redis connection error"));
  const share: RedisShare = { cmd, sub, prefix, channel, self: crypto.randomUUID(), initialised: new Set() };
  sub.on("message", (_channel: string, text: string) => {
    let msg: BusMessage;
    try {
      msg = JSON.parse(text) as BusMessage;
    } catch {
      return;
    }
    if ("counter" in msg) counterListeners.forEach((l) => l(msg.counter, Number(msg.value)));
    else if (msg.from !== share.self) broadcastListeners.forEach((l) => l(msg.topic, msg.data));
  });
  // After a lost connection the values published meanwhile were missed: listeners read again.
  sub.on("ready", () => {
    for (const name of share.initialised)
      void readCounter(name)
        .then((value) => counterListeners.forEach((l) => l(name, value)))
        .catch(() => undefined);
  });
  redis = share;
  // ioredis subscribes again by itself after a reconnection; the first answer is awaited briefly.
  const subscribed = sub.subscribe(channel).catch((err: Error) => log.warn({ err: err.message }, "could not subscribe to the shared channel yet"));
  await Promise.race([subscribed, new Promise((r) => setTimeout(r, 3000).unref())]);
}

export async function stopShared(): Promise<void> {
  const r = redis;
  redis = null;
  if (r) await Promise.all([r.cmd.quit().catch(() => undefined), r.sub.quit().catch(() => undefined)]);
}

/** Whether the shared things reach beyond this process (another process or another host may write). */
export function sharedBeyondProcess(): boolean {
  return redis !== null || group.size > 1;
}

const counterKey = (r: RedisShare, name: string) => `${r.prefix}:counter:${name}`;

/** A new counter starts at the current time in ms, so a flushed or new store never repeats an old value. */
async function initCounter(r: RedisShare, name: string): Promise<string> {
  const key = counterKey(r, name);
  if (!r.initialised.has(name)) {
    await r.cmd.set(key, String(Date.now()), "NX");
    r.initialised.add(name);
  }
  return key;
}

/**
 * Adds one to a shared counter and resolves to its new value once every other process was sent
 * it (Redis PUBLISH returns after queueing the message to every subscriber; the primary sends it
 * to the others before it answers).
 */
export async function incrementCounter(name: string): Promise<number> {
  const r = redis;
  if (!r) return group.increment(name);
  const value = await r.cmd.incr(await initCounter(r, name));
  await r.cmd.publish(r.channel, JSON.stringify({ from: r.self, counter: name, value } satisfies BusMessage));
  return value;
}

export async function readCounter(name: string): Promise<number> {
  const r = redis;
  if (!r) return group.read(name);
  return Number(await r.cmd.get(await initCounter(r, name)));
}

/** Told every new value of any shared counter that another process (or this one, with Redis) made. */
export function onCounter(listener: (name: string, value: number) => void): void {
  counterListeners.push(listener);
}

/** Sends `data` (JSON) to every other web process (every host's, with Redis). */
export function broadcast(topic: string, data: unknown): void {
  const r = redis;
  if (!r) return group.broadcast(topic, data);
  r.cmd
    .publish(r.channel, JSON.stringify({ from: r.self, topic, data } satisfies BusMessage))
    .catch((err: Error) => logger("shared").warn({ err: err.message, topic }, "could not broadcast"));
}

export function onBroadcast(listener: (topic: string, data: unknown) => void): void {
  broadcastListeners.push(listener);
}

/** Keeps a small JSON value for `ttlMs` where every process can read it. */
export async function putValue(key: string, value: unknown, ttlMs: number): Promise<void> {
  const r = redis;
  if (!r) return group.put(key, value, ttlMs);
  await r.cmd.set(`${r.prefix}:value:${key}`, JSON.stringify(value), "PX", Math.max(1, Math.round(ttlMs)));
}

export async function getValue(key: string): Promise<unknown> {
  const r = redis;
  if (!r) return group.get(key);
  const text = await r.cmd.get(`${r.prefix}:value:${key}`);
  return text === null ? null : (JSON.parse(text) as unknown);
}

export async function removeValue(key: string): Promise<void> {
  const r = redis;
  if (!r) return group.remove(key);
  await r.cmd.del(`${r.prefix}:value:${key}`);
}
