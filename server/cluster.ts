// The web tier as several processes on one machine (WEB_PROCESSES, default one per core;
// docs/architecture.md "Several web processes"). Node's cluster module: the primary only forks,
// supervises and relays messages; each worker is a whole web app (server.ts createApp) listening on
// the shared port, whose connections the primary hands out in turn. Worker 0 is the leader (it runs
// what must run once per machine: the in-process job queue's workers, start-up recovery, sweeps).
//
// What the processes share goes through the primary here, so one machine needs nothing else:
// counters (the page cache's content version, app/.server/publicPages.server.ts), broadcasts
// (cancelling a job that runs in another process), small values with a lifetime (a TCAV run's
// progress) and calls to the leader (the in-process queue). With REDIS_URL the app shares the
// counters, broadcasts and values through Redis instead, across hosts (app/.server/shared.server.ts).
import cluster, { type Worker } from "node:cluster";
import os from "node:os";
import type { ProcessGroup } from "./appEntry.ts";

/** WEB_PROCESSES, else one per core; one under Vite's dev server (it would run once per process). */
export function webProcessCount(env: Record<string, string | undefined> = process.env): number {
  const raw = env.WEB_PROCESSES?.trim();
  if (raw) {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`WEB_PROCESSES must be a whole number of at least 1 (got "${raw}")`);
    return n;
  }
  return env.NODE_ENV === "development" ? 1 : os.availableParallelism();
}

// ---- messages --------------------------------------------------------------------------------
// Every message carries `mr` so the group never mistakes Node's own cluster messages for its own.

type ToPrimary =
  | { mr: "ready" }
  | { mr: "leader-ready" }
  | { mr: "increment"; id: number; name: string }
  | { mr: "read"; id: number; name: string }
  | { mr: "broadcast"; topic: string; data: unknown }
  | { mr: "put"; key: string; value: unknown; ttlMs: number }
  | { mr: "get"; id: number; key: string }
  | { mr: "remove"; key: string }
  | { mr: "leader-call"; id: number; op: string; args: unknown[] }
  | { mr: "leader-reply"; id: number; value?: unknown; error?: string };

type ToWorker =
  | { mr: "reply"; id: number; value?: unknown; error?: string }
  | { mr: "counter"; name: string; value: number }
  | { mr: "broadcast"; topic: string; data: unknown }
  | { mr: "leader-call"; id: number; op: string; args: unknown[] };

const isGroupMessage = (m: unknown): m is { mr: string } => typeof m === "object" && m !== null && typeof (m as { mr?: unknown }).mr === "string";

/** How long a call to the leader may wait for it (a leader being restarted starts in seconds). */
const LEADER_WAIT_MS = 30_000;

// ---- the primary -------------------------------------------------------------------------------

export interface PrimaryOptions {
  processes: number;
  port: number;
  log: (level: number, msg: string, extra?: Record<string, unknown>) => void;
}

/**
 * Forks the web processes, restarts one that dies (after 1 s, doubling to 30 s while they keep
 * dying, as scripts/superviseSidecar.ts does for the sidecar), relays the group's messages, and on
 * SIGTERM/SIGINT stops them all and exits. A process that ends before it ever listened (the build
 * missing, the port taken) ends the whole group with status 1: restarting it would fail the same way.
 */
export function runPrimary(opts: PrimaryOptions): void {
  const startedAt = Date.now();
  const counters = new Map<string, number>();
  const values = new Map<string, { value: unknown; until: number }>();
  const byIndex = new Map<number, Worker>();
  const indexOf = new Map<Worker, number>();
  let everReady = 0;
  let stopping = false;
  let pause = 1000;
  let lastRestart = 0;
  // Calls to the leader wait here while it is starting; its own ids are the primary's.
  let leaderReady = false;
  let nextCallId = 1;
  const waitingCalls: { worker: Worker; msg: Extract<ToPrimary, { mr: "leader-call" }>; at: number }[] = [];
  const inFlight = new Map<number, { worker: Worker; id: number }>();

  const send = (w: Worker | undefined, m: ToWorker) => {
    if (w && w.isConnected()) w.send(m);
  };
  const others = (w: Worker) => [...byIndex.values()].filter((o) => o !== w);
  const counter = (name: string) => counters.get(name) ?? startedAt;

  const forwardToLeader = (worker: Worker, msg: Extract<ToPrimary, { mr: "leader-call" }>) => {
    const id = nextCallId++;
    inFlight.set(id, { worker, id: msg.id });
    send(byIndex.get(0), { mr: "leader-call", id, op: msg.op, args: msg.args });
  };

  const onMessage = (worker: Worker, m: unknown) => {
    if (!isGroupMessage(m)) return;
    const msg = m as ToPrimary;
    switch (msg.mr) {
      case "ready":
        everReady++;
        if (everReady === opts.processes) opts.log(30, `Meta-Rank listening on http://localhost:${opts.port}`, { port: opts.port, processes: opts.processes });
        return;
      case "leader-ready":
        leaderReady = true;
        for (const { worker: w, msg: call } of waitingCalls.splice(0)) forwardToLeader(w, call);
        return;
      case "increment": {
        const value = counter(msg.name) + 1;
        counters.set(msg.name, value);
        // The others first: a connection the primary hands to one of them after this reply
        // travels behind the new value on the same channel, so it is never served the old one.
        for (const o of others(worker)) send(o, { mr: "counter", name: msg.name, value });
        send(worker, { mr: "reply", id: msg.id, value });
        return;
      }
      case "read":
        send(worker, { mr: "reply", id: msg.id, value: counter(msg.name) });
        return;
      case "broadcast":
        for (const o of others(worker)) send(o, { mr: "broadcast", topic: msg.topic, data: msg.data });
        return;
      case "put":
        values.set(msg.key, { value: msg.value, until: Date.now() + msg.ttlMs });
        if (values.size > 10_000) for (const [k, v] of values) if (v.until < Date.now()) values.delete(k);
        return;
      case "get": {
        const v = values.get(msg.key);
        const live = v && v.until > Date.now();
        if (v && !live) values.delete(msg.key);
        send(worker, { mr: "reply", id: msg.id, value: live ? v.value : null });
        return;
      }
      case "remove":
        values.delete(msg.key);
        return;
      case "leader-call":
        if (leaderReady) forwardToLeader(worker, msg);
        else waitingCalls.push({ worker, msg, at: Date.now() });
        return;
      case "leader-reply": {
        const to = inFlight.get(msg.id);
        inFlight.delete(msg.id);
        if (to) send(to.worker, { mr: "reply", id: to.id, value: msg.value, error: msg.error });
        return;
      }
    }
  };

  const fork = (index: number) => {
    const worker = cluster.fork({ WEB_PROCESS_INDEX: String(index), WEB_PROCESS_COUNT: String(opts.processes) });
    byIndex.set(index, worker);
    indexOf.set(worker, index);
    let listened = false;
    worker.on("message", (m: unknown) => {
      if (isGroupMessage(m) && m.mr === "ready") listened = true;
      onMessage(worker, m);
    });
    worker.on("exit", (code, signal) => {
      byIndex.delete(index);
      indexOf.delete(worker);
      if (index === 0) {
        leaderReady = false;
        // Calls the dead leader was answering will not be answered: their callers hear so now.
        for (const [id, to] of inFlight) {
          inFlight.delete(id);
          send(to.worker, { mr: "reply", id: to.id, error: "the leading web process stopped while answering" });
        }
      }
      if (stopping) {
        if (byIndex.size === 0) process.exit(exitCode);
        return;
      }
      if (!listened) {
        opts.log(50, `web process ${index} ended before it listened (${signal ?? `status ${code}`}); stopping the others`, { index });
        stopAll(1);
        return;
      }
      // Back to a 1 s pause once the processes have stayed up a minute.
      if (Date.now() - lastRestart > 60_000) pause = 1000;
      opts.log(40, `web process ${index} exited (${signal ?? `status ${code}`}); restarting it in ${(pause / 1000).toFixed(1)} s`, { index });
      const wait = pause;
      pause = Math.min(2 * pause, 30_000);
      lastRestart = Date.now();
      setTimeout(() => !stopping && fork(index), wait);
    });
  };

  let exitCode = 0;
  const stopAll = (code: number) => {
    exitCode = Math.max(exitCode, code);
    if (stopping) return;
    stopping = true;
    if (byIndex.size === 0) process.exit(exitCode);
    for (const w of byIndex.values()) w.process.kill("SIGTERM");
    // Each process gives its requests 5 s (server.ts); one that hangs beyond is killed.
    setTimeout(() => {
      for (const w of byIndex.values()) w.process.kill("SIGKILL");
      process.exit(exitCode);
    }, 8000).unref();
  };
  process.on("SIGTERM", () => stopAll(0));
  process.on("SIGINT", () => stopAll(0));

  // Calls that found no leader for too long are answered with an error rather than hanging.
  setInterval(() => {
    const now = Date.now();
    for (let i = waitingCalls.length - 1; i >= 0; i--) {
      const { worker, msg, at } = waitingCalls[i];
      if (now - at < LEADER_WAIT_MS) continue;
      waitingCalls.splice(i, 1);
      send(worker, { mr: "reply", id: msg.id, error: "no leading web process answered" });
    }
  }, 1000).unref();

  for (let i = 0; i < opts.processes; i++) fork(i);
}

// ---- a worker's view ---------------------------------------------------------------------------

/** This worker's ProcessGroup, talking to the primary over the cluster's IPC channel. */
export function workerGroup(): ProcessGroup {
  const index = Number(process.env.WEB_PROCESS_INDEX ?? 0);
  const size = Number(process.env.WEB_PROCESS_COUNT ?? 1);
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const counterListeners: ((name: string, value: number) => void)[] = [];
  const broadcastListeners: ((topic: string, data: unknown) => void)[] = [];
  let leaderHandler: ((op: string, args: unknown[]) => Promise<unknown>) | null = null;
  let nextId = 1;

  const post = (m: ToPrimary) => process.send?.(m);
  const ask = (make: (id: number) => ToPrimary) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      post(make(id));
    });

  process.on("message", (m: unknown) => {
    if (!isGroupMessage(m)) return;
    const msg = m as ToWorker;
    switch (msg.mr) {
      case "reply": {
        const p = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.error !== undefined) p?.reject(new Error(msg.error));
        else p?.resolve(msg.value);
        return;
      }
      case "counter":
        for (const l of counterListeners) l(msg.name, msg.value);
        return;
      case "broadcast":
        for (const l of broadcastListeners) l(msg.topic, msg.data);
        return;
      case "leader-call": {
        const handler = leaderHandler;
        if (!handler) return post({ mr: "leader-reply", id: msg.id, error: "this process does not lead" });
        handler(msg.op, msg.args).then(
          (value) => post({ mr: "leader-reply", id: msg.id, value }),
          (err: unknown) => post({ mr: "leader-reply", id: msg.id, error: err instanceof Error ? err.message : String(err) }),
        );
        return;
      }
    }
  });

  return {
    index,
    size,
    leader: index === 0,
    increment: async (name) => Number(await ask((id) => ({ mr: "increment", id, name }))),
    read: async (name) => Number(await ask((id) => ({ mr: "read", id, name }))),
    onCounter: (l) => void counterListeners.push(l),
    broadcast: (topic, data) => void post({ mr: "broadcast", topic, data }),
    onBroadcast: (l) => void broadcastListeners.push(l),
    put: (key, value, ttlMs) => void post({ mr: "put", key, value, ttlMs }),
    get: (key) => ask((id) => ({ mr: "get", id, key })),
    remove: (key) => void post({ mr: "remove", key }),
    callLeader: (op, args) => ask((id) => ({ mr: "leader-call", id, op, args })),
    serveLeader(handler) {
      leaderHandler = handler;
      post({ mr: "leader-ready" });
    },
  };
}

/** Tells the primary this worker listens (the primary announces the port once all do). */
export function announceListening(): void {
  process.send?.({ mr: "ready" } satisfies ToPrimary);
}

export const isClusterWorker = () => cluster.isWorker;
export const isClusterPrimary = () => cluster.isPrimary;
