// The web app's process: Express serving the Remix build. It imports nothing from app/: what
// Express needs from the app (start-up, multipart parsing, bull-board) comes from the build's
// entry module (app/entry.server.tsx `integration`), so every app module is loaded once
// (docs/architecture.md). `make start` runs it in production mode; NODE_ENV=development
// serves the app through Vite's dev server instead of build/. With WEB_PROCESSES > 1 (the default on
// a machine with several cores) it is the primary of a group of such processes (server/cluster.ts).
import crypto from "node:crypto";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import express from "express";
import { responseCompression } from "./server/compression.ts";
import { createRequestHandler } from "@remix-run/express";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import type { AppServerIntegration, ProcessGroup } from "./server/appEntry.ts";
import { announceListening, isClusterWorker, runPrimary, webProcessCount, workerGroup } from "./server/cluster.ts";
import { pageCache } from "./server/pageCache.ts";
import { errorHandler } from "./server/errorPage.ts";
import { originCheck } from "./server/originCheck.ts";
import { methodCheck } from "./server/methodCheck.ts";
import { securityHeaders } from "./server/securityHeaders.ts";

const root = path.dirname(fileURLToPath(import.meta.url));
const useVite = process.env.NODE_ENV === "development";

type Req = express.Request & { requestId?: string; uploads?: AppLoadContext["uploads"] };

/** The build's server entry module with the integration it exports. */
function integrationOf(build: ServerBuild): AppServerIntegration {
  const integration = (build.entry.module as unknown as { integration?: AppServerIntegration }).integration;
  if (!integration) throw new Error("The server build's entry module does not export `integration` (app/entry.server.tsx).");
  return integration;
}

/** The web app; `group` when it is one of several web processes (server/cluster.ts). */
export async function createApp(group?: ProcessGroup) {
  const app = express();
  app.disable("x-powered-by");
  // Behind reverse proxies, X-Forwarded-For is believed only for the configured hops (a number of
  // proxies, or their addresses), never the client's own left-most entry (docs/security.md).
  const trust = process.env.TRUST_PROXY?.trim();
  app.set("trust proxy", !trust || trust === "0" ? false : /^\d+$/.test(trust) ? Number(trust) : trust.split(",").map((s) => s.trim()));

  let build: ServerBuild | (() => Promise<ServerBuild>);
  let integration: AppServerIntegration;
  let viteServer: { middlewares: express.RequestHandler } | null = null;
  if (useVite) {
    const vite = await import("vite").then((v) => v.createServer({ server: { middlewareMode: true } }));
    viteServer = vite;
    const load = () => vite.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>;
    build = load;
    integration = integrationOf(await load());
  } else {
    build = (await import(pathToFileURL(path.join(root, "build/server/index.js")).href)) as ServerBuild;
    integration = integrationOf(build);
  }
  const { logger } = await integration.startRuntime(group);
  // A built app's stack traces go without source maps (docs/performance.md "Source maps"):
  // Sequelize reads a new Error's stack on every SQLite query, and with the maps tsx turns on,
  // each read parsed them again, a large share of a signed-in page's time.
  if (!useVite) process.setSourceMapsEnabled(false);

  // One log line per request: method, path (no query string: it may carry tokens), status, ms, id.
  app.use((req: Req, res, next) => {
    const start = process.hrtime.bigint();
    // A caller's id is kept only when it is a plain token (it is logged and sent back).
    const given = req.headers["x-request-id"];
    const requestId = typeof given === "string" && /^[A-Za-z0-9._-]{1,64}$/.test(given) ? given : crypto.randomUUID();
    req.requestId = requestId;
    res.setHeader("X-Request-Id", requestId);
    req.headers[integration.clientIpHeader] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      logger.info({ reqId: requestId, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, "request");
    });
    next();
  });
  app.use(securityHeaders({ csp: !useVite }));
  app.use(methodCheck());
  // Static files and cached pages are compressed once and kept; the rest as it streams (server/compression.ts).
  app.use(responseCompression({ staticRoot: useVite ? null : path.join(root, "build/client") }));
  app.get("/healthz", (_req, res) => res.json({ ok: true }));

  if (viteServer) app.use(viteServer.middlewares);
  else {
    app.use("/assets", express.static(path.join(root, "build/client/assets"), { immutable: true, maxAge: "1y" }));
    app.use(express.static(path.join(root, "build/client"), { maxAge: "1h" }));
  }

  // Public pages for anonymous visitors, rendered once per content version (PAGE_CACHE=0 turns it off).
  if (process.env.PAGE_CACHE !== "0") app.use(pageCache({ keyOf: integration.publicPageKey }));
  app.use(originCheck());
  await integration.mountExpressRoutes(app);
  app.use(integration.multipartMiddleware());
  app.all(
    "*",
    createRequestHandler({
      build,
      // Only Vite's dev server shows an unexpected error's message and stack in the page's data;
      // a built app (production, and the tests that run it) sends the visitor the 500 page alone.
      mode: useVite ? "development" : "production",
      getLoadContext: (req: Req, res) => ({
        requestId: req.requestId ?? "",
        ip: (req.headers[integration.clientIpHeader] as string) ?? "unknown",
        uploads: req.uploads,
        cspNonce: String(res.locals.cspNonce ?? ""),
      }),
    }),
  );
  app.use(errorHandler((err, reqId) => logger.error({ err, reqId }, "unhandled error")));
  return { app, integration };
}

/** One web process: the app on `port`, stopped cleanly by SIGTERM or SIGINT. */
function serveOneProcess(port: number, group?: ProcessGroup) {
  createApp(group)
    .then(({ app, integration }) => {
      const server = app.listen(port, () => {
        // Several processes: the primary says it once, when every one of them listens.
        if (group) announceListening();
        else console.log(JSON.stringify({ level: 30, msg: `Meta-Rank listening on http://localhost:${port}`, port }));
      });
      // Node closes an idle keep-alive socket after 5 s, the moment a client may be sending its next
      // request on it: a POST then fails with a reset (no client retries one). Idle sockets are kept
      // longer than clients keep them (browsers and proxies ~60 s), so the client closes first.
      server.keepAliveTimeout = 65_000;
      server.headersTimeout = 66_000;
      // Idle keep-alive sockets would hold close() open; in-flight requests get 5 s to finish.
      const stop = () => {
        server.close(() => void integration.stopRuntime().finally(() => process.exit(0)));
        server.closeIdleConnections();
        setTimeout(() => process.exit(0), 5000).unref();
      };
      process.on("SIGTERM", stop);
      process.on("SIGINT", stop);
    })
    .catch((err) => {
      console.error("web app failed to start", err);
      process.exit(1);
    });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // The database, uploads and secrets this process writes are readable by its account only.
  process.umask(0o077);
  const port = Number(process.env.PORT ?? 3000);
  let processes = 1;
  try {
    processes = webProcessCount();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  if (processes === 1) serveOneProcess(port);
  else if (isClusterWorker()) serveOneProcess(port, workerGroup());
  else
    runPrimary({
      processes,
      port,
      log: (level, msg, extra) => console.log(JSON.stringify({ level, msg, ...extra })),
    });
}
