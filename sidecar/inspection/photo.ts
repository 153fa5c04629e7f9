// One inspection photo through the crack detector, as the worker pool runs it: decode (type
// sniffed from the bytes), bound its size, detect, and encode the crack mask as a PNG.
import { PNG } from "pngjs";
import { CRACK_MM_PER_PIXEL } from "../data/cracks.ts";
import { decodeImage, sniffImageKind } from "../data/png.ts";
import { InferenceInputError } from "../inference/errors.ts";
import { DETECTOR_NAME, detectCracks } from "./detector.ts";

/** Largest photo accepted: 4 megapixels (about 15 s of filtering on one core). */
export const MAX_PHOTO_PIXELS = 4_000_000;
/** A scale outside this range is a typo, not a camera (mm per pixel). */
export const MM_PER_PIXEL_RANGE = [0.001, 100] as const;

export interface CrackPhotoRequest {
  image: Uint8Array;
  /** 0 = the generated photos' scale. */
  mmPerPixel: number;
}

export interface CrackPhotoResult {
  hasCrack: boolean;
  lengthMm: number;
  maxWidthMm: number;
  meanWidthMm: number;
  pieces: number;
  crackPixels: number;
  maskPng: Uint8Array;
  width: number;
  height: number;
  format: string;
  modelName: string;
  mmPerPixel: number;
}

/** The width and height a PNG or JPEG declares, read from its header without decoding it. */
function declaredSize(bytes: Uint8Array, kind: "png" | "jpeg"): [number, number] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (kind === "png") return bytes.length >= 24 ? [view.getUint32(16), view.getUint32(20)] : null;
  // JPEG: walk the segments to the first start-of-frame marker.
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) return null;
    const marker = bytes[i + 1];
    const length = view.getUint16(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return [view.getUint16(i + 7), view.getUint16(i + 5)];
    i += 2 + length;
  }
  return null;
}

function maskToPng(mask: Uint8Array, width: number, height: number): Uint8Array {
  const png = new PNG({ width, height, colorType: 0, inputColorType: 0, bitDepth: 8, inputHasAlpha: false });
  const grey = Buffer.alloc(width * height);
  for (let i = 0; i < mask.length; i++) grey[i] = mask[i] ? 255 : 0;
  png.data = grey;
  return PNG.sync.write(png, { colorType: 0, inputColorType: 0, inputHasAlpha: false });
}

export function detectCracksInPhoto(req: CrackPhotoRequest): CrackPhotoResult {
  const bytes = req.image;
  if (!bytes?.length) throw new InferenceInputError("the photo is empty");
  const kind = sniffImageKind(bytes);
  if (!kind) throw new InferenceInputError("the photo is neither PNG nor JPEG");
  const size = declaredSize(bytes, kind);
  if (!size || size[0] < 1 || size[1] < 1) throw new InferenceInputError(`the ${kind.toUpperCase()} header does not say the photo's size`);
  if (size[0] * size[1] > MAX_PHOTO_PIXELS)
    throw new InferenceInputError(`the photo is ${size[0]}×${size[1]} pixels; at most ${MAX_PHOTO_PIXELS.toLocaleString("en")} pixels are accepted`);
  const mmPerPixel = req.mmPerPixel || CRACK_MM_PER_PIXEL;
  if (!(mmPerPixel >= MM_PER_PIXEL_RANGE[0] && mmPerPixel <= MM_PER_PIXEL_RANGE[1]))
    throw new InferenceInputError(`the scale must be between ${MM_PER_PIXEL_RANGE[0]} and ${MM_PER_PIXEL_RANGE[1]} mm per pixel`);
  const img = decodeImage(bytes, 3, "the photo");
  const d = detectCracks(img, mmPerPixel);
  return {
    hasCrack: d.hasCrack,
    lengthMm: d.lengthMm,
    maxWidthMm: d.maxWidthMm,
    meanWidthMm: d.meanWidthMm,
    pieces: d.pieces,
    crackPixels: d.crackPixels,
    maskPng: maskToPng(d.mask, img.width, img.height),
    width: img.width,
    height: img.height,
    format: kind,
    modelName: DETECTOR_NAME,
    mmPerPixel,
  };
}
