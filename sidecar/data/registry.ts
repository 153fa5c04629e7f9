// The datasets the zoo trains on, by the names the training command and the
// checkpoints use. Operator-provided data (CIFAR binaries, image folders) is read
// through its own readers with a path.
import type { DatasetSplits } from "./dataset.ts";
import { readFashionMnist } from "./fashionMnist.ts";
import { generateScenes } from "./scenes.ts";
import { generateTexturedShapes } from "./texturedShapes.ts";
import { generateScenes64 } from "./scenes64.ts";
import { readCifarDir } from "./cifar.ts";
import { readImageFolderSplits } from "./imageFolder.ts";

export const BUILTIN_DATASETS = ["fashion-mnist", "scenes", "scenes64", "textured-shapes"] as const;

/**
 * Load a dataset by name: "fashion-mnist", "scenes", "scenes64", "textured-shapes", "cifar:<dir>"
 * (CIFAR-10/100 binary version) or "folder:<dir>" (train/ and test/ sub-folders, one folder per
 * class). The generated sets make `trainSize` training images (more training data is free);
 * the read ones ignore it.
 */
export function loadDataset(name: string, opts: { trainSize?: number } = {}): DatasetSplits {
  if (name === "fashion-mnist") return readFashionMnist();
  if (name === "scenes") return generateScenes({ trainSize: opts.trainSize });
  if (name === "scenes64") return generateScenes64({ trainSize: opts.trainSize });
  if (name === "textured-shapes") return generateTexturedShapes({ trainSize: opts.trainSize });
  if (name.startsWith("cifar:")) return readCifarDir(name.slice("cifar:".length));
  if (name.startsWith("folder:")) return readImageFolderSplits(name.slice("folder:".length));
  throw new Error(`unknown dataset "${name}"; use fashion-mnist, scenes, scenes64, textured-shapes, cifar:<dir> or folder:<dir>`);
}
