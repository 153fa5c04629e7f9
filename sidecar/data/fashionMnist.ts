// Fashion-MNIST (Zalando): 28×28 greyscale clothing images, 60 000 train / 10 000
// test, read from the IDX files of Debian's `dataset-fashion-mnist` package.
import fs from "node:fs";
import path from "node:path";
import { DatasetFormatError, type DatasetSplits, type ImageDataset } from "./dataset.ts";
import { readIdxFile } from "./idx.ts";

export const FASHION_MNIST_CLASSES = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"];

/** Where Debian installs the files; FASHION_MNIST_DIR overrides it. */
export const DEFAULT_FASHION_MNIST_DIR = "/usr/share/datasets/fashion-mnist";

export function fashionMnistDir(): string {
  return process.env.FASHION_MNIST_DIR ?? DEFAULT_FASHION_MNIST_DIR;
}

/** Resolve `<prefix>-images-idx3-ubyte` with or without `.gz`. */
function locate(dir: string, base: string): string {
  for (const name of [base, `${base}.gz`]) {
    const p = path.join(dir, name);
    if (fs.existsSync(p)) return p;
  }
  throw new DatasetFormatError(
    `Fashion-MNIST file ${base}[.gz] not found in ${dir}; install Debian's dataset-fashion-mnist (apt-get install dataset-fashion-mnist) or set FASHION_MNIST_DIR`,
  );
}

export function readFashionMnistSplit(split: "train" | "test", dir = fashionMnistDir()): ImageDataset {
  const prefix = split === "train" ? "train" : "t10k";
  const imgs = readIdxFile(locate(dir, `${prefix}-images-idx3-ubyte`));
  const labs = readIdxFile(locate(dir, `${prefix}-labels-idx1-ubyte`));
  if (imgs.dims.length !== 3) throw new DatasetFormatError(`${prefix} images: expected 3 dimensions, got ${imgs.dims.length}`);
  if (labs.dims.length !== 1) throw new DatasetFormatError(`${prefix} labels: expected 1 dimension, got ${labs.dims.length}`);
  const [n, h, w] = imgs.dims;
  if (labs.dims[0] !== n) throw new DatasetFormatError(`${prefix}: ${n} images but ${labs.dims[0]} labels`);
  const images = new Float32Array(n * h * w);
  for (let i = 0; i < images.length; i++) images[i] = imgs.data[i] / 255;
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const l = labs.data[i];
    if (l >= FASHION_MNIST_CLASSES.length) throw new DatasetFormatError(`${prefix} labels: label ${l} at ${i} is not one of the 10 classes`);
    labels[i] = l;
  }
  return { name: `fashion-mnist/${split}`, height: h, width: w, channels: 1, classNames: FASHION_MNIST_CLASSES, size: n, images, labels };
}

export function readFashionMnist(dir = fashionMnistDir()): DatasetSplits {
  return { train: readFashionMnistSplit("train", dir), test: readFashionMnistSplit("test", dir) };
}
