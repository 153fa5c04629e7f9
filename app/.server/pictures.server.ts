// Picture files on disk: type sniffing, thumbnails, storage under generated names, removal.
// Every path written here is built by the server (random ids), so nothing a client sends
// (file names, "../" tricks) can choose where bytes land.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import sharp, { type Metadata } from "sharp";
import { DATASET_MSG, FILE_NAME_MAX, PICTURE_LIMITS } from "../lib/rules/datasets.ts";

/** Storage root for uploaded and seeded pictures; UPLOAD_DIR lets tests and deployments move it. */
export function storageRoot(): string {
  return path.resolve(process.env.UPLOAD_DIR ?? "var/uploads");
}

/** Resolve a stored relative path, refusing anything that would leave the storage root. */
export function storedFile(relative: string): string {
  const root = storageRoot();
  const full = path.resolve(root, relative);
  if (full !== root && !full.startsWith(root + path.sep)) throw new Error(`stored path escapes the storage root: ${relative}`);
  return full;
}

// One constant per limit, shared with the page and multer (app/lib/rules/datasets.ts).
export { PICTURE_LIMITS };

export type ImageMime = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

const EXT: Record<ImageMime, string> = { "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp" };

/** The image type from its first bytes (magic numbers), never from the name or the client's Content-Type. */
export function sniffImageType(b: Uint8Array): ImageMime | null {
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a)
    return "image/png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (b.length >= 6 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38 && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61)
    return "image/gif";
  if (b.length >= 12 && b[0] === 0x52 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x46 && b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50)
    return "image/webp";
  return null;
}

/** A client file name reduced to something safe to show: base name only, no control characters, bounded. */
export function displayNameOf(clientName: string): string {
  const base = clientName.split(/[\\/]/).pop() ?? "";
  const clean = base
    // Control characters are exactly what this removes.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .replace(/^\.+/, "")
    .trim();
  return (clean || "picture").slice(0, FILE_NAME_MAX);
}

/**
 * An uploaded picture: its bytes in memory, or the file it was streamed to
 * (var/uploads/incoming/*.part, app/.server/uploads.server.ts). Pages stream pictures to disk so a
 * signed-in upload of 50 × 10 MB is never held in the web process (docs/security.md "Uploads").
 */
export type PictureSource = Buffer | { path: string; size: number };

export interface PreparedPicture {
  mimeType: ImageMime;
  width: number;
  height: number;
  size: number;
  source: PictureSource;
  thumb: Buffer;
}

/** A refused file; its message is a message ref (app/lib/rules/datasets.ts DATASET_MSG). */
export class PictureRejected extends Error {}

/** The first bytes of a picture: enough for every magic number sniffImageType reads. */
async function headOf(source: PictureSource): Promise<Buffer> {
  if (Buffer.isBuffer(source)) return source.subarray(0, 16);
  const fh = await fs.open(source.path, "r");
  try {
    const { buffer, bytesRead } = await fh.read(Buffer.alloc(16), 0, 16, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** Checks one upload and renders its thumbnail; throws PictureRejected with a message for people. */
export async function preparePicture(source: PictureSource, clientName: string): Promise<PreparedPicture> {
  const shown = displayNameOf(clientName);
  const size = Buffer.isBuffer(source) ? source.length : source.size;
  if (size > PICTURE_LIMITS.maxBytes) throw new PictureRejected(DATASET_MSG.fileTooBig(shown));
  const mimeType = sniffImageType(await headOf(source));
  if (!mimeType) throw new PictureRejected(DATASET_MSG.notAnImage(shown));
  // sharp reads a file by its path itself, so a streamed picture is never read into memory whole here.
  const input = Buffer.isBuffer(source) ? source : source.path;
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: PICTURE_LIMITS.maxPixels }).metadata();
  } catch {
    throw new PictureRejected(DATASET_MSG.unreadable(shown));
  }
  if (!meta.width || !meta.height) throw new PictureRejected(DATASET_MSG.unreadable(shown));
  let thumb: Buffer;
  try {
    thumb = await makeThumbnail(input, meta.width, meta.height);
  } catch {
    // Magic bytes right but the body is broken (truncated, a renamed fragment).
    throw new PictureRejected(DATASET_MSG.unreadable(shown));
  }
  return { mimeType, width: meta.width, height: meta.height, size, source, thumb };
}

/**
 * A PNG at the resolution it is shown (PICTURE_LIMITS.thumbBox: the grid's widest tile at twice
 * the CSS pixels, for high-density screens), so the browser never enlarges a thumbnail. Tiny
 * images (28×28 Fashion-MNIST, 32×32 CIFAR) are scaled up by a whole factor with hard pixel
 * edges, every source pixel the same size; larger ones are reduced to fit the box.
 */
export async function makeThumbnail(bytes: Buffer | string, width: number, height: number): Promise<Buffer> {
  const box = PICTURE_LIMITS.thumbBox;
  const side = Math.max(width, height);
  const img = sharp(bytes, { limitInputPixels: PICTURE_LIMITS.maxPixels, animated: false }).rotate();
  if (side < box) {
    const f = Math.max(1, Math.floor(box / side));
    // EXIF rotation may swap the sides: the factor applies to the upright picture.
    const upright = (await sharp(bytes, { limitInputPixels: PICTURE_LIMITS.maxPixels }).metadata()).autoOrient;
    return img
      .resize({ width: (upright?.width ?? width) * f, height: (upright?.height ?? height) * f, kernel: "nearest" })
      .png({ compressionLevel: 9 })
      .toBuffer();
  }
  return img.resize({ width: box, height: box, fit: "inside", kernel: "lanczos3" }).png({ compressionLevel: 9 }).toBuffer();
}

/**
 * Writes the file and its thumbnail under fresh random names; returns their relative paths. The
 * files are complete before the caller creates the row that points at them (docs/security.md
 * "Files"). A streamed picture is moved, not copied: its `.part` file lies under the same upload
 * root (incoming/), so the rename is atomic and the picture appears whole or not at all.
 */
export async function storePicture(p: PreparedPicture): Promise<{ filePath: string; thumbPath: string }> {
  const id = crypto.randomUUID();
  const dir = path.posix.join("datasets", id.slice(0, 2));
  const filePath = path.posix.join(dir, `${id}.${EXT[p.mimeType]}`);
  const thumbPath = path.posix.join(dir, `${id}.thumb.png`);
  await fs.mkdir(storedFile(dir), { recursive: true });
  try {
    if (Buffer.isBuffer(p.source)) await fs.writeFile(storedFile(filePath), p.source, { flag: "wx" });
    else await fs.rename(p.source.path, storedFile(filePath));
    await fs.writeFile(storedFile(thumbPath), p.thumb, { flag: "wx" });
  } catch (e) {
    await removeStored([filePath, thumbPath]);
    throw e;
  }
  return { filePath, thumbPath };
}

/** Removes stored files; a file already gone is not an error (the row was the source of truth). */
export async function removeStored(paths: string[]): Promise<void> {
  await Promise.all(paths.map((p) => fs.rm(storedFile(p), { force: true })));
}

export async function readStored(relative: string): Promise<Buffer | null> {
  try {
    return await fs.readFile(storedFile(relative));
  } catch (e) {
    if ((e as NodeJS.ErrnoException)?.code === "ENOENT") return null;
    throw e;
  }
}

export const mimeOfStored = (relative: string): string =>
  relative.endsWith(".png")
    ? "image/png"
    : relative.endsWith(".jpg")
      ? "image/jpeg"
      : relative.endsWith(".gif")
        ? "image/gif"
        : relative.endsWith(".webp")
          ? "image/webp"
          : "application/octet-stream";
