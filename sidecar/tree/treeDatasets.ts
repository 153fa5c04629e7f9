// The datasets trees train on here (tree.proto TreeDataset), by the ids of the sidecar's dataset
// registry (sidecar/data/registry.ts). The platform's own data (Fashion-MNIST from Debian's
// package, the generated scenes) is listed when readable; CUB-200-2011 and Stanford Cars only when
// an operator installs them (CUB_DIR, CARS_DIR; readers in sidecar/data/cub.ts and cars.ts).
import fs from "node:fs";
import path from "node:path";
import type { DatasetSplits } from "../data/dataset.ts";
import { loadDataset } from "../data/registry.ts";
import { fashionMnistDir } from "../data/fashionMnist.ts";
import { SCENES_TEST_SIZE, SCENES_TRAIN_SIZE, SCENE_CLASSES, generateScenes } from "../data/scenes.ts";
import { cubDir, readCub, CUB_INPUT_SIZE } from "../data/cub.ts";
import { carsDir, readCars, CARS_INPUT_SIZE } from "../data/cars.ts";

export interface TreeDatasetInfo {
  id: string;
  name: string;
  classes: number;
  trainSize: number;
  testSize: number;
  /** The platform's own data (true) or an operator's install (false). */
  platform: boolean;
}

const cache = new Map<string, DatasetSplits>();

function fashionInstalled(): boolean {
  const dir = fashionMnistDir();
  return ["train-images-idx3-ubyte", "train-images-idx3-ubyte.gz"].some((f) => fs.existsSync(path.join(dir, f)));
}

/** Installed tree datasets, platform ones first. */
export function treeDatasets(): TreeDatasetInfo[] {
  const out: TreeDatasetInfo[] = [];
  if (fashionInstalled()) out.push({ id: "fashion-mnist", name: "Fashion-MNIST", classes: 10, trainSize: 60000, testSize: 10000, platform: true });
  out.push({ id: "scenes", name: "Generated scenes", classes: SCENE_CLASSES.length, trainSize: SCENES_TRAIN_SIZE, testSize: SCENES_TEST_SIZE, platform: true });
  const cub = cubDir();
  if (cub) {
    try {
      const d = loadTreeDataset("cub");
      out.push({
        id: "cub",
        name: `CUB-200-2011 (${CUB_INPUT_SIZE}×${CUB_INPUT_SIZE})`,
        classes: d.train.classNames.length,
        trainSize: d.train.size,
        testSize: d.test.size,
        platform: false,
      });
    } catch {
      // A broken install is not offered; loadTreeDataset says why when asked for it.
    }
  }
  const cars = carsDir();
  if (cars) {
    try {
      const d = loadTreeDataset("cars");
      out.push({
        id: "cars",
        name: `Stanford Cars (${CARS_INPUT_SIZE}×${CARS_INPUT_SIZE})`,
        classes: d.train.classNames.length,
        trainSize: d.train.size,
        testSize: d.test.size,
        platform: false,
      });
    } catch {
      // As above.
    }
  }
  return out;
}

/**
 * Both splits of a tree dataset, read once per process. The generated scenes are made only as far
 * as `sizes` asks (image i is the same whatever the count: scenes.ts derives it from its index), so
 * a small task does not wait for 7 000 images to be drawn.
 */
export function loadTreeDataset(id: string, sizes?: { train: number; test: number }): DatasetSplits {
  if (id === "scenes" && sizes) {
    const train = Math.min(sizes.train, SCENES_TRAIN_SIZE);
    const test = Math.min(sizes.test, SCENES_TEST_SIZE);
    const full = cache.get(id);
    if (full) return full;
    const key = `scenes#${train}#${test}`;
    let d = cache.get(key);
    if (!d) {
      d = generateScenes({ trainSize: train, testSize: test });
      cache.set(key, d);
    }
    return d;
  }
  let d = cache.get(id);
  if (!d) {
    if (id === "cub") {
      const dir = cubDir();
      if (!dir) throw new Error("CUB-200-2011 is not installed here (set CUB_DIR)");
      d = readCub(dir);
    } else if (id === "cars") {
      const dir = carsDir();
      if (!dir) throw new Error("Stanford Cars is not installed here (set CARS_DIR)");
      d = readCars(dir);
    } else d = loadDataset(id);
    cache.set(id, d);
  }
  return d;
}
