// "Scenes 64": the scenes (scenes.ts) at 64×64 pixels with more clutter — the suite's
// larger-image dataset, the part the original meta-rank suite's Places365 plays.
// Same six shape classes, colours and textures; what changes:
// - the object is smaller relative to the picture (radius 9–18 px of 64, against 7–12 of 32);
// - 36–64 background strokes (half of them two pixels thick, up to 16 px long) and dots:
//   about twice the 32-pixel scenes' 3–8 per 1,024 pixels;
// - 3–6 thin occluding strokes painted over the object (the mask stays the object's own
//   pixels, so localisation still measures attribution on the object).
// Everything derives from (seed, split, index) as for the 32-pixel scenes; a different seed
// keeps the two sets from sharing any scene.
import type { DatasetSplits, ImageDataset } from "./dataset.ts";
import type { Rng } from "./prng.ts";
import { SCENE_CLASSES, hsv, renderScene, type SceneLayout } from "./scenes.ts";

export const SCENES64_SIZE = 64;
export const SCENES64_DEFAULT_SEED = 20261127;
export const SCENES64_TRAIN_SIZE = 12000;
export const SCENES64_TEST_SIZE = 1000;

function stroke(rng: Rng, px: Float32Array, size: number, maxLen: number, thick: boolean): void {
  const col = hsv(rng.float(), rng.uniform(0.2, 1), rng.uniform(0.1, 1));
  const x0 = rng.uniform(0, size),
    y0 = rng.uniform(0, size);
  const ang = rng.uniform(0, Math.PI),
    len = rng.uniform(4, maxLen);
  for (let s = 0; s <= len * 2; s++) {
    const xx = Math.round(x0 + Math.cos(ang) * s * 0.5),
      yy = Math.round(y0 + Math.sin(ang) * s * 0.5);
    for (let t = 0; t <= (thick ? 1 : 0); t++) {
      const ty = yy + t;
      if (xx >= 0 && ty >= 0 && xx < size && ty < size) for (let c = 0; c < 3; c++) px[(ty * size + xx) * 3 + c] = col[c];
    }
  }
}

function dot(rng: Rng, px: Float32Array, size: number): void {
  const col = hsv(rng.float(), rng.uniform(0.2, 1), rng.uniform(0.1, 1));
  const cx = rng.int(0, size - 1),
    cy = rng.int(0, size - 1),
    r = rng.uniform(1, 3);
  for (let yy = Math.floor(cy - r); yy <= cy + r; yy++)
    for (let xx = Math.floor(cx - r); xx <= cx + r; xx++)
      if (xx >= 0 && yy >= 0 && xx < size && yy < size && (xx - cx) ** 2 + (yy - cy) ** 2 <= r * r)
        for (let c = 0; c < 3; c++) px[(yy * size + xx) * 3 + c] = col[c];
}

export const SCENES64_LAYOUT: SceneLayout = {
  radius: [9, 18],
  period: [3, 7],
  clutterBelow(rng, px, size) {
    const n = rng.int(36, 64);
    for (let k = 0; k < n; k++) {
      if (rng.float() < 0.5) stroke(rng, px, size, 16, rng.float() < 0.5);
      else dot(rng, px, size);
    }
  },
  clutterAbove(rng, px, size) {
    const n = rng.int(3, 6);
    for (let k = 0; k < n; k++) stroke(rng, px, size, 12, false);
  },
};

export function generateScenes64Split(split: "train" | "test", count: number, seed = SCENES64_DEFAULT_SEED): ImageDataset {
  const size = SCENES64_SIZE;
  const images = new Float32Array(count * size * size * 3);
  const masks = new Uint8Array(count * size * size);
  const labels = new Int32Array(count);
  const splitCode = split === "train" ? 0 : 1;
  for (let i = 0; i < count; i++) {
    const s = renderScene(seed, splitCode, i, size, SCENES64_LAYOUT);
    images.set(s.pixels, i * size * size * 3);
    masks.set(s.mask, i * size * size);
    labels[i] = s.label;
  }
  return { name: `scenes64/${split}`, height: size, width: size, channels: 3, classNames: [...SCENE_CLASSES], size: count, images, labels, masks };
}

export function generateScenes64(opts: { trainSize?: number; testSize?: number } = {}): DatasetSplits {
  return {
    train: generateScenes64Split("train", opts.trainSize ?? SCENES64_TRAIN_SIZE),
    test: generateScenes64Split("test", opts.testSize ?? SCENES64_TEST_SIZE),
  };
}
