// The web app's process: Express serving the Remix build, with multer (uploads) and,
// later, bull-board mounted beside it. `make start` runs it; NODE_ENV=development uses Vite.
import crypto from "node:crypto";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import express from "express";
import compression from "compression";
import pino from "pino";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import { multipartMiddleware } from "./app/.server/uploads.server.ts";
import { CLIENT_IP_HEADER } from "./app/.server/auth.server.ts";
import { mountExtras } from "./app/.server/express.server.ts";

const root = path.dirname(fileURLToPath(import.meta.url));
const isProduction = process.env.NODE_ENV === "production";
const useVite = process.env.NODE_ENV === "development";
export const logger = pino({ name: "web", level: process.env.LOG_LEVEL ?? "info" });

if (process.env.CAPTCHA_FIXED_ANSWER) {
  if (isProduction) logger.warn("CAPTCHA_FIXED_ANSWER is set but NODE_ENV=production: it is ignored, captchas stay random");
  else logger.warn("CAPTCHA_FIXED_ANSWER is set: every captcha has that answer (tests only)");
}

export async function createApp() {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", process.env.TRUST_PROXY === "1");

  // One log line per request: method, path (no query string: it may carry tokens), status, ms, id.
  app.use((req, res, next) => {
    const start = process.hrtime.bigint();
    const requestId = (req.headers["x-request-id"] as string | undefined)?.slice(0, 64) || crypto.randomUUID();
    (req as any).requestId = requestId;
    res.setHeader("X-Request-Id", requestId);
    req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      logger.info({ reqId: requestId, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, "request");
    });
    next();
  });
  app.use(compression());
  app.get("/healthz", (_req, res) => res.json({ ok: true }));

  let build: ServerBuild | (() => Promise<ServerBuild>);
  if (useVite) {
    const vite = await import("vite").then((v) => v.createServer({ server: { middlewareMode: true } }));
    app.use(vite.middlewares);
    build = () => vite.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>;
  } else {
    app.use("/assets", express.static(path.join(root, "build/client/assets"), { immutable: true, maxAge: "1y" }));
    app.use(express.static(path.join(root, "build/client"), { maxAge: "1h" }));
    build = (await import(pathToFileURL(path.join(root, "build/server/index.js")).href)) as ServerBuild;
  }

  await mountExtras(app);
  app.use(multipartMiddleware());
  app.all(
    "*",
    createRequestHandler({
      build,
      mode: isProduction ? "production" : "development",
      getLoadContext: (req) => ({
        requestId: (req as any).requestId as string,
        ip: (req.headers[CLIENT_IP_HEADER] as string) ?? "unknown",
        uploads: (req as any).uploads,
      }),
    }),
  );
  app.use(((err, req, res, _next) => {
    logger.error({ err, reqId: (req as any).requestId }, "unhandled error");
    res.status(500).send("Something went wrong. Request id: " + (req as any).requestId);
  }) as express.ErrorRequestHandler);
  return app;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 3000);
  createApp()
    .then((app) => {
      const server = app.listen(port, () => logger.info({ port }, `Meta-Rank listening on http://localhost:${port}`));
      // Idle keep-alive sockets would hold close() open; in-flight requests get 5 s to finish.
      const stop = () => {
        server.close(() => process.exit(0));
        server.closeIdleConnections();
        setTimeout(() => process.exit(0), 5000).unref();
      };
      process.on("SIGTERM", stop);
      process.on("SIGINT", stop);
    })
    .catch((err) => {
      logger.error({ err }, "web app failed to start");
      process.exit(1);
    });
}
