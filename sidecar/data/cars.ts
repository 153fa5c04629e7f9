// Stanford Cars (Krause et al., 196 classes). The original devkit keeps its labels in MATLAB
// .mat files (cars_meta.mat, cars_train_annos.mat, cars_test_annos_withlabels.mat); reading the
// MAT v5 format would need a parser of its own, so this reader takes the widely used CSV
// re-distribution of the same annotations instead, next to the devkit's image folders (CARS_DIR):
//   cars_train/<file>.jpg, cars_test/<file>.jpg          (the devkit's folders, unchanged)
//   names.csv                                            one class name per line, class 1 first
//   anno_train.csv, anno_test.csv                        "<file>,<x1>,<y1>,<x2>,<y2>,<class 1..196>"
// or, failing those, the class-folder layout train/<class>/*.jpg, test/<class>/*.jpg. The
// reference's preprocess_data/cars.py sorts whole images into class folders (no cropping), so
// the boxes are read and returned but not applied; images are resized to CARS_INPUT_SIZE² for the
// platform's small backbones.
import fs from "node:fs";
import path from "node:path";
import { DatasetFormatError, type DatasetSplits, type ImageDataset } from "./dataset.ts";
import { readImageFolderSplits } from "./imageFolder.ts";
import { decodeImage, resizeBilinear } from "./png.ts";

export const CARS_INPUT_SIZE = 32;

/** CARS_DIR when it holds the CSV layout or the class-folder layout; null otherwise. */
export function carsDir(): string | null {
  const dir = process.env.CARS_DIR;
  if (!dir) return null;
  if (fs.existsSync(path.join(dir, "names.csv")) || (fs.existsSync(path.join(dir, "train")) && fs.existsSync(path.join(dir, "test")))) return dir;
  return null;
}

export interface CarBox {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface CarsSplits extends DatasetSplits {
  /** Bounding boxes per image (CSV layout only; in the original image's pixels). */
  boxes?: { train: CarBox[]; test: CarBox[] };
  files: { train: string[]; test: string[] };
}

function csvRows(file: string): string[][] {
  return fs
    .readFileSync(file, "utf8")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .map((l) => l.split(",").map((c) => c.trim()));
}

export function readCars(dir: string, size = CARS_INPUT_SIZE): CarsSplits {
  const namesFile = path.join(dir, "names.csv");
  if (!fs.existsSync(namesFile)) {
    const s = readImageFolderSplits(dir, { height: size, width: size, channels: 3 });
    return { ...s, files: { train: [], test: [] } };
  }
  const classNames = csvRows(namesFile).map((r) => r.join(","));
  const read = (split: "train" | "test"): { ds: ImageDataset; boxes: CarBox[]; files: string[] } => {
    const annos = path.join(dir, `anno_${split}.csv`);
    if (!fs.existsSync(annos)) throw new DatasetFormatError(`Stanford Cars: anno_${split}.csv is missing in ${dir}`);
    const rows = csvRows(annos).filter((r) => !/^\D/.test(r[1] ?? "")); // a header row has no number in column 2
    const n = size * size * 3;
    const images = new Float32Array(rows.length * n);
    const labels = new Int32Array(rows.length);
    const boxes: CarBox[] = [];
    const files: string[] = [];
    rows.forEach((r, i) => {
      if (r.length < 6) throw new DatasetFormatError(`Stanford Cars: anno_${split}.csv line ${i + 1} has ${r.length} fields, expected 6`);
      const label = Number(r[5]);
      if (!Number.isInteger(label) || label < 1 || label > classNames.length)
        throw new DatasetFormatError(`Stanford Cars: anno_${split}.csv line ${i + 1}: class ${r[5]} is not 1..${classNames.length}`);
      const file = path.join(dir, `cars_${split}`, path.basename(r[0]));
      if (!fs.existsSync(file)) throw new DatasetFormatError(`Stanford Cars: ${file} is missing`);
      let img = decodeImage(fs.readFileSync(file), 3, file);
      img = resizeBilinear(img, size, size);
      images.set(img.data, i * n);
      labels[i] = label - 1;
      boxes.push({ x1: Number(r[1]), y1: Number(r[2]), x2: Number(r[3]), y2: Number(r[4]) });
      files.push(path.basename(r[0]));
    });
    return { ds: { name: `cars/${split}`, height: size, width: size, channels: 3, classNames, size: rows.length, images, labels }, boxes, files };
  };
  const train = read("train");
  const test = read("test");
  return { train: train.ds, test: test.ds, boxes: { train: train.boxes, test: test.boxes }, files: { train: train.files, test: test.files } };
}
