// Pascal VOC 2012 reader, for the folder layout the challenge publishes (VOCdevkit/VOC2012):
//   JPEGImages/<id>.jpg               the pictures
//   SegmentationClass/<id>.png        class masks: palette PNGs whose pixel values are class
//                                     ids (0 background, 1..20 the classes, 255 "void": object
//                                     borders and unlabelled pixels, ignored when scoring)
//   Annotations/<id>.xml              objects (name, pose, truncated, difficult, bndbox): the
//                                     image-level (multi-label) classes
//   ImageSets/Segmentation/{train,val,trainval}.txt   ids of the segmentation task's splits
//   ImageSets/Main/{train,val,trainval}.txt           ids of the classification/detection splits
// An operator points VOC_DIR at VOCdevkit/VOC2012 (or at the folder holding VOCdevkit or
// VOC2012); nothing is downloaded. tests/fixtures/voc/ holds a tiny copy of this layout
// (made by tests/fixtures/voc/generate.ts) that tests/multilabel/voc.test.ts reads.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { DatasetFormatError } from "./dataset.ts";
import { decodeImage, resizeBilinear, type FloatImage } from "./png.ts";

/** The 20 classes as the segmentation demo names them (docs/product.md "Segmentation"; mask values 1..20, in this order). */
export const VOC_CLASSES = [
  "aeroplane",
  "bicycle",
  "bird",
  "boat",
  "bottle",
  "bus",
  "car",
  "cat",
  "chair",
  "cow",
  "dining table",
  "dog",
  "horse",
  "motorbike",
  "person",
  "potted plant",
  "sheep",
  "sofa",
  "train",
  "tv/monitor",
] as const;
/** The same classes as VOC's XML annotations and ImageSets/Main file names spell them: without spaces or "/". */
export const VOC_XML_NAMES: readonly string[] = VOC_CLASSES.map((c) => c.replace(/[ /]/g, ""));
export const VOC_VOID = 255;
export const VOC_SPLITS = ["train", "val", "trainval"] as const;
export type VocSplit = (typeof VOC_SPLITS)[number];
export type VocTask = "Segmentation" | "Main";
/** VOC image ids look like 2007_000032 or 2008_000002; anything else is refused (no path tricks). */
const VOC_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * VOC's colour map (the devkit's `labelcolormap` / `bitget` construction): index i's RGB takes
 * i's bits three at a time, interleaved from the most significant colour bit down. Index 0 is
 * black, 1 (aeroplane) (128, 0, 0), …, 255 (void) (224, 224, 192). The map is one-to-one, so a
 * mask saved as RGB instead of palette can still be read back.
 */
export function vocColormap(): Array<[number, number, number]> {
  const out: Array<[number, number, number]> = [];
  for (let i = 0; i < 256; i++) {
    let r = 0,
      g = 0,
      b = 0,
      c = i;
    for (let j = 0; j < 8; j++) {
      r |= ((c >> 0) & 1) << (7 - j);
      g |= ((c >> 1) & 1) << (7 - j);
      b |= ((c >> 2) & 1) << (7 - j);
      c >>= 3;
    }
    out.push([r, g, b]);
  }
  return out;
}

/** The PNG's colour type (IHDR byte 9) and palette (PLTE), read from its chunks. */
function pngHeader(bytes: Uint8Array, what: string): { colorType: number; bitDepth: number; palette: Array<[number, number, number]> | null } {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length < 33 || sig.some((v, i) => bytes[i] !== v)) throw new DatasetFormatError(`${what} is not a PNG file`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let colorType = -1,
    bitDepth = 0,
    palette: Array<[number, number, number]> | null = null;
  for (let off = 8; off + 8 <= bytes.length;) {
    const len = view.getUint32(off);
    const type = String.fromCharCode(bytes[off + 4], bytes[off + 5], bytes[off + 6], bytes[off + 7]);
    if (off + 12 + len > bytes.length) throw new DatasetFormatError(`${what}: PNG chunk ${type} runs past the end of the file`);
    if (type === "IHDR") {
      bitDepth = bytes[off + 16];
      colorType = bytes[off + 17];
    } else if (type === "PLTE") {
      palette = [];
      for (let i = 0; i + 2 < len; i += 3) palette.push([bytes[off + 8 + i], bytes[off + 9 + i], bytes[off + 10 + i]]);
    } else if (type === "IDAT" || type === "IEND") break;
    off += 12 + len;
  }
  return { colorType, bitDepth, palette };
}

export interface VocMask {
  height: number;
  width: number;
  /** H × W class ids: 0 background, 1..20 VOC_CLASSES, 255 void. */
  data: Uint8Array;
}

/**
 * Decode a SegmentationClass PNG to class ids. A palette PNG (as VOC ships them) gives each
 * pixel's palette index; a greyscale PNG (masks some tools re-save) gives its grey value; an
 * RGB PNG is read back through VOC's colour map. Values other than 0..20 and 255 are refused.
 */
export function decodeVocMask(bytes: Uint8Array, what = "mask"): VocMask {
  const { colorType, palette } = pngHeader(bytes, what);
  const img = decodeImage(bytes, 3, what);
  const n = img.height * img.width;
  const data = new Uint8Array(n);
  // pngjs expands palette and grey PNGs to RGB(A); the colour → index lookup undoes that exactly.
  const table = colorType === 3 ? palette : colorType === 0 || colorType === 4 ? null : vocColormap();
  if (colorType === 3 && !palette) throw new DatasetFormatError(`${what} is a palette PNG without a palette`);
  const lookup = new Map<number, number>();
  if (table) table.forEach(([r, g, b], i) => lookup.has((r << 16) | (g << 8) | b) || lookup.set((r << 16) | (g << 8) | b, i));
  for (let p = 0; p < n; p++) {
    const r = Math.round(img.data[p * 3] * 255),
      g = Math.round(img.data[p * 3 + 1] * 255),
      b = Math.round(img.data[p * 3 + 2] * 255);
    const v = table ? lookup.get((r << 16) | (g << 8) | b) : r;
    if (v === undefined)
      throw new DatasetFormatError(`${what}: pixel ${p % img.width},${Math.floor(p / img.width)} has colour (${r}, ${g}, ${b}), not in its palette`);
    if (v > VOC_CLASSES.length && v !== VOC_VOID) throw new DatasetFormatError(`${what}: pixel value ${v} is neither a class (0–20) nor void (255)`);
    data[p] = v;
  }
  return { height: img.height, width: img.width, data };
}

export interface VocObject {
  /** Index into VOC_CLASSES. */
  cls: number;
  difficult: boolean;
  truncated: boolean;
  bbox: { xmin: number; ymin: number; xmax: number; ymax: number } | null;
}

const tag = (xml: string, name: string): string | null => {
  const m = new RegExp(`<${name}>\\s*([^<]*?)\\s*</${name}>`).exec(xml);
  return m ? m[1] : null;
};

/**
 * The objects of a VOC annotation file. VOC's XML is flat and fixed (annotation > object >
 * name, pose, truncated, difficult, bndbox > xmin…), so a few tag matches read it; no XML
 * library is a dependency of the sidecar, and a general parser would add nothing here.
 * `<part>` children (person layout) carry their own <name> and are cut out first.
 */
export function parseVocAnnotation(xml: string, what = "annotation"): VocObject[] {
  if (!/<annotation[\s>]/.test(xml)) throw new DatasetFormatError(`${what} is not a VOC annotation (no <annotation> element)`);
  const objects: VocObject[] = [];
  for (const m of xml.matchAll(/<object>([\s\S]*?)<\/object>/g)) {
    const body = m[1].replace(/<part>[\s\S]*?<\/part>/g, "");
    const name = tag(body, "name");
    const cls = VOC_XML_NAMES.indexOf(name ?? "");
    if (cls < 0) throw new DatasetFormatError(`${what}: object class "${name ?? ""}" is not one of VOC's 20`);
    const box = /<bndbox>([\s\S]*?)<\/bndbox>/.exec(body)?.[1] ?? null;
    const num = (k: string) => Number(tag(box ?? "", k));
    objects.push({
      cls,
      difficult: tag(body, "difficult") === "1",
      truncated: tag(body, "truncated") === "1",
      bbox: box ? { xmin: num("xmin"), ymin: num("ymin"), xmax: num("xmax"), ymax: num("ymax") } : null,
    });
  }
  return objects;
}

/**
 * Image-level labels from objects, as VOC's classification task scores them: a class is a
 * label (1) when it has a non-difficult object, "difficult" (0, ignored when scoring) when
 * all its objects are difficult, absent (−1) otherwise. Returned per VOC_CLASSES index.
 */
export function imageLabels(objects: VocObject[]): Int8Array {
  const out = new Int8Array(VOC_CLASSES.length).fill(-1);
  for (const o of objects) out[o.cls] = o.difficult ? Math.max(out[o.cls], 0) : 1;
  return out;
}

/** Resolve an operator's folder to the one holding JPEGImages/ (VOC2012 itself, or VOCdevkit/VOC2012 below it). */
export function resolveVocRoot(dir: string): string {
  for (const cand of [dir, path.join(dir, "VOC2012"), path.join(dir, "VOCdevkit", "VOC2012")]) {
    if (fs.existsSync(path.join(cand, "JPEGImages")) && fs.existsSync(path.join(cand, "ImageSets"))) return cand;
  }
  throw new DatasetFormatError(
    `${dir} is not a Pascal VOC 2012 folder (expected JPEGImages/ and ImageSets/ in it, or in VOC2012/ or VOCdevkit/VOC2012/ below it)`,
  );
}

/** VOC_DIR from the environment, resolved; null when unset. */
export function vocDirFromEnv(env: Record<string, string | undefined> = process.env): string | null {
  const dir = env.VOC_DIR?.trim();
  return dir ? resolveVocRoot(dir) : null;
}

/** Ids listed in ImageSets/<task>/<split>.txt (one per line; VOC's per-class files are not read here). */
export function readVocIds(root: string, task: VocTask, split: VocSplit): string[] {
  const file = path.join(root, "ImageSets", task, `${split}.txt`);
  if (!fs.existsSync(file)) throw new DatasetFormatError(`${file} not found (VOC lists each split's image ids there)`);
  const ids = fs
    .readFileSync(file, "utf8")
    .split(/\r?\n/)
    .map((l) => l.trim().split(/\s+/)[0])
    .filter(Boolean);
  for (const id of ids) if (!VOC_ID.test(id)) throw new DatasetFormatError(`${file}: "${id.slice(0, 80)}" is not a VOC image id`);
  return ids;
}

export interface VocItem {
  id: string;
  image: FloatImage;
  /** Per VOC_CLASSES index: 1 label, 0 difficult only, −1 absent (from Annotations/<id>.xml). */
  labels: Int8Array;
  objects: VocObject[];
  /** SegmentationClass/<id>.png, when the image has one. */
  mask: VocMask | null;
}

/** One image with its annotation and, when present, its class mask. */
export function readVocItem(root: string, id: string): VocItem {
  if (!VOC_ID.test(id)) throw new DatasetFormatError(`"${id.slice(0, 80)}" is not a VOC image id`);
  const jpg = path.join(root, "JPEGImages", `${id}.jpg`);
  if (!fs.existsSync(jpg)) throw new DatasetFormatError(`${jpg} not found`);
  const image = decodeImage(fs.readFileSync(jpg), 3, jpg);
  const xml = path.join(root, "Annotations", `${id}.xml`);
  const objects = fs.existsSync(xml) ? parseVocAnnotation(fs.readFileSync(xml, "utf8"), xml) : [];
  const png = path.join(root, "SegmentationClass", `${id}.png`);
  const mask = fs.existsSync(png) ? decodeVocMask(fs.readFileSync(png), png) : null;
  if (mask && (mask.height !== image.height || mask.width !== image.width))
    throw new DatasetFormatError(`${png} is ${mask.width}×${mask.height} but its image is ${image.width}×${image.height}`);
  // Images with a mask but no annotation (never in VOC 2012, possible in a cut-down copy) take their labels from the mask.
  let labels = imageLabels(objects);
  if (objects.length === 0 && mask) {
    labels = new Int8Array(VOC_CLASSES.length).fill(-1);
    for (const v of mask.data) if (v >= 1 && v <= VOC_CLASSES.length) labels[v - 1] = 1;
  }
  return { id, image, labels, objects, mask };
}

/** A VOC split as a multi-label set at the model's input size (images resized bilinearly, not cropped). */
export interface VocMultiLabelSplit {
  name: string;
  ids: string[];
  height: number;
  width: number;
  channels: 3;
  classNames: string[];
  size: number;
  images: Float32Array;
  /** N × 20: 1 label, 0 difficult only (ignore), −1 absent. */
  targets: Int8Array;
}

export function readVocMultiLabel(root: string, split: VocSplit, opts: { task?: VocTask; size?: number; limit?: number } = {}): VocMultiLabelSplit {
  const side = opts.size ?? 32;
  const ids = readVocIds(root, opts.task ?? "Main", split).slice(0, opts.limit ?? Infinity);
  const C = VOC_CLASSES.length;
  const images = new Float32Array(ids.length * side * side * 3);
  const targets = new Int8Array(ids.length * C);
  ids.forEach((id, i) => {
    const item = readVocItem(root, id);
    images.set(resizeBilinear(item.image, side, side).data, i * side * side * 3);
    targets.set(item.labels, i * C);
  });
  return { name: `voc2012/${split}`, ids, height: side, width: side, channels: 3, classNames: [...VOC_CLASSES], size: ids.length, images, targets };
}

// --- Writing palette PNGs (the fixture generator needs VOC's exact file type; pngjs only writes RGB(A)). ---

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** An 8-bit palette PNG of class ids with VOC's 256-colour palette, as SegmentationClass/ holds. */
export function encodeVocMask(mask: VocMask): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(mask.width, 0);
  ihdr.writeUInt32BE(mask.height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 3; // colour type: palette
  const plte = Buffer.from(vocColormap().flat());
  const raw = Buffer.alloc(mask.height * (mask.width + 1));
  for (let y = 0; y < mask.height; y++) {
    raw[y * (mask.width + 1)] = 0; // filter: none
    Buffer.from(mask.data.buffer, mask.data.byteOffset + y * mask.width, mask.width).copy(raw, y * (mask.width + 1) + 1);
  }
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([sig, chunk("IHDR", ihdr), chunk("PLTE", plte), chunk("IDAT", zlib.deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}
