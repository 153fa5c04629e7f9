// "seg-scenes-multilabel": the segmentation scenes (segScenes.ts) read as a multi-label
// classification set, the generated stand-in for Pascal VOC's image-level labels. A class
// is a label of an image when at least MULTILABEL_MIN_PIXELS of its mask pixels are visible
// (the mask keeps the top-most object per pixel, so an object almost hidden under later ones
// is not a label: its few visible pixels are not a recognisable shape). Everything derives
// from (seed, split, index) through renderSegScene, so the set is identical on every machine
// and its splits are the segmentation scenes' splits (train / val / test never share an image).
import type { ImageDataset } from "./dataset.ts";
import { SCENE_CLASSES } from "./scenes.ts";
import { SEG_SCENES_DEFAULT_SEED, SEG_SIZE, SEG_SPLITS, renderSegScene, type SegSplit } from "./segScenes.ts";

export const MULTILABEL_DATASET_ID = "seg-scenes-multilabel";
/** The labels: the six shape classes (the background is not a label). */
export const MULTILABEL_CLASSES: readonly string[] = [...SCENE_CLASSES];
/**
 * Visible pixels a class needs to count as present: 12 of the 32 × 32 = 1 024 (≈ 1.2 %).
 * The smallest object (radius 5) covers about 40–80 pixels, so a label always means at
 * least about a sixth of an object shows.
 */
export const MULTILABEL_MIN_PIXELS = 12;

/**
 * Multi-label targets of a segmentation mask: target[k] = 1 ⇔ class k + 1 (mask id; 0 is
 * the background) has at least `minPixels` pixels. Length = numClasses (the shape classes).
 */
export function labelsFromMask(mask: ArrayLike<number>, numClasses = MULTILABEL_CLASSES.length, minPixels = MULTILABEL_MIN_PIXELS): Uint8Array {
  const counts = new Uint32Array(numClasses + 1);
  for (let i = 0; i < mask.length; i++) if (mask[i] <= numClasses) counts[mask[i]]++;
  const out = new Uint8Array(numClasses);
  for (let k = 0; k < numClasses; k++) out[k] = counts[k + 1] >= minPixels ? 1 : 0;
  return out;
}

/** A split of the multi-label scenes: images NHWC in [0, 1] (as every dataset's, dataset.ts), targets N × C of 0/1 instead of one label an image. */
export interface MultiLabelDataset extends Omit<ImageDataset, "labels" | "masks"> {
  targets: Uint8Array;
}

export function generateMultiLabelScenes(split: SegSplit, count: number, seed = SEG_SCENES_DEFAULT_SEED): MultiLabelDataset {
  const size = SEG_SIZE;
  const C = MULTILABEL_CLASSES.length;
  const images = new Float32Array(count * size * size * 3);
  const targets = new Uint8Array(count * C);
  for (let i = 0; i < count; i++) {
    const s = renderSegScene(seed, SEG_SPLITS[split], i, size);
    images.set(s.pixels, i * size * size * 3);
    targets.set(labelsFromMask(s.mask), i * C);
  }
  return {
    name: `${MULTILABEL_DATASET_ID}/${split}`,
    height: size,
    width: size,
    channels: 3,
    classNames: [...MULTILABEL_CLASSES],
    size: count,
    images,
    targets,
  };
}

/** One image of the set: pixels (H × W × 3) and its labels' names. */
export function multiLabelScene(split: SegSplit, index: number, seed = SEG_SCENES_DEFAULT_SEED): { pixels: Float32Array; labels: string[] } {
  const s = renderSegScene(seed, SEG_SPLITS[split], index, SEG_SIZE);
  const t = labelsFromMask(s.mask);
  return { pixels: s.pixels, labels: MULTILABEL_CLASSES.filter((_, k) => t[k] === 1) };
}
