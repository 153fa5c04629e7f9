// Response headers every answer carries (docs/security.md): a Content-Security-Policy whose only
// inline scripts are the ones Remix renders with this request's nonce, no framing, no MIME
// sniffing, and referrers that never leave the site with a path.
import crypto from "node:crypto";
import type { RequestHandler } from "express";

export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    // PrimeReact and react-vis set style attributes; no script can be injected through them.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    // blob: for three's GLTFLoader, which fetches a GLB's embedded textures through blob URLs
    // the page itself made (/dam3d); without it the dam is drawn untextured.
    "connect-src 'self' blob:",
    "media-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Sets res.locals.cspNonce and the headers. Development (Vite's dev server) gets no CSP: its client injects inline scripts. */
export function securityHeaders(opts: { csp: boolean }): RequestHandler {
  return (_req, res, next) => {
    const nonce = crypto.randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    if (opts.csp) res.setHeader("Content-Security-Policy", contentSecurityPolicy(nonce));
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    next();
  };
}
