// "Textured shapes": the ground truth behind the concept page (docs/concepts.md). Each 32×32
// image is a scene like scenes.ts (gradient background, clutter) holding one object whose
// CLASS IS ITS TEXTURE (striped, dotted, chequered, zigzagged) and whose shape, size, position
// and colours are random. A model trained on it can only succeed by detecting the texture, so
// TCAV must give that texture's concept a significant score near 1 for its class and random
// concepts no significant score (tests/concepts/groundTruth.test.ts).
import type { DatasetSplits, ImageDataset } from "./dataset.ts";
import { Rng, mixSeed } from "./prng.ts";
import { SCENE_CLASSES, insideShape, paintBackground } from "./scenes.ts";
import { contrastingColours, texturePattern, type TextureName } from "./textures.ts";

export const TEXTURED_SHAPE_CLASSES = ["striped", "dotted", "chequered", "zigzagged"] as const satisfies readonly TextureName[];
export const TEXTURED_SHAPES_SIZE = 32;
export const TEXTURED_SHAPES_SEED = 20261126;
export const TEXTURED_SHAPES_TRAIN_SIZE = 4000;
export const TEXTURED_SHAPES_TEST_SIZE = 800;

export function renderTexturedShape(seed: number, split: number, index: number, size = TEXTURED_SHAPES_SIZE) {
  const rng = new Rng(mixSeed(seed, split, index));
  const label = rng.int(0, TEXTURED_SHAPE_CLASSES.length - 1);
  const shape = rng.int(0, SCENE_CLASSES.length - 1);
  const px = new Float32Array(size * size * 3);
  const mask = new Uint8Array(size * size);
  paintBackground(rng, px, size);
  const pattern = texturePattern(TEXTURED_SHAPE_CLASSES[label], rng, size);
  const [a, b] = contrastingColours(rng);
  // Large objects (radius 10–14 of 32): the texture needs room to show a few periods.
  const radius = rng.uniform(10, 14);
  const cx = rng.uniform(radius * 0.6, size - radius * 0.6),
    cy = rng.uniform(radius * 0.6, size - radius * 0.6);
  const rot = rng.uniform(0, Math.PI / 2);
  const cosR = Math.cos(rot),
    sinR = Math.sin(rot);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const dx = (x + 0.5 - cx) / radius,
        dy = (y + 0.5 - cy) / radius;
      // Solid shapes only (a ring's hole would leave little texture): the cross and ring are drawn filled.
      const inside = shape === 3 || shape === 4 ? dx * dx + dy * dy <= 1 : insideShape(shape, dx * cosR + dy * sinR, -dx * sinR + dy * cosR);
      if (!inside) continue;
      mask[y * size + x] = 1;
      const t = pattern(x + 0.5, y + 0.5);
      for (let c = 0; c < 3; c++) px[(y * size + x) * 3 + c] = a[c] * (1 - t) + b[c] * t;
    }
  for (let i = 0; i < px.length; i++) px[i] = Math.min(1, Math.max(0, px[i] + 0.025 * rng.normal()));
  return { label, pixels: px, mask };
}

export function generateTexturedShapesSplit(split: "train" | "test", count: number, seed = TEXTURED_SHAPES_SEED, from = 0): ImageDataset {
  const size = TEXTURED_SHAPES_SIZE;
  const images = new Float32Array(count * size * size * 3);
  const masks = new Uint8Array(count * size * size);
  const labels = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const s = renderTexturedShape(seed, split === "train" ? 0 : 1, from + i, size);
    images.set(s.pixels, i * size * size * 3);
    masks.set(s.mask, i * size * size);
    labels[i] = s.label;
  }
  return {
    name: `textured-shapes/${split}`,
    height: size,
    width: size,
    channels: 3,
    classNames: [...TEXTURED_SHAPE_CLASSES],
    size: count,
    images,
    labels,
    masks,
  };
}

export function generateTexturedShapes(opts: { trainSize?: number; testSize?: number } = {}): DatasetSplits {
  return {
    train: generateTexturedShapesSplit("train", opts.trainSize ?? TEXTURED_SHAPES_TRAIN_SIZE),
    test: generateTexturedShapesSplit("test", opts.testSize ?? TEXTURED_SHAPES_TEST_SIZE),
  };
}
