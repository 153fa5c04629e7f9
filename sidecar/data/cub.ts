// CUB-200-2011 (Wah et al., Caltech-UCSD Birds) in its published layout, the folder the
// archive CUB_200_2011.tgz unpacks to (CUB_DIR points at it):
//   images.txt               "<image_id> <relative path under images/>"
//   image_class_labels.txt   "<image_id> <class_id>"          (class ids 1..200)
//   train_test_split.txt     "<image_id> <1 = train, 0 = test>"
//   classes.txt              "<class_id> <class name>"
//   bounding_boxes.txt       "<image_id> <x> <y> <width> <height>" (pixels, floats)
//   parts/parts.txt          "<part_id> <part name>";  parts/part_locs.txt "<image_id> <part_id> <x> <y> <visible>"
//   images/<class folder>/<file>.jpg
// As the ProtoTree reference's preprocessing (preprocess_data/cub.py), each image is cropped to
// its bird's bounding box before resizing; here to CUB_INPUT_SIZE² (the CPU budget of the
// platform's small backbones). Part locations are mapped into the cropped, resized frame.
import fs from "node:fs";
import path from "node:path";
import { DatasetFormatError, type DatasetSplits, type ImageDataset } from "./dataset.ts";
import { decodeImage, resizeBilinear, type FloatImage } from "./png.ts";

export const CUB_INPUT_SIZE = 32;

/** CUB_DIR when it names a folder holding images.txt; null otherwise (not installed). */
export function cubDir(): string | null {
  const dir = process.env.CUB_DIR;
  return dir && fs.existsSync(path.join(dir, "images.txt")) ? dir : null;
}

/** Lines of a whitespace-separated index file, split; the file named in errors. */
function table(dir: string, file: string, minCols: number, optional = false): string[][] | null {
  const p = path.join(dir, file);
  if (!fs.existsSync(p)) {
    if (optional) return null;
    throw new DatasetFormatError(`CUB-200-2011: ${file} is missing in ${dir}`);
  }
  return fs
    .readFileSync(p, "utf8")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .map((l, i) => {
      const cols = l.split(/\s+/);
      if (cols.length < minCols) throw new DatasetFormatError(`CUB-200-2011: ${file} line ${i + 1} has ${cols.length} fields, expected ${minCols}`);
      return cols;
    });
}

export interface CubPart {
  part: number;
  /** In the cropped, resized image's pixels. */
  x: number;
  y: number;
}

export interface CubSplits extends DatasetSplits {
  partNames: string[];
  /** Visible part locations per image of each split (same order as the split's images). */
  parts: { train: CubPart[][]; test: CubPart[][] };
  /** The source image id of each split's images. */
  imageIds: { train: number[]; test: number[] };
}

/** Crop [x, y, w, h] of an image (clamped to it). */
function crop(img: FloatImage, box: number[]): FloatImage {
  const x0 = Math.max(0, Math.min(img.width - 1, Math.floor(box[0])));
  const y0 = Math.max(0, Math.min(img.height - 1, Math.floor(box[1])));
  const w = Math.max(1, Math.min(img.width - x0, Math.round(box[2])));
  const h = Math.max(1, Math.min(img.height - y0, Math.round(box[3])));
  const data = new Float32Array(w * h * img.channels);
  for (let y = 0; y < h; y++)
    data.set(img.data.subarray(((y0 + y) * img.width + x0) * img.channels, ((y0 + y) * img.width + x0 + w) * img.channels), y * w * img.channels);
  return { height: h, width: w, channels: img.channels, data };
}

function toRgb(img: FloatImage): FloatImage {
  if (img.channels === 3) return img;
  const data = new Float32Array(img.height * img.width * 3);
  for (let p = 0; p < img.height * img.width; p++) for (let c = 0; c < 3; c++) data[p * 3 + c] = img.data[p * img.channels];
  return { ...img, channels: 3, data };
}

export function readCub(dir: string, size = CUB_INPUT_SIZE): CubSplits {
  const images = table(dir, "images.txt", 2)!;
  const labels = new Map(table(dir, "image_class_labels.txt", 2)!.map(([id, c]) => [Number(id), Number(c)]));
  const split = new Map(table(dir, "train_test_split.txt", 2)!.map(([id, t]) => [Number(id), t === "1"]));
  const classRows = table(dir, "classes.txt", 2)!;
  const classNames = classRows.map((r) =>
    r
      .slice(1)
      .join(" ")
      .replace(/^\d+\./, "")
      .replace(/_/g, " "),
  );
  const boxes = new Map((table(dir, "bounding_boxes.txt", 5, true) ?? []).map((r) => [Number(r[0]), r.slice(1, 5).map(Number)]));
  const partNames = (table(dir, "parts/parts.txt", 2, true) ?? []).map((r) => r.slice(1).join(" "));
  const partLocs = new Map<number, Array<{ part: number; x: number; y: number }>>();
  for (const r of table(dir, "parts/part_locs.txt", 5, true) ?? []) {
    if (r[4] !== "1") continue;
    const id = Number(r[0]);
    if (!partLocs.has(id)) partLocs.set(id, []);
    partLocs.get(id)!.push({ part: Number(r[1]), x: Number(r[2]), y: Number(r[3]) });
  }
  const n = size * size * 3;
  const acc = {
    train: [] as Array<{ id: number; img: Float32Array; label: number; parts: CubPart[] }>,
    test: [] as Array<{ id: number; img: Float32Array; label: number; parts: CubPart[] }>,
  };
  for (const [idText, rel] of images) {
    const id = Number(idText);
    const label = labels.get(id);
    if (label === undefined || label < 1 || label > classNames.length)
      throw new DatasetFormatError(`CUB-200-2011: image ${id} has no valid class in image_class_labels.txt`);
    const isTrain = split.get(id);
    if (isTrain === undefined) throw new DatasetFormatError(`CUB-200-2011: image ${id} is not in train_test_split.txt`);
    const file = path.join(dir, "images", rel);
    if (!fs.existsSync(file)) throw new DatasetFormatError(`CUB-200-2011: ${file} (image ${id}) is missing`);
    let img = toRgb(decodeImage(fs.readFileSync(file), undefined, file));
    const box = boxes.get(id) ?? [0, 0, img.width, img.height];
    const cropped = crop(img, box);
    const sx = size / cropped.width,
      sy = size / cropped.height;
    const x0 = Math.max(0, Math.floor(box[0])),
      y0 = Math.max(0, Math.floor(box[1]));
    const parts = (partLocs.get(id) ?? [])
      .map((p) => ({ part: p.part, x: (p.x - x0) * sx, y: (p.y - y0) * sy }))
      .filter((p) => p.x >= 0 && p.y >= 0 && p.x < size && p.y < size);
    img = resizeBilinear(cropped, size, size);
    acc[isTrain ? "train" : "test"].push({ id, img: img.data, label: label - 1, parts });
  }
  const build = (s: "train" | "test"): ImageDataset => {
    const items = acc[s];
    const data = new Float32Array(items.length * n);
    items.forEach((it, i) => data.set(it.img, i * n));
    return {
      name: `cub/${s}`,
      height: size,
      width: size,
      channels: 3,
      classNames,
      size: items.length,
      images: data,
      labels: Int32Array.from(items.map((it) => it.label)),
    };
  };
  return {
    train: build("train"),
    test: build("test"),
    partNames,
    parts: { train: acc.train.map((a) => a.parts), test: acc.test.map((a) => a.parts) },
    imageIds: { train: acc.train.map((a) => a.id), test: acc.test.map((a) => a.id) },
  };
}
