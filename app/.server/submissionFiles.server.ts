// A submission's files (docs/metascore.md "Result files"): where they are kept (under a generated
// name, never the client's), the name shown for them, the upload's file rules (one file, its type,
// at most 500 KB: the shape of a file after upload, checked here rather than in a form schema),
// and multer's refusals in the page's words.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { MAPS_MAX_BYTES, mapsMessage, mib } from "~/lib/rules/maps.ts";
import { MAX_UPLOAD_BYTES, MSG } from "~/lib/rules/submission.ts";
import { readFields } from "./forms.server.ts";
import { type UploadedFile, type UploadedFiles } from "./uploads.server.ts";

export type Protocol = "morf" | "lerf";
export type FileKind = Protocol | "python" | "maps";

export function uploadDir(): string {
  return path.resolve(process.env.UPLOAD_DIR ?? "var/uploads", "submissions");
}

/** var/uploads/maps: the attribution-map zips behind verified results (app/.server/mapsRuns.server.ts). */
export function mapsDir(): string {
  return path.resolve(process.env.UPLOAD_DIR ?? "var/uploads", "maps");
}

/** Writes bytes under a generated name (the client's name never becomes a path) and returns that name. */
export async function storeFile(buffer: Buffer, ext: ".csv" | ".py"): Promise<string> {
  const dir = uploadDir();
  await fs.mkdir(dir, { recursive: true });
  const name = `${crypto.randomUUID()}${ext}`;
  // Write to a temporary name and rename, so a crash never leaves a half file under the real name.
  const tmp = path.join(dir, `.${name}.tmp`);
  await fs.writeFile(tmp, buffer, { flag: "wx" });
  await fs.rename(tmp, path.join(dir, name));
  return name;
}

/** Absolute path of a stored file; names are ours (uuid + ext), anything else is refused. */
export function storedPath(name: string): string {
  if (!/^[0-9a-f-]{36}\.(csv|py)$/.test(name)) throw new Error(`not a stored file name: ${name}`);
  return path.join(uploadDir(), name);
}

export async function removeStored(name: string | null | undefined): Promise<void> {
  if (name) await fs.rm(storedPath(name), { force: true }).catch(() => undefined);
}

/**
 * A display name for a client's file: its base name only, bounded, with letters and digits of
 * any script kept (uploads are decoded as UTF-8, uploads.server.ts), so "结果.csv" stays
 * readable; controls, bidi overrides and punctuation other than . - _ ( ) become "_".
 */
export function cleanFileName(name: string, fallback: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const clean = Array.from(base.normalize("NFC").replace(/[^\p{L}\p{M}\p{N}_.\- ()]/gu, "_"))
    .slice(0, 120)
    .join("")
    .trim();
  return clean || fallback;
}

/** The upload's file rules, checked on the server: one file, CSV by name/type, ≤ 500 KB. Undefined = fine. */
export function checkCsvFile(files: UploadedFile[]): string | undefined {
  if (files.length > 1) return MSG.oneFile;
  const f = files[0];
  if (!f) return undefined;
  const csvType = /\.csv$/i.test(f.originalName) || f.mimeType === "text/csv";
  if (!csvType) return MSG.csvType;
  if (f.size > MAX_UPLOAD_BYTES || f.buffer.length > MAX_UPLOAD_BYTES) return MSG.csvSize;
  return undefined;
}

export function checkPythonFile(files: UploadedFile[]): string | undefined {
  if (files.length > 1) return MSG.oneFile;
  const f = files[0];
  if (!f) return undefined;
  if (!/\.py$/i.test(f.originalName)) return MSG.pyType;
  if (f.size > MAX_UPLOAD_BYTES || f.buffer.length > MAX_UPLOAD_BYTES) return MSG.pySize;
  return undefined;
}

/** multer's refusal of a body (which limit, which box) in the upload messages' words (docs/product.md "Submission, history and approval"). */
export function uploadLimitMessage(error: NonNullable<UploadedFiles["error"]>): string {
  const python = error.field === "python";
  if (error.code === "LIMIT_FILE_SIZE" && error.field === "maps") return mapsMessage("tooLarge", { limit: mib(MAPS_MAX_BYTES) });
  if (error.code === "LIMIT_FILE_SIZE") return python ? MSG.pySize : MSG.csvSize;
  if (error.code === "LIMIT_FILE_COUNT" || error.code === "LIMIT_UNEXPECTED_FILE") return MSG.oneFile;
  return MSG.uploadFailed;
}

/**
 * The parsed form of a /submission POST. Document POSTs were parsed by multer in server.ts
 * (context.uploads); client-side submissions arrive at /submission.data, which multer's
 * prefix table does not cover, so they are parsed here with the same limits, the body's
 * declared size checked before reading it.
 */
/** The submission page's form: multipart bodies were parsed (with the route's limits) by multer in server.ts. */
export function readSubmissionForm(request: Request, uploads?: UploadedFiles): Promise<UploadedFiles> {
  return readFields(request, uploads);
}

/** Browsers send an empty part for a file input left empty; those are no file at all. */
export const filesOf = (form: UploadedFiles, field: string) => form.files.filter((f) => f.field === field && (f.size > 0 || f.originalName !== ""));
