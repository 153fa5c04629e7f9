// What server.ts needs from the web app, exported by the build's entry module
// (app/entry.server.tsx). server.ts never imports app/ itself, so every app module is loaded
// once, inside the build (docs/architecture.md, "One module graph").
import type { Express, RequestHandler } from "express";
import type { Logger } from "pino";

export interface AppServerIntegration {
  /** Creates the logger, queue, sidecar chooser and job handlers. Called once before listening. */
  startRuntime(): Promise<{ logger: Logger }>;
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
