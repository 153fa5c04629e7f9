// CIFAR-10 / CIFAR-100 "binary version" reader (https://www.cs.toronto.edu/~kriz/cifar.html).
// CIFAR-10 records: 1 label byte + 3072 pixel bytes; CIFAR-100 records: coarse
// label byte + fine label byte + 3072 pixel bytes. Pixels are planar (1024 R, then
// G, then B, each row-major 32×32); we convert to interleaved NHWC floats.
import fs from "node:fs";
import path from "node:path";
import { DatasetFormatError, type DatasetSplits, type ImageDataset } from "./dataset.ts";

export const CIFAR10_CLASSES = ["airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"];
const PIXELS = 32 * 32;

export interface CifarOptions {
  /** 10 or 100; decides the record layout. */
  variant: 10 | 100;
  /** CIFAR-100 only: which label to use (fine: 100 classes, coarse: 20 superclasses). */
  labels?: "fine" | "coarse";
  classNames?: string[];
  name?: string;
}

/** Parse concatenated CIFAR records from one or more files' bytes. */
export function parseCifar(chunks: Array<{ file: string; bytes: Uint8Array }>, opts: CifarOptions): ImageDataset {
  const labelBytes = opts.variant === 10 ? 1 : 2;
  const record = labelBytes + 3 * PIXELS;
  const labelOffset = opts.variant === 100 && (opts.labels ?? "fine") === "coarse" ? 0 : labelBytes - 1;
  const numClasses = opts.variant === 10 ? 10 : (opts.labels ?? "fine") === "coarse" ? 20 : 100;
  let total = 0;
  for (const c of chunks) {
    if (c.bytes.length % record !== 0) {
      throw new DatasetFormatError(
        `${c.file}: ${c.bytes.length} bytes is not a whole number of CIFAR-${opts.variant} records (${record} bytes each)` +
          (c.bytes.length % (record === 3073 ? 3074 : 3073) === 0 ? `; it looks like CIFAR-${opts.variant === 10 ? 100 : 10}` : ""),
      );
    }
    total += c.bytes.length / record;
  }
  const images = new Float32Array(total * PIXELS * 3);
  const labels = new Int32Array(total);
  let n = 0;
  for (const c of chunks) {
    for (let off = 0; off < c.bytes.length; off += record, n++) {
      const label = c.bytes[off + labelOffset];
      if (label >= numClasses) throw new DatasetFormatError(`${c.file}: record ${n} has label ${label}, outside 0..${numClasses - 1}`);
      labels[n] = label;
      const px = off + labelBytes;
      for (let p = 0; p < PIXELS; p++) for (let ch = 0; ch < 3; ch++) images[(n * PIXELS + p) * 3 + ch] = c.bytes[px + ch * PIXELS + p] / 255;
    }
  }
  const classNames = opts.classNames ?? (opts.variant === 10 ? CIFAR10_CLASSES : Array.from({ length: numClasses }, (_, i) => `class ${i}`));
  if (classNames.length !== numClasses) throw new DatasetFormatError(`CIFAR-${opts.variant}: ${classNames.length} class names for ${numClasses} classes`);
  return { name: opts.name ?? `cifar-${opts.variant}`, height: 32, width: 32, channels: 3, classNames, size: total, images, labels };
}

function readLines(file: string): string[] | undefined {
  if (!fs.existsSync(file)) return undefined;
  return fs
    .readFileSync(file, "utf8")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}

/**
 * Read an extracted CIFAR binary folder. CIFAR-10: data_batch_1..5.bin + test_batch.bin
 * (+ batches.meta.txt for names). CIFAR-100: train.bin + test.bin (+ fine_label_names.txt /
 * coarse_label_names.txt).
 */
export function readCifarDir(dir: string, labels: "fine" | "coarse" = "fine"): DatasetSplits {
  if (!fs.existsSync(dir)) throw new DatasetFormatError(`CIFAR folder ${dir} not found`);
  const files = fs.readdirSync(dir);
  const read = (names: string[]) => names.map((f) => ({ file: path.join(dir, f), bytes: fs.readFileSync(path.join(dir, f)) as Uint8Array }));
  const trainBatches = files.filter((f) => /^data_batch_\d+\.bin$/.test(f)).sort();
  if (trainBatches.length > 0 && files.includes("test_batch.bin")) {
    const classNames = readLines(path.join(dir, "batches.meta.txt"));
    const o = { variant: 10 as const, classNames };
    return {
      train: parseCifar(read(trainBatches), { ...o, name: "cifar-10/train" }),
      test: parseCifar(read(["test_batch.bin"]), { ...o, name: "cifar-10/test" }),
    };
  }
  if (files.includes("train.bin") && files.includes("test.bin")) {
    const classNames = readLines(path.join(dir, labels === "fine" ? "fine_label_names.txt" : "coarse_label_names.txt"));
    const o = { variant: 100 as const, labels, classNames };
    return {
      train: parseCifar(read(["train.bin"]), { ...o, name: "cifar-100/train" }),
      test: parseCifar(read(["test.bin"]), { ...o, name: "cifar-100/test" }),
    };
  }
  throw new DatasetFormatError(`${dir} holds neither CIFAR-10 (data_batch_N.bin + test_batch.bin) nor CIFAR-100 (train.bin + test.bin) binary files`);
}
