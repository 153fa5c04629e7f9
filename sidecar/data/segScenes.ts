// "Segmentation scenes": the scenes dataset (scenes.ts) with several objects per image
// and a per-pixel class mask, which is what a segmentation network learns from and is
// scored against (mean IoU). Each 32×32 RGB image holds 2–4 objects of the six shape
// classes, overlapping, each with its own colour and texture, painted in order on the
// scenes' cluttered background; the mask says, per pixel, which class is on top
// (0 = background, 1..6 = the shape classes in SCENE_CLASSES order; the last object
// painted wins where objects overlap). Everything derives from (seed, split, index), so
// the data is identical on every machine and the splits never share an image.
import type { ImageDataset } from "./dataset.ts";
import { Rng, mixSeed } from "./prng.ts";
import { SCENE_CLASSES, SCENE_SIZE, drawLook, luma, paintBackground, paintShape } from "./scenes.ts";

/** Class 0 is the background; class k ≥ 1 is SCENE_CLASSES[k − 1]. */
export const SEG_CLASSES = ["background", ...SCENE_CLASSES] as const;
export const SEG_SIZE = SCENE_SIZE;
// A seed of its own, so no segmentation image repeats a classification scene's stream.
export const SEG_SCENES_DEFAULT_SEED = 20250316;
export const SEG_MIN_OBJECTS = 2;
export const SEG_MAX_OBJECTS = 4;
// Split codes, as in scenes.ts (train 0, test 1), plus a validation split that the
// trainer stops on, so the held-out test figure is never used to choose a model.
export const SEG_SPLITS = { train: 0, test: 1, val: 2 } as const;
export type SegSplit = keyof typeof SEG_SPLITS;

export interface SegObject {
  /** Segmentation class, 1..6. */
  cls: number;
  cx: number;
  cy: number;
  radius: number;
}

export interface SegScene {
  /** H × W × 3 in [0, 1]. */
  pixels: Float32Array;
  /** H × W class ids: 0 background, 1..6 the shape classes; the top-most object wins. */
  mask: Uint8Array;
  /** The objects in painting order (last is on top). */
  objects: SegObject[];
}

/**
 * Paint one object of shape class `shape` (0-based, SCENE_CLASSES) over px: anti-aliased
 * (2×2 supersampling), one of four textures; where its coverage is at least half, the
 * mask takes `maskValue` (overwriting objects painted before it).
 */
function paintObject(rng: Rng, px: Float32Array, mask: Uint8Array, size: number, shape: number, maskValue: number, bgLuma: number): SegObject {
  const look = drawLook(rng, bgLuma, [2.5, 5]);
  // Smaller than the single-object scenes' 7–12 so 2–4 objects fit and still overlap only in part.
  const radius = rng.uniform(5, 9);
  const cx = rng.uniform(radius * 0.6, size - radius * 0.6),
    cy = rng.uniform(radius * 0.6, size - radius * 0.6);
  const name = SCENE_CLASSES[shape];
  const rot = name === "triangle" || name === "star" ? rng.uniform(-0.35, 0.35) : rng.uniform(0, Math.PI / 2);
  const box: [number, number, number, number] = [
    Math.max(0, Math.floor(cx - radius - 1)),
    Math.min(size - 1, Math.ceil(cx + radius + 1)),
    Math.max(0, Math.floor(cy - radius - 1)),
    Math.min(size - 1, Math.ceil(cy + radius + 1)),
  ];
  paintShape(rng, px, mask, size, { label: shape, cx, cy, radius, rot }, look, maskValue, box);
  return { cls: maskValue, cx, cy, radius };
}

/** Render one segmentation scene; the same (seed, split, index) always gives the same image and mask. */
export function renderSegScene(seed: number, split: number, index: number, size = SEG_SIZE): SegScene {
  const rng = new Rng(mixSeed(seed, split, index, 0x5e6));
  const px = new Float32Array(size * size * 3);
  const mask = new Uint8Array(size * size);
  const [bgA, bgB] = paintBackground(rng, px, size);
  const bgLuma = (luma(bgA) + luma(bgB)) / 2;
  const count = rng.int(SEG_MIN_OBJECTS, SEG_MAX_OBJECTS);
  const objects: SegObject[] = [];
  for (let k = 0; k < count; k++) {
    const shape = rng.int(0, SCENE_CLASSES.length - 1);
    objects.push(paintObject(rng, px, mask, size, shape, shape + 1, bgLuma));
  }
  // Sensor noise, then clamp to the valid range (as scenes.ts).
  for (let i = 0; i < px.length; i++) px[i] = Math.min(1, Math.max(0, px[i] + 0.025 * rng.normal()));
  return { pixels: px, mask, objects };
}

/** A split of the segmentation scenes: images NHWC (as every dataset's, dataset.ts) and class masks N × H × W instead of one label an image. */
export interface SegDataset extends Omit<ImageDataset, "labels" | "masks"> {
  masks: Uint8Array;
}

export function generateSegScenes(split: SegSplit, count: number, seed = SEG_SCENES_DEFAULT_SEED): SegDataset {
  const size = SEG_SIZE;
  const images = new Float32Array(count * size * size * 3);
  const masks = new Uint8Array(count * size * size);
  for (let i = 0; i < count; i++) {
    const s = renderSegScene(seed, SEG_SPLITS[split], i, size);
    images.set(s.pixels, i * size * size * 3);
    masks.set(s.mask, i * size * size);
  }
  return { name: `seg-scenes/${split}`, height: size, width: size, channels: 3, classNames: [...SEG_CLASSES], size: count, images, masks };
}

/** The classes present in a mask (ids > 0 with at least one pixel), ascending. */
export function classesPresent(mask: ArrayLike<number>, numClasses = SEG_CLASSES.length): number[] {
  const seen = new Uint8Array(numClasses);
  for (let i = 0; i < mask.length; i++) seen[mask[i]] = 1;
  const out: number[] = [];
  for (let c = 1; c < numClasses; c++) if (seen[c]) out.push(c);
  return out;
}
