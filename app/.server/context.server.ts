// What server.ts passes to every loader and action (getLoadContext).
import type { UploadedFiles } from "./uploads.server.ts";

declare module "@remix-run/node" {
  interface AppLoadContext {
    requestId: string;
    ip: string;
    /** Set by the multer middleware for multipart POSTs (see server.ts). */
    uploads?: UploadedFiles;
    /** This response's Content-Security-Policy nonce (server/securityHeaders.ts). */
    cspNonce: string;
  }
}

export {};
