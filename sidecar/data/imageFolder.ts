// Image-folder reader: one sub-folder per class (its name is the class name, in
// sorted order), PNG or JPEG files inside (type sniffed from the bytes). Images are
// resized to a common size (the first image's, unless given) and converted to the
// requested channel count, so an operator's folder can feed any zoo network.
import fs from "node:fs";
import path from "node:path";
import { DatasetFormatError, type DatasetSplits, type ImageDataset } from "./dataset.ts";
import { decodeImage, resizeBilinear, sniffImageKind } from "./png.ts";

export interface ImageFolderOptions {
  height?: number;
  width?: number;
  /** 1 (grey) or 3 (RGB); default: 3 unless every image is grey. */
  channels?: 1 | 3;
  /** Class names in label order; default: the sub-folder names, sorted. */
  classNames?: string[];
  name?: string;
}

export function readImageFolder(root: string, opts: ImageFolderOptions = {}): ImageDataset {
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new DatasetFormatError(`image folder ${root} not found`);
  const classDirs = fs
    .readdirSync(root)
    .filter((d) => fs.statSync(path.join(root, d)).isDirectory())
    .sort();
  const classNames = opts.classNames ?? classDirs;
  if (classNames.length === 0) throw new DatasetFormatError(`${root} has no class sub-folders (expected one folder per class)`);
  const entries: Array<{ file: string; label: number }> = [];
  for (const dir of classDirs) {
    const label = classNames.indexOf(dir);
    if (label < 0) throw new DatasetFormatError(`${root}/${dir} is not one of the classes ${classNames.join(", ")}`);
    for (const f of fs.readdirSync(path.join(root, dir)).sort()) {
      const file = path.join(root, dir, f);
      if (fs.statSync(file).isFile()) entries.push({ file, label });
    }
  }
  if (entries.length === 0) throw new DatasetFormatError(`${root} holds no image files`);
  const decoded = entries.map((e) => {
    const bytes = fs.readFileSync(e.file);
    if (!sniffImageKind(bytes)) throw new DatasetFormatError(`${e.file} is neither PNG nor JPEG`);
    return { img: decodeImage(bytes, undefined, e.file), label: e.label };
  });
  const height = opts.height ?? decoded[0].img.height;
  const width = opts.width ?? decoded[0].img.width;
  const channels = opts.channels ?? (decoded.every((d) => d.img.channels === 1) ? 1 : 3);
  const n = height * width * channels;
  const images = new Float32Array(decoded.length * n);
  const labels = new Int32Array(decoded.length);
  decoded.forEach((d, i) => {
    let img = resizeBilinear(d.img, height, width);
    if (img.channels !== channels) {
      const data = new Float32Array(height * width * channels);
      for (let p = 0; p < height * width; p++) {
        if (channels === 1) data[p] = 0.299 * img.data[p * 3] + 0.587 * img.data[p * 3 + 1] + 0.114 * img.data[p * 3 + 2];
        else for (let c = 0; c < 3; c++) data[p * 3 + c] = img.data[p];
      }
      img = { height, width, channels, data };
    }
    images.set(img.data, i * n);
    labels[i] = d.label;
  });
  return { name: opts.name ?? path.basename(root), height, width, channels, classNames, size: decoded.length, images, labels };
}

/** `root/train/<class>/…` and `root/test/<class>/…`, both with the train split's classes and size. */
export function readImageFolderSplits(root: string, opts: ImageFolderOptions = {}): DatasetSplits {
  for (const s of ["train", "test"]) {
    if (!fs.existsSync(path.join(root, s))) throw new DatasetFormatError(`${root} needs train/ and test/ sub-folders (each with one folder per class)`);
  }
  const train = readImageFolder(path.join(root, "train"), { ...opts, name: `${path.basename(root)}/train` });
  const test = readImageFolder(path.join(root, "test"), {
    height: train.height,
    width: train.width,
    channels: train.channels as 1 | 3,
    classNames: train.classNames,
    name: `${path.basename(root)}/test`,
  });
  return { train, test };
}
