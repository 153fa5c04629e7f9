// Refuses state-changing requests that a browser says come from another site (docs/security.md):
// the Origin header (or, without it, Sec-Fetch-Site) must name this site. SameSite=Lax cookies
// already keep sessions out of cross-site POSTs; this closes the rest, such as signing a visitor
// out or switching their language from another page. Requests without either header (sidecar
// heartbeats, scripts) are not browsers acting for someone and pass.
import type { RequestHandler } from "express";
import { EXPRESS_ERRORS, sendError } from "./errorPage.ts";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

export function originCheck(): RequestHandler {
  return (req, res, next) => {
    if (SAFE.has(req.method)) return next();
    const origin = req.headers.origin;
    if (typeof origin === "string" && origin !== "null") {
      let host: string | null = null;
      try {
        host = new URL(origin).host;
      } catch {
        host = null;
      }
      // req.host honours the trusted proxy hops (TRUST_PROXY) like the rest of the app.
      if (host === req.get("host") || host === req.hostname || (req.headers["x-forwarded-host"] && host === req.headers["x-forwarded-host"])) return next();
      return sendError(req, res, 403, EXPRESS_ERRORS.crossSite);
    }
    if (origin === "null" || req.headers["sec-fetch-site"] === "cross-site") return sendError(req, res, 403, EXPRESS_ERRORS.crossSite);
    next();
  };
}
