// What server.ts needs from the web app, exported by the build's entry module
// (app/entry.server.tsx). server.ts never imports app/ itself, so every app module is loaded
// once, inside the build (docs/architecture.md, "One module graph").
import type { Express, RequestHandler } from "express";
import type { Logger } from "pino";

/**
 * The web processes of one machine as one of them sees them (server/cluster.ts, WEB_PROCESSES;
 * docs/architecture.md "Several web processes"). Process 0 is the leader: it alone runs what must
 * run once per machine (job workers of the in-process queue, start-up recovery, sweeps). The
 * primary process relays every message, so the group needs nothing outside the machine.
 */
export interface ProcessGroup {
  /** 0 … size − 1. */
  readonly index: number;
  readonly size: number;
  readonly leader: boolean;
  /** Adds one to a counter the group shares and resolves to its new value, after every other process was sent it. */
  increment(name: string): Promise<number>;
  /** A shared counter's value (a counter starts at the time the group started, in ms, so values never repeat across restarts). */
  read(name: string): Promise<number>;
  /** Told each new value of a counter another process incremented. */
  onCounter(listener: (name: string, value: number) => void): void;
  /** Sends `data` (JSON) to every other process of the group. */
  broadcast(topic: string, data: unknown): void;
  onBroadcast(listener: (topic: string, data: unknown) => void): void;
  /** A small JSON value the group keeps for `ttlMs`. */
  put(key: string, value: unknown, ttlMs: number): void;
  get(key: string): Promise<unknown>;
  remove(key: string): void;
  /** Asks the leader (its serveLeader handler); waits while the leader (re)starts. */
  callLeader(op: string, args: unknown[]): Promise<unknown>;
  /** On the leader: answers callLeader. */
  serveLeader(handler: (op: string, args: unknown[]) => Promise<unknown>): void;
}

export interface AppServerIntegration {
  /**
   * Creates the logger, queue, sidecar chooser and job handlers. Called once before listening;
   * `group` is given when the web tier runs as several processes (otherwise it is one process alone).
   */
  startRuntime(group?: ProcessGroup): Promise<{ logger: Logger }>;
  /** Stops queue workers and closes connections (SIGTERM). */
  stopRuntime(): Promise<void>;
  /** The request header that carries the client address Express resolved (proxy hops applied). */
  clientIpHeader: string;
  /** Routes mounted before Remix: bull-board (admins only). */
  mountExpressRoutes(app: Express): Promise<void>;
  /** The rendered-page cache key of a request (anonymous GETs of public pages), or null to render it. */
  publicPageKey(req: { method: string; path: string; url: string; headers: Record<string, string | string[] | undefined> }): Promise<string | null>;
  /** Parses multipart bodies of upload routes into req.uploads with each route's limits. */
  multipartMiddleware(): RequestHandler;
}
