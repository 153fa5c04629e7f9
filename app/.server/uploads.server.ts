// Multipart bodies are parsed by multer in server.ts (before Remix sees the request),
// with per-route limits, so an oversize file is refused while streaming, before it is read.
import multer from "multer";
import type { RequestHandler } from "express";

export interface UploadedFile {
  field: string;
  originalName: string;
  mimeType: string;
  size: number;
  buffer: Buffer;
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
}

/** Route path prefix → limits. The longest matching prefix wins. */
export const UPLOAD_ROUTES: Record<string, UploadLimits> = {
  "/submission": { fileSize: 512_000, files: 3 },
  "/datasetInDetail": { fileSize: 10 * 1024 * 1024, files: 50 },
  "/UserImgclassification": { fileSize: 10 * 1024 * 1024, files: 1 },
};

/** The seeds' upload timeout: a body that has not arrived in 30 s is refused, not waited for. */
export const UPLOAD_TIMEOUT_MS = 30_000;

export function limitsFor(rawPath: string): UploadLimits | undefined {
  // With JavaScript on, Remix posts to "<route>.data" (single fetch): same route, same limits.
  const pathname = rawPath.replace(/\.data$/, "");
  const match = Object.keys(UPLOAD_ROUTES)
    .filter((p) => pathname === p || pathname.startsWith(p + "/") || pathname.startsWith(p + "?"))
    .sort((a, b) => b.length - a.length)[0];
  return match ? UPLOAD_ROUTES[match] : undefined;
}

/** Express middleware: parses multipart POSTs for the routes above into req.uploads. */
export function multipartMiddleware(): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "POST" || !req.is("multipart/form-data")) return next();
    const limits = limitsFor(req.path);
    if (!limits) return next();
    const timer = setTimeout(() => {
      if (!res.headersSent)
        res.status(408).type("text/plain").send("The upload took longer than 30 seconds and was cancelled. Please try again with fewer or smaller files.");
      req.destroy();
    }, UPLOAD_TIMEOUT_MS);
    res.on("close", () => clearTimeout(timer));
    const upload = multer({
      storage: multer.memoryStorage(),
      limits: { fileSize: limits.fileSize, files: limits.files, fields: limits.fields ?? 50, fieldSize: 64 * 1024 },
    }).any();
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
        buffer: f.buffer,
      }));
      const uploads: UploadedFiles = { fields, files };
      if (err instanceof multer.MulterError) uploads.error = { code: err.code, field: err.field, message: err.message };
      else if (err) return next(err);
      (req as typeof req & { uploads?: UploadedFiles }).uploads = uploads;
      next();
    });
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
