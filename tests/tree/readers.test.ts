// The CUB-200-2011 and Stanford Cars readers (sidecar/data/cub.ts, cars.ts) on tiny fixtures in the
// published layouts (tests/fixtures/cub, tests/fixtures/cars), and their registration as tree
// datasets only when installed (CUB_DIR, CARS_DIR).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cubDir, readCub } from "../../sidecar/data/cub.ts";
import { carsDir, readCars } from "../../sidecar/data/cars.ts";
import { treeDatasets } from "../../sidecar/tree/treeDatasets.ts";
import type { ImageDataset } from "../../sidecar/data/dataset.ts";

const CUB = path.resolve("tests/fixtures/cub");
const CARS = path.resolve("tests/fixtures/cars");

/** Mean of each colour channel of image i. */
function meanRgb(ds: ImageDataset, i: number): number[] {
  const n = ds.height * ds.width;
  const out = [0, 0, 0];
  for (let p = 0; p < n; p++) for (let c = 0; c < 3; c++) out[c] += ds.images[(i * n + p) * 3 + c] / n;
  return out;
}

afterEach(() => {
  delete process.env.CUB_DIR;
  delete process.env.CARS_DIR;
});

describe("CUB-200-2011", () => {
  it("reads the split, classes, bounding-box crops and visible parts", () => {
    const d = readCub(CUB);
    expect(d.train.classNames).toEqual(["Black footed Albatross", "Laysan Albatross"]);
    expect([d.train.size, d.test.size]).toEqual([2, 2]);
    expect(d.imageIds).toEqual({ train: [1, 3], test: [2, 4] });
    expect(Array.from(d.train.labels)).toEqual([0, 1]);
    expect(Array.from(d.test.labels)).toEqual([0, 1]);
    expect([d.train.height, d.train.width, d.train.channels]).toEqual([32, 32, 3]);
    // Image 1 is red left of column 20, blue right of it; its box is the right half: all blue after the crop.
    const [r, , b] = meanRgb(d.train, 0);
    expect(b).toBeGreaterThan(0.85);
    expect(r).toBeLessThan(0.15);
    // Image 2 is green left of column 10, red after; its box starts at 10: all red.
    expect(meanRgb(d.test, 0)[0]).toBeGreaterThan(0.85);
    expect(d.partNames).toEqual(["beak", "tail", "left eye"]);
    // Beak at the box centre (30, 15) → (16, 16) in the 32×32 crop; the tail lies outside the box; the eye is not visible.
    expect(d.parts.train[0]).toEqual([{ part: 1, x: 16, y: 16 }]);
  });

  it("names the missing file", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cub-"));
    fs.cpSync(CUB, tmp, { recursive: true });
    fs.rmSync(path.join(tmp, "images", "002.Laysan_Albatross", "Laysan_Albatross_0001_545.jpg"));
    expect(() => readCub(tmp)).toThrow(/Laysan_Albatross_0001_545\.jpg \(image 3\) is missing/);
    fs.rmSync(path.join(tmp, "train_test_split.txt"));
    expect(() => readCub(tmp)).toThrow(/train_test_split\.txt is missing/);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("is a tree dataset only when CUB_DIR points at an install", () => {
    expect(cubDir()).toBeNull();
    expect(treeDatasets().map((d) => d.id)).not.toContain("cub");
    process.env.CUB_DIR = CUB;
    expect(cubDir()).toBe(CUB);
    const cub = treeDatasets().find((d) => d.id === "cub");
    expect(cub).toMatchObject({ classes: 2, trainSize: 2, testSize: 2, platform: false });
  });
});

describe("Stanford Cars (CSV annotations next to the devkit's image folders)", () => {
  it("reads names, labels, boxes and images", () => {
    const d = readCars(CARS);
    expect(d.train.classNames).toEqual(["AM General Hummer SUV 2000", "Acura RL Sedan 2012", "Aston Martin V8 Vantage Convertible 2012"]);
    expect(Array.from(d.train.labels)).toEqual([0, 1, 2]);
    expect(Array.from(d.test.labels)).toEqual([1]);
    expect(d.files.train).toEqual(["00001.jpg", "00002.jpg", "00003.jpg"]);
    expect(d.boxes!.train[0]).toEqual({ x1: 2, y1: 3, x2: 40, y2: 30 });
    expect(meanRgb(d.train, 0)[0]).toBeGreaterThan(0.9);
    expect(meanRgb(d.train, 2)[2]).toBeGreaterThan(0.9);
    expect(meanRgb(d.test, 0)[1]).toBeGreaterThan(0.9);
  });

  it("refuses a class outside names.csv and is a tree dataset only when CARS_DIR is set", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cars-"));
    fs.cpSync(CARS, tmp, { recursive: true });
    fs.writeFileSync(path.join(tmp, "anno_test.csv"), "00001.jpg,1,1,30,46,7\n");
    expect(() => readCars(tmp)).toThrow(/class 7 is not 1\.\.3/);
    fs.rmSync(tmp, { recursive: true, force: true });
    expect(carsDir()).toBeNull();
    expect(treeDatasets().map((d) => d.id)).not.toContain("cars");
    process.env.CARS_DIR = CARS;
    expect(treeDatasets().find((d) => d.id === "cars")).toMatchObject({ classes: 3, trainSize: 3, testSize: 1, platform: false });
  });
});
