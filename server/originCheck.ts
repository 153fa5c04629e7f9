// Refuses state-changing requests that a browser says come from another site (docs/security.md):
// the Origin header (or, without it, Sec-Fetch-Site) must name this site. SameSite=Lax cookies
// already keep sessions out of cross-site POSTs; this closes the rest, such as signing a visitor
// out or switching their language from another page. Requests without either header (sidecar
// heartbeats, scripts) are not browsers acting for someone and pass.
import type { Request, RequestHandler } from "express";
import { EXPRESS_ERRORS, sendError } from "./errorPage.ts";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The host a request's Origin must name: the first X-Forwarded-Host when there is one, else the
 * Host header, port included — the same comparison Remix's own check makes before a page's action
 * (@remix-run/server-runtime `throwIfPotentialCSRFAttack`), which answers a mismatch with a 500.
 * An X-Forwarded-Host is believed only from a trusted proxy (TRUST_PROXY) or when it says what Host
 * says, so a client cannot name the host its own Origin is compared with.
 */
function sameSite(req: Request, originHost: string): boolean {
  const host = req.headers.host ?? "";
  const forwarded = String(req.headers["x-forwarded-host"] ?? "")
    .split(",")[0]
    .trim();
  if (!forwarded) return originHost === host;
  const trustProxy = req.app.get("trust proxy fn") as ((address: string, hop: number) => boolean) | undefined;
  const trusted = trustProxy?.(req.socket.remoteAddress ?? "", 0) ?? false;
  return originHost === forwarded && (trusted || forwarded === host);
}

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
      // An Origin without the port the site is served on (`http://127.0.0.1` for a site on :3000)
      // is another origin: refused here with the 403, as Remix would otherwise refuse it with a 500.
      if (host && sameSite(req, host)) return next();
      return sendError(req, res, 403, EXPRESS_ERRORS.crossSite);
    }
    if (origin === "null" || req.headers["sec-fetch-site"] === "cross-site") return sendError(req, res, 403, EXPRESS_ERRORS.crossSite);
    next();
  };
}
