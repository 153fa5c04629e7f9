// Methods the app answers (docs/security.md "Cases"): GET, HEAD, POST and OPTIONS for pages, and
// PUT, PATCH and DELETE, which the JSON API answers itself with its 405. Anything else (TRACE,
// CONNECT, WebDAV's PROPFIND, …) is refused here with 405 and an Allow header: the Fetch API
// cannot even build a Request for TRACE, so it used to reach Remix and fail with a 500.
import type { RequestHandler } from "express";
import { EXPRESS_ERRORS, sendError } from "./errorPage.ts";

export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const allowed = new Set<string>(ALLOWED_METHODS);

export function methodCheck(): RequestHandler {
  return (req, res, next) => {
    if (allowed.has(req.method)) return next();
    res.set("Allow", "GET, HEAD, POST");
    sendError(req, res, 405, EXPRESS_ERRORS.methodNotAllowed);
  };
}
