// Dataset readers on the fixtures in tests/fixtures/data (each in its operator format).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { DatasetFormatError, imageAt } from "../../sidecar/data/dataset.ts";
import { parseIdx } from "../../sidecar/data/idx.ts";
import { FASHION_MNIST_CLASSES, readFashionMnistSplit } from "../../sidecar/data/fashionMnist.ts";
import { CIFAR10_CLASSES, parseCifar, readCifarDir } from "../../sidecar/data/cifar.ts";
import { readImageFolder, readImageFolderSplits } from "../../sidecar/data/imageFolder.ts";
import { decodeImage, encodePng } from "../../sidecar/data/png.ts";

const FIX = path.resolve(__dirname, "../fixtures/data");

describe("IDX / Fashion-MNIST", () => {
  it("reads the gzip test split with its labels and class names", () => {
    const ds = readFashionMnistSplit("test", path.join(FIX, "fashion-mnist"));
    expect(ds.size).toBe(5);
    expect([ds.height, ds.width, ds.channels]).toEqual([28, 28, 1]);
    expect(Array.from(ds.labels)).toEqual([9, 2, 1, 1, 6]); // the real first five test labels
    expect(ds.classNames).toEqual(FASHION_MNIST_CLASSES);
    expect(ds.classNames[9]).toBe("Ankle boot");
    expect(Math.max(...ds.images)).toBeLessThanOrEqual(1);
    expect(ds.images.some((v) => v > 0.5)).toBe(true);
  });

  it("reads uncompressed IDX files too", () => {
    const ds = readFashionMnistSplit("train", path.join(FIX, "fashion-mnist"));
    expect(ds.size).toBe(3);
    expect(ds.images.length).toBe(3 * 784);
  });

  it("matches the PNG sample made from the same image", () => {
    const ds = readFashionMnistSplit("test", path.join(FIX, "fashion-mnist"));
    const png = decodeImage(fs.readFileSync(path.join(FIX, "samples/fashion-mnist-0.png")), 1);
    const first = imageAt(ds, 0);
    for (let i = 0; i < 784; i++) expect(png.data[i]).toBeCloseTo(first[i], 5);
  });

  it("refuses a header that does not match the data, and a missing folder, with the reason", () => {
    const bad = Buffer.from([0, 0, 8, 1, 0, 0, 0, 5, 1, 2, 3]);
    expect(() => parseIdx(bad, "x.idx")).toThrow(/promises 5 values .* holds 3/);
    expect(() => parseIdx(Buffer.from([1, 2, 3, 4]), "y")).toThrow(DatasetFormatError);
    expect(() => parseIdx(zlib.gzipSync(Buffer.from([0, 0, 0x0d, 1, 0, 0, 0, 1, 0, 0, 0, 0])), "f")).toThrow(/type 0xd is not supported/);
    expect(() => readFashionMnistSplit("test", "/nonexistent")).toThrow(/dataset-fashion-mnist/);
  });
});

describe("CIFAR binary", () => {
  it("reads CIFAR-10 batches, converting planar RGB to interleaved pixels", () => {
    const { train, test } = readCifarDir(path.join(FIX, "cifar-10"));
    expect(train.size).toBe(3);
    expect(test.size).toBe(2);
    expect(Array.from(train.labels)).toEqual([3, 4, 5]);
    expect(Array.from(test.labels)).toEqual([6, 5]);
    expect(train.classNames).toEqual(CIFAR10_CLASSES);
    // Fixture pixel (record r, channel c, position p) = (r·7 + c·50 + p) mod 256.
    const at = (ds: typeof train, n: number, p: number, c: number) => Math.round(ds.images[(n * 1024 + p) * 3 + c] * 255);
    expect(at(train, 1, 10, 0)).toBe((7 + 10) % 256);
    expect(at(train, 2, 300, 2)).toBe((14 + 100 + 300) % 256);
    expect(at(test, 0, 1023, 1)).toBe((21 + 50 + 1023) % 256); // test_batch record 0 is fixture record 3
  });

  it("reads CIFAR-100 with fine or coarse labels", () => {
    const fine = readCifarDir(path.join(FIX, "cifar-100"), "fine");
    expect(fine.train.classNames.length).toBe(100);
    expect(Array.from(fine.train.labels)).toEqual([50, 51, 52]);
    expect(Array.from(fine.test.labels)).toEqual([96, 95]);
    const coarse = readCifarDir(path.join(FIX, "cifar-100"), "coarse");
    expect(Array.from(coarse.train.labels)).toEqual([10, 11, 12]);
    expect(coarse.train.classNames[10]).toBe("superclass_10");
  });

  it("says when the record size does not fit the variant", () => {
    const bytes = fs.readFileSync(path.join(FIX, "cifar-100/train.bin"));
    expect(() => parseCifar([{ file: "train.bin", bytes }], { variant: 10 })).toThrow(/looks like CIFAR-100/);
    expect(() => readCifarDir(FIX)).toThrow(/neither CIFAR-10/);
  });
});

describe("image folder", () => {
  it("reads PNG and JPEG files, one sub-folder per class", () => {
    const ds = readImageFolder(path.join(FIX, "image-folder/train"));
    expect(ds.classNames).toEqual(["circle", "square"]);
    expect(ds.size).toBe(4);
    expect(Array.from(ds.labels)).toEqual([0, 0, 1, 1]);
    expect([ds.height, ds.width, ds.channels]).toEqual([32, 32, 3]);
    // The JPEG decodes close to the PNG-quality original (lossy, so only roughly).
    expect(ds.images.subarray(3072, 6144).some((v) => v > 0.1)).toBe(true);
  });

  it("reads train/test splits with the train classes, resizing and converting on request", () => {
    const { train, test } = readImageFolderSplits(path.join(FIX, "image-folder"));
    expect(test.classNames).toEqual(train.classNames);
    expect(test.size).toBe(2);
    const small = readImageFolder(path.join(FIX, "image-folder/test"), { height: 28, width: 28, channels: 1 });
    expect([small.height, small.width, small.channels]).toEqual([28, 28, 1]);
    expect(small.images.length).toBe(2 * 784);
  });

  it("refuses files that are not images", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "imgfolder-"));
    fs.mkdirSync(path.join(dir, "cat"));
    fs.writeFileSync(path.join(dir, "cat", "notes.png"), "not really a png");
    expect(() => readImageFolder(dir)).toThrow(/neither PNG nor JPEG/);
    fs.writeFileSync(path.join(dir, "cat", "notes.png"), encodePng({ height: 2, width: 2, channels: 1, data: new Float32Array(4) }));
    expect(readImageFolder(dir).channels).toBe(1);
    fs.rmSync(dir, { recursive: true });
  });
});
