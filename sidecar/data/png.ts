// PNG and JPEG decoding/encoding between file bytes and float images in [0, 1].
// Both codecs are pure JavaScript (pngjs, jpeg-js), so no native build is needed.
import { PNG } from "pngjs";
import jpeg from "jpeg-js";
import { DatasetFormatError } from "./dataset.ts";

export interface FloatImage {
  height: number;
  width: number;
  channels: number;
  /** H × W × C in [0, 1]. */
  data: Float32Array;
}

export type ImageKind = "png" | "jpeg";

/** Sniff the type from the bytes (never the file name). */
export function sniffImageKind(bytes: Uint8Array): ImageKind | null {
  if (bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return "png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  return null;
}

/** RGBA bytes → float image with 1 (luminance) or 3 channels. */
function fromRgba(rgba: Uint8Array, width: number, height: number, channels: 1 | 3): FloatImage {
  const data = new Float32Array(width * height * channels);
  for (let p = 0; p < width * height; p++) {
    const r = rgba[p * 4],
      g = rgba[p * 4 + 1],
      b = rgba[p * 4 + 2];
    if (channels === 1) data[p] = (0.299 * r + 0.587 * g + 0.114 * b) / 255;
    else {
      data[p * 3] = r / 255;
      data[p * 3 + 1] = g / 255;
      data[p * 3 + 2] = b / 255;
    }
  }
  return { height, width, channels, data };
}

/** Is every pixel grey (R = G = B)? Greyscale PNGs decode to RGBA with equal channels. */
function isGrey(rgba: Uint8Array): boolean {
  for (let i = 0; i < rgba.length; i += 4) if (rgba[i] !== rgba[i + 1] || rgba[i] !== rgba[i + 2]) return false;
  return true;
}

/**
 * Decode PNG or JPEG bytes. `channels` forces 1 or 3; left out, grey images give 1
 * channel and colour images 3. Alpha is dropped (composited over nothing).
 */
export function decodeImage(bytes: Uint8Array, channels?: 1 | 3, what = "image"): FloatImage {
  const kind = sniffImageKind(bytes);
  let rgba: Uint8Array, width: number, height: number;
  try {
    if (kind === "png") {
      const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      rgba = png.data;
      width = png.width;
      height = png.height;
    } else if (kind === "jpeg") {
      const img = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 256 });
      rgba = img.data;
      width = img.width;
      height = img.height;
    } else {
      throw new DatasetFormatError(`${what} is neither PNG nor JPEG (the first bytes do not match either format)`);
    }
  } catch (err) {
    if (err instanceof DatasetFormatError) throw err;
    throw new DatasetFormatError(`${what} could not be decoded as ${kind?.toUpperCase()}: ${(err as Error).message}`);
  }
  const ch = channels ?? (isGrey(rgba) ? 1 : 3);
  return fromRgba(rgba, width, height, ch);
}

/** Encode a float image (1 or 3 channels, values clamped to [0, 1]) as PNG bytes. */
export function encodePng(img: FloatImage): Buffer {
  const png = new PNG({ width: img.width, height: img.height });
  for (let p = 0; p < img.width * img.height; p++) {
    for (let c = 0; c < 3; c++) {
      const v = img.channels === 1 ? img.data[p] : img.data[p * img.channels + c];
      png.data[p * 4 + c] = Math.round(Math.min(1, Math.max(0, v)) * 255);
    }
    png.data[p * 4 + 3] = 255;
  }
  return PNG.sync.write(png);
}

/** Encode as JPEG (used for fixtures and by operators' image folders). */
export function encodeJpeg(img: FloatImage, quality = 90): Buffer {
  const rgba = Buffer.alloc(img.width * img.height * 4);
  for (let p = 0; p < img.width * img.height; p++) {
    for (let c = 0; c < 3; c++) {
      const v = img.channels === 1 ? img.data[p] : img.data[p * img.channels + c];
      rgba[p * 4 + c] = Math.round(Math.min(1, Math.max(0, v)) * 255);
    }
    rgba[p * 4 + 3] = 255;
  }
  return jpeg.encode({ data: rgba, width: img.width, height: img.height }, quality).data;
}

/** Bilinear resize (image folders may hold images of another size than the model's input). */
export function resizeBilinear(img: FloatImage, height: number, width: number): FloatImage {
  if (img.height === height && img.width === width) return img;
  const out = new Float32Array(height * width * img.channels);
  const sy = img.height / height,
    sx = img.width / width;
  for (let y = 0; y < height; y++) {
    const fy = Math.max(0, (y + 0.5) * sy - 0.5);
    const y0 = Math.min(img.height - 1, Math.floor(fy)),
      y1 = Math.min(img.height - 1, y0 + 1),
      wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.max(0, (x + 0.5) * sx - 0.5);
      const x0 = Math.min(img.width - 1, Math.floor(fx)),
        x1 = Math.min(img.width - 1, x0 + 1),
        wx = fx - x0;
      for (let c = 0; c < img.channels; c++) {
        const at = (yy: number, xx: number) => img.data[(yy * img.width + xx) * img.channels + c];
        out[(y * width + x) * img.channels + c] = (1 - wy) * ((1 - wx) * at(y0, x0) + wx * at(y0, x1)) + wy * ((1 - wx) * at(y1, x0) + wx * at(y1, x1));
      }
    }
  }
  return { height, width, channels: img.channels, data: out };
}
