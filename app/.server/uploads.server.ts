// Multipart bodies are parsed by multer in server.ts (before Remix sees the request),
// with per-route limits, so an oversize file is refused while streaming, before it is read.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import multer from "multer";
import { MAX_UPLOAD_BYTES } from "~/lib/rules/submission.ts";
import { MAPS_MAX_BYTES, MAPS_UPLOAD_TIMEOUT_MS } from "~/lib/rules/maps.ts";
import { getUser } from "./session.server.ts";
import { userOfSecret } from "./apiTokens.server.ts";
import { PICTURE_LIMITS } from "~/lib/rules/datasets.ts";
import type { RequestHandler } from "express";

export interface UploadedFile {
  field: string;
  originalName: string;
  mimeType: string;
  size: number;
  /** The file's bytes; empty for a route that streams its uploads to disk (see `path`). */
  buffer: Buffer;
  /** Where a streamed upload lies (under var/uploads/incoming); the action moves or deletes it. */
  path?: string;
}

export interface UploadedFiles {
  fields: Record<string, string>;
  files: UploadedFile[];
  /** Set when multer refused the body: which limit, on which field. */
  error?: { code: string; field?: string; message: string };
}

export interface UploadLimits {
  fileSize: number;
  files: number;
  fields?: number;
  /** Stream the files to var/uploads/incoming instead of memory (large uploads: attribution maps). */
  toDisk?: boolean;
  /** How long the body may take (default UPLOAD_TIMEOUT_MS). */
  timeoutMs?: number;
}

/** Attribution maps for a verified evaluation (docs/evaluation.md "Evaluating your own method"): one zip, streamed to disk. */
export const MAPS_UPLOAD: UploadLimits = { fileSize: MAPS_MAX_BYTES, files: 1, toDisk: true, timeoutMs: MAPS_UPLOAD_TIMEOUT_MS };

/**
 * Whether a request carries a live session or API token. Checked before a large body is read, so
 * an anonymous client cannot make the server write 256 MiB to disk; the action checks again.
 */
async function isSignedIn(req: { headers: Record<string, string | string[] | undefined>; originalUrl: string }): Promise<boolean> {
  const auth = req.headers.authorization;
  if (typeof auth === "string" && auth.startsWith("Bearer ")) return (await userOfSecret(auth.slice(7).trim())) !== null;
  const headers = new Headers();
  if (typeof req.headers.cookie === "string") headers.set("Cookie", req.headers.cookie);
  return (await getUser(new Request(new URL(req.originalUrl, "http://localhost"), { headers }))) !== null;
}

/**
 * Uploads a route takes only for one intent (`?intent=` in the form's action URL, read before
 * the body): the submission page's maps form gets the maps' limits, its CSV forms keep 500 KB.
 */
export const INTENT_UPLOADS: Record<string, Record<string, UploadLimits>> = { "/submission": { "upload-maps": MAPS_UPLOAD } };

/** Upload routes with a parameter in their path (the JSON API), matched against routeKey(). */
export const UPLOAD_PATTERNS: { pattern: RegExp; limits: UploadLimits }[] = [
  { pattern: /^\/api\/v1\/suites\/[^/]+\/maps$/, limits: MAPS_UPLOAD },
  // The API's scoring takes the submission page's two result files, its submit the optional .py (docs/api.md).
  { pattern: /^\/api\/v1\/suites\/[^/]+\/score$/, limits: { fileSize: MAX_UPLOAD_BYTES, files: 2, fields: 10 } },
  { pattern: /^\/api\/v1\/suites\/[^/]+\/submit$/, limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10 } },
];

/** Where streamed uploads land before their action moves them (same file system as var/uploads). */
export function incomingDir(): string {
  return path.resolve(process.env.UPLOAD_DIR ?? "var/uploads", "incoming");
}

/** Route path prefix → limits. The longest matching prefix wins. */
export const UPLOAD_ROUTES: Record<string, UploadLimits> = {
  "/submission": { fileSize: MAX_UPLOAD_BYTES, files: 3 },
  // Pictures are streamed to disk too: a signed-in upload may carry 50 × 10 MB, which memory
  // storage held in the web process until the action ran (docs/security.md "Files").
  "/datasetInDetail": { fileSize: PICTURE_LIMITS.maxBytes, files: PICTURE_LIMITS.maxFiles, toDisk: true },
  "/UserImgclassification": { fileSize: PICTURE_LIMITS.maxBytes, files: PICTURE_LIMITS.demoFiles, toDisk: true },
};

/** The upload timeout (docs/product.md "Submission, history and approval"): a body that has not arrived in 30 s is refused, not waited for. */
export const UPLOAD_TIMEOUT_MS = 30_000;

/**
 * Every other request body (forms, JSON) is refused above this size before it is read: the
 * largest form of the site (a submission's details) is far smaller (docs/security.md).
 */
export const MAX_FORM_BODY_BYTES = 1024 * 1024;
/** How much of a refused large upload (no session) is read and dropped so the client gets the answer, not a reset connection. */
const PAGE_DRAIN_BYTES = 16 * 1024 * 1024;
/** Routes whose bodies are smaller still: the sidecars' heartbeat is a few KB of JSON. */
export const SMALL_BODY_ROUTES: Record<string, number> = { "/api/sidecars/heartbeat": 64 * 1024 };

/**
 * A path as the router matches it: percent-decoded, case-insensitive, without the single-fetch
 * `.data` suffix, trailing slashes or repeated slashes — so `/SUBMISSION/`, `/submission.data`
 * and `/%73ubmission` all get the submission's limits.
 */
export function routeKey(rawPath: string): string {
  let p = rawPath;
  try {
    p = decodeURIComponent(rawPath);
  } catch {
    // Malformed escapes: the router will not match them either; keep the raw path.
  }
  p = p
    .replace(/\/+/g, "/")
    .replace(/\.data$/i, "")
    .replace(/\/+$/, "");
  return (p || "/").toLowerCase();
}

export function limitsFor(rawPath: string, intent?: string): UploadLimits | undefined {
  const key = routeKey(rawPath);
  const byPattern = UPLOAD_PATTERNS.find((p) => p.pattern.test(key));
  if (byPattern) return byPattern.limits;
  if (intent) {
    const variants = Object.entries(INTENT_UPLOADS).find(([p]) => key === p.toLowerCase())?.[1];
    if (variants?.[intent]) return variants[intent];
  }
  const match = Object.keys(UPLOAD_ROUTES)
    .filter((p) => key === p.toLowerCase() || key.startsWith(p.toLowerCase() + "/"))
    .sort((a, b) => b.length - a.length)[0];
  return match ? UPLOAD_ROUTES[match] : undefined;
}

/**
 * Routes that read a JSON body: the JSON API, the sidecars' heartbeat and the crack-detection
 * results (POST /algorithm/getResults). Every other action is a page's form: a body of another type
 * (JSON, text/plain, XML) is refused with 415 before the route, and an empty body reads as an empty
 * form.
 */
const takesJson = (rawPath: string) => {
  const key = routeKey(rawPath);
  return key.startsWith("/api/") || key === "/algorithm/getresults";
};
const FORM_BODIES_ONLY =
  "This address takes forms only (application/x-www-form-urlencoded or multipart/form-data). 此地址只接受表单提交（application/x-www-form-urlencoded 或 multipart/form-data）。";

const hasBody = (method: string) => method !== "GET" && method !== "HEAD" && method !== "OPTIONS";

/**
 * Express middleware, mounted before the Remix handler: every request body is bounded before
 * it is buffered. Multipart bodies are accepted only by the upload routes and parsed there by
 * multer with that route's limits (into req.uploads); any other body must declare a length
 * within MAX_FORM_BODY_BYTES (or its route's smaller cap).
 */
export function multipartMiddleware(): RequestHandler {
  return (req, res, next) => {
    if (!hasBody(req.method)) return next();
    const refuse = (status: number, message: string) => {
      res.status(status).set("Connection", "close").type("text/plain; charset=utf-8").send(message);
      // The rest of the body is not read.
      req.unpipe();
      req.resume();
    };
    const intent = typeof req.query.intent === "string" ? req.query.intent : undefined;
    const limits = req.is("multipart/form-data") ? limitsFor(req.path, intent) : undefined;
    if (!limits) {
      if (req.is("multipart/form-data")) return refuse(415, "This address does not take file uploads.");
      const declared = req.headers["content-length"];
      if (!takesJson(req.path)) {
        // A page's action reads a form (request.formData()), which fails on any other body type.
        const empty = (declared === undefined || declared === "0") && !req.headers["transfer-encoding"];
        if (empty) req.headers["content-type"] = "application/x-www-form-urlencoded";
        else if (!req.is("application/x-www-form-urlencoded")) return refuse(415, FORM_BODIES_ONLY);
      }
      const cap = SMALL_BODY_ROUTES[routeKey(req.path)] ?? MAX_FORM_BODY_BYTES;
      if (declared === undefined) {
        if (req.headers["transfer-encoding"]) return refuse(411, "A request body must declare its length (Content-Length).");
        return next();
      }
      const n = Number(declared);
      if (!Number.isFinite(n) || n < 0) return refuse(400, "The request's Content-Length is not a number.");
      if (n > cap) return refuse(413, `The request body is larger than ${Math.round(cap / 1024)} KB and was refused.`);
      return next();
    }
    // Every upload route is for signed-in users (or API tokens) only, so the session or token is
    // checked before a byte of the body is read or buffered: an anonymous client cannot make the
    // server hold 50 pictures in memory or write a 256 MiB zip to disk (docs/security.md).
    // A refused body is read to its end and dropped before the answer, so the client sees the
    // answer rather than a connection reset mid-upload; past 16 MiB the connection is closed
    // with the answer instead. Nothing of it is written anywhere.
    const afterBody = (answer: () => void) => {
      let seen = 0;
      let answered = false;
      const once = () => {
        if (answered) return;
        answered = true;
        answer();
      };
      req.on("data", (chunk: Buffer) => {
        seen += chunk.length;
        if (seen > PAGE_DRAIN_BYTES && !answered) {
          res.set("Connection", "close");
          once();
        }
      });
      req.on("end", once);
    };
    const unauthorised = () =>
      afterBody(() => res.status(401).type("text/plain; charset=utf-8").send("Sign in (or send an API token) before uploading files here."));
    // A page's own form (a browser asking for HTML, or Remix's fetch of the route's .data) goes on
    // to the route with no fields and no files: its session check answers as for any form sent
    // after the session ended, with the log-in page's 'token失效，请重新登录', the sentence that the upload
    // was not saved and the way back. The body is still dropped unread; scripts and the JSON API
    // keep the plain 401.
    const fromPage = !routeKey(req.path).startsWith("/api/") && (/\.data$/i.test(req.path) || String(req.headers.accept ?? "").includes("text/html"));
    const toRoute = () => {
      (req as typeof req & { uploads?: UploadedFiles }).uploads = { fields: {}, files: [] };
      afterBody(next);
    };
    isSignedIn(req).then((ok) => (ok ? parse(limits) : fromPage ? toRoute() : unauthorised()), next);
    function parse(limits: UploadLimits) {
      const timeoutMs = limits.timeoutMs ?? UPLOAD_TIMEOUT_MS;
      const timer = setTimeout(() => {
        if (!res.headersSent)
          res
            .status(408)
            .type("text/plain")
            .send(`The upload took longer than ${Math.round(timeoutMs / 1000)} seconds and was cancelled. Please try again with fewer or smaller files.`);
        req.destroy();
      }, timeoutMs);
      res.on("close", () => clearTimeout(timer));
      // Browsers send file names as UTF-8 without saying so; busboy's default would read them as
      // Latin-1 (multer 2 passes defParamCharset through; its type definitions predate it).
      const options: multer.Options & { defParamCharset: string } = {
        // Streamed files get random names; multer deletes what it wrote when a limit stops the body.
        storage: limits.toDisk
          ? multer.diskStorage({
              destination: (_req, _file, cb) => {
                fs.mkdir(incomingDir(), { recursive: true }, (err) => cb(err ?? null, incomingDir()));
              },
              filename: (_req, _file, cb) => cb(null, `${crypto.randomBytes(16).toString("hex")}.part`),
            })
          : multer.memoryStorage(),
        defParamCharset: "utf8",
        limits: {
          fileSize: limits.fileSize,
          files: limits.files,
          fields: limits.fields ?? 50,
          fieldSize: 64 * 1024,
          parts: limits.files + (limits.fields ?? 50),
        },
      };
      const upload = multer(options).any();
      upload(req, res, (err: unknown) => {
        clearTimeout(timer);
        const body = (req.body ?? {}) as Record<string, unknown>;
        const fields: Record<string, string> = {};
        for (const [k, v] of Object.entries(body)) fields[k] = Array.isArray(v) ? String(v[0]) : String(v);
        const files = ((req.files as Express.Multer.File[] | undefined) ?? []).map((f) => ({
          field: f.fieldname,
          originalName: f.originalname,
          mimeType: f.mimetype,
          size: f.size,
          buffer: f.buffer ?? Buffer.alloc(0),
          ...(f.path ? { path: f.path } : {}),
        }));
        const uploads: UploadedFiles = { fields, files };
        if (err instanceof multer.MulterError) uploads.error = { code: err.code, field: err.field, message: err.message };
        // Anything else from multer/busboy is a body that is not well-formed multipart.
        else if (err) return refuse(400, "The upload could not be read: the request is not well-formed multipart/form-data.");
        (req as typeof req & { uploads?: UploadedFiles }).uploads = uploads;
        // A streamed file the action did not move away (an error, another intent) goes with the response.
        const streamed = files.map((f) => f.path).filter((p): p is string => Boolean(p));
        if (streamed.length) res.on("close", () => streamed.forEach((p) => fs.rm(p, { force: true }, () => undefined)));
        next();
      });
    }
  };
}

/** Reads a parsed multipart body from the load context, or a url-encoded one from the request. */
export async function readForm(request: Request, uploads?: UploadedFiles): Promise<UploadedFiles> {
  if (uploads) return uploads;
  const form = await request.formData();
  const fields: Record<string, string> = {};
  for (const [k, v] of form.entries()) if (typeof v === "string" && !(k in fields)) fields[k] = v;
  return { fields, files: [] };
}
