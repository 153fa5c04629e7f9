// "Scenes": a procedurally generated colour dataset with ground truth. Each 32×32
// RGB image holds one object of a known shape class, with a random colour and
// texture, on a cluttered background (gradient, low-frequency noise, small
// distractor strokes and dots). Its pixel mask says where the object is, which is
// what lets the platform measure whether an attribution lands on the object.
// Everything derives from (seed, split, index), so the dataset is identical on
// every machine and the train and test splits never share an image.
import type { DatasetSplits, ImageDataset } from "./dataset.ts";
import { Rng, mixSeed } from "./prng.ts";

export const SCENE_CLASSES = ["circle", "square", "triangle", "cross", "ring", "star"] as const;
export const SCENE_SIZE = 32;
export const SCENES_DEFAULT_SEED = 20240611;
export const SCENES_TRAIN_SIZE = 6000;
export const SCENES_TEST_SIZE = 1000;

export type Rgb = [number, number, number];

export function hsv(h: number, s: number, v: number): Rgb {
  const i = Math.floor(h * 6);
  const f = h * 6 - i;
  const p = v * (1 - s);
  const q = v * (1 - f * s);
  const t = v * (1 - (1 - f) * s);
  switch (((i % 6) + 6) % 6) {
    case 0:
      return [v, t, p];
    case 1:
      return [q, v, p];
    case 2:
      return [p, v, t];
    case 3:
      return [p, q, v];
    case 4:
      return [t, p, v];
    default:
      return [v, p, q];
  }
}

export const luma = (c: Rgb) => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];

/** Is the point (u, v), in the shape's own frame scaled so its radius is 1, inside it? */
export function insideShape(cls: number, u: number, v: number): boolean {
  switch (SCENE_CLASSES[cls]) {
    case "circle":
      return u * u + v * v <= 1;
    case "square":
      return Math.abs(u) <= 0.8 && Math.abs(v) <= 0.8;
    case "triangle": {
      // Equilateral triangle with vertices on the unit circle, apex up: inside all three edges.
      const verts = [-Math.PI / 2, Math.PI / 6, (5 * Math.PI) / 6].map((a) => [Math.cos(a), Math.sin(a)]);
      for (let k = 0; k < 3; k++) {
        const [ax, ay] = verts[k];
        const [bx, by] = verts[(k + 1) % 3];
        if ((bx - ax) * (v - ay) - (by - ay) * (u - ax) < 0) return false;
      }
      return true;
    }
    case "cross":
      return (Math.abs(u) <= 0.3 && Math.abs(v) <= 1) || (Math.abs(v) <= 0.3 && Math.abs(u) <= 1);
    case "ring": {
      const r2 = u * u + v * v;
      return r2 <= 1 && r2 >= 0.5 * 0.5;
    }
    case "star": {
      // Five points: the boundary radius falls linearly from 1 at a point to 0.4 between points.
      const r = Math.hypot(u, v);
      const sector = (2 * Math.PI) / 5;
      let a = Math.atan2(v, u) + Math.PI / 2;
      a = ((a % sector) + sector) % sector;
      const t = Math.abs(a / sector - 0.5) * 2;
      return r <= 0.4 + 0.6 * t;
    }
  }
  return false;
}

export interface SceneImage {
  label: number;
  /** H × W × 3 in [0, 1]. */
  pixels: Float32Array;
  /** H × W, 1 on the object. */
  mask: Uint8Array;
}

/**
 * The scenes' background into px (H × W × 3): a linear gradient between two colours plus
 * low-frequency waves, then clutter (short strokes and dots too small to read as any shape).
 * Returns the two gradient colours (the object's colour is chosen to contrast with them).
 */
export function paintBackground(rng: Rng, px: Float32Array, size: number): [Rgb, Rgb] {
  // Background: a linear gradient between two colours plus low-frequency waves.
  const bgA = hsv(rng.float(), rng.uniform(0.1, 0.8), rng.uniform(0.2, 0.9));
  const bgB = hsv(rng.float(), rng.uniform(0.1, 0.8), rng.uniform(0.2, 0.9));
  const gAngle = rng.uniform(0, 2 * Math.PI);
  const waves = Array.from({ length: 3 }, () => ({
    fx: rng.uniform(-0.4, 0.4),
    fy: rng.uniform(-0.4, 0.4),
    ph: rng.uniform(0, 2 * Math.PI),
    amp: rng.uniform(0.02, 0.08),
  }));
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const t = 0.5 + 0.5 * (((x / size - 0.5) * Math.cos(gAngle) + (y / size - 0.5) * Math.sin(gAngle)) * 1.4);
      let n = 0;
      for (const w of waves) n += w.amp * Math.sin(w.fx * x + w.fy * y + w.ph);
      for (let c = 0; c < 3; c++) px[(y * size + x) * 3 + c] = bgA[c] * (1 - t) + bgB[c] * t + n;
    }
  }

  const clutter = rng.int(3, 8);
  for (let k = 0; k < clutter; k++) {
    const col = hsv(rng.float(), rng.uniform(0.2, 1), rng.uniform(0.1, 1));
    if (rng.float() < 0.5) {
      const x0 = rng.uniform(0, size),
        y0 = rng.uniform(0, size);
      const ang = rng.uniform(0, Math.PI),
        len = rng.uniform(3, 7);
      for (let s = 0; s <= len * 2; s++) {
        const xx = Math.round(x0 + Math.cos(ang) * s * 0.5),
          yy = Math.round(y0 + Math.sin(ang) * s * 0.5);
        if (xx >= 0 && yy >= 0 && xx < size && yy < size) for (let c = 0; c < 3; c++) px[(yy * size + xx) * 3 + c] = col[c];
      }
    } else {
      const cx = rng.int(0, size - 1),
        cy = rng.int(0, size - 1),
        r = rng.uniform(0.8, 1.8);
      for (let yy = Math.floor(cy - r); yy <= cy + r; yy++)
        for (let xx = Math.floor(cx - r); xx <= cx + r; xx++)
          if (xx >= 0 && yy >= 0 && xx < size && yy < size && (xx - cx) ** 2 + (yy - cy) ** 2 <= r * r)
            for (let c = 0; c < 3; c++) px[(yy * size + xx) * 3 + c] = col[c];
    }
  }

  return [bgA, bgB];
}

/** How a scene is laid out: the 32-pixel scenes' values unless a variant (scenes64.ts) says otherwise. */
export interface SceneLayout {
  /** Object radius range in pixels. */
  radius: [number, number];
  /** Texture period range in pixels. */
  period: [number, number];
  /** Extra clutter painted after the background and before the object (the variant's own). */
  clutterBelow?: (rng: Rng, px: Float32Array, size: number) => void;
  /** Clutter painted over the object (occluders); the mask stays the object's own pixels. */
  clutterAbove?: (rng: Rng, px: Float32Array, size: number) => void;
}

const SCENE_LAYOUT: SceneLayout = { radius: [7, 12], period: [2.5, 5] };

/** How an object looks: a colour contrasting with the background, a darker second colour, one of four textures. */
export interface ObjectLook {
  fg: Rgb;
  fg2: Rgb;
  /** 0 solid, 1 stripes, 2 checker, 3 speckle. */
  texture: number;
  period: number;
  stripeAngle: number;
}

export function drawLook(rng: Rng, bgLuma: number, period: [number, number]): ObjectLook {
  let fg = hsv(rng.float(), rng.uniform(0.4, 1), rng.uniform(0.3, 1));
  if (Math.abs(luma(fg) - bgLuma) < 0.25) fg = hsv(rng.float(), rng.uniform(0.4, 1), bgLuma > 0.5 ? rng.uniform(0.05, 0.25) : rng.uniform(0.8, 1));
  const fg2: Rgb = [fg[0] * 0.6, fg[1] * 0.6, fg[2] * 0.6];
  const texture = rng.int(0, 3);
  return { fg, fg2, texture, period: rng.uniform(period[0], period[1]), stripeAngle: rng.uniform(0, Math.PI) };
}

/** A shape class (SCENE_CLASSES index) placed at (cx, cy), `radius` pixels, rotated by `rot`. */
export interface PlacedShape {
  label: number;
  cx: number;
  cy: number;
  radius: number;
  rot: number;
}

/**
 * Paints a shape with its look over px, pixel by pixel inside `box` ([x0, x1, y0, y1], inclusive):
 * anti-aliased by 2×2 supersampling; where its coverage is at least half, the mask takes
 * `maskValue` (overwriting what was painted before). Speckle draws from `rng` per covered pixel.
 */
export function paintShape(
  rng: Rng,
  px: Float32Array,
  mask: Uint8Array,
  size: number,
  shape: PlacedShape,
  look: ObjectLook,
  maskValue: number,
  box: [number, number, number, number],
): void {
  const { label, cx, cy, radius } = shape;
  const { fg, fg2, texture, period, stripeAngle } = look;
  const cosR = Math.cos(shape.rot),
    sinR = Math.sin(shape.rot);
  for (let y = box[2]; y <= box[3]; y++) {
    for (let x = box[0]; x <= box[1]; x++) {
      let cover = 0;
      for (const oy of [0.25, 0.75])
        for (const ox of [0.25, 0.75]) {
          const dx = (x + ox - cx) / radius,
            dy = (y + oy - cy) / radius;
          if (insideShape(label, dx * cosR + dy * sinR, -dx * sinR + dy * cosR)) cover++;
        }
      if (cover === 0) continue;
      const a = cover / 4;
      if (a >= 0.5) mask[y * size + x] = maskValue;
      let useSecond = false;
      if (texture === 1) useSecond = Math.floor(((x * Math.cos(stripeAngle) + y * Math.sin(stripeAngle)) / period) * 2) % 2 === 0;
      else if (texture === 2) useSecond = (Math.floor(x / period) + Math.floor(y / period)) % 2 === 0;
      else if (texture === 3) useSecond = rng.float() < 0.3;
      const col = useSecond ? fg2 : fg;
      for (let c = 0; c < 3; c++) {
        const i = (y * size + x) * 3 + c;
        px[i] = px[i] * (1 - a) + col[c] * a;
      }
    }
  }
}

/** Render one scene; the same (seed, split, index) always gives the same image. */
export function renderScene(seed: number, split: number, index: number, size = SCENE_SIZE, layout: SceneLayout = SCENE_LAYOUT): SceneImage {
  const rng = new Rng(mixSeed(seed, split, index));
  const label = rng.int(0, SCENE_CLASSES.length - 1);
  const px = new Float32Array(size * size * 3);
  const mask = new Uint8Array(size * size);

  const [bgA, bgB] = paintBackground(rng, px, size);
  layout.clutterBelow?.(rng, px, size);

  const look = drawLook(rng, (luma(bgA) + luma(bgB)) / 2, layout.period);
  const radius = rng.uniform(layout.radius[0], layout.radius[1]);
  const cx = rng.uniform(radius + 1, size - radius - 1),
    cy = rng.uniform(radius + 1, size - radius - 1);
  const rot = SCENE_CLASSES[label] === "triangle" || SCENE_CLASSES[label] === "star" ? rng.uniform(-0.35, 0.35) : rng.uniform(0, Math.PI / 2);
  paintShape(rng, px, mask, size, { label, cx, cy, radius, rot }, look, 1, [0, size - 1, 0, size - 1]);

  layout.clutterAbove?.(rng, px, size);
  // Sensor noise, then clamp to the valid range.
  for (let i = 0; i < px.length; i++) px[i] = Math.min(1, Math.max(0, px[i] + 0.025 * rng.normal()));
  return { label, pixels: px, mask };
}

export interface ScenesOptions {
  seed?: number;
  trainSize?: number;
  testSize?: number;
}

export function generateScenesSplit(split: "train" | "test", count: number, seed = SCENES_DEFAULT_SEED): ImageDataset {
  const size = SCENE_SIZE;
  const images = new Float32Array(count * size * size * 3);
  const masks = new Uint8Array(count * size * size);
  const labels = new Int32Array(count);
  const splitCode = split === "train" ? 0 : 1;
  for (let i = 0; i < count; i++) {
    const s = renderScene(seed, splitCode, i, size);
    images.set(s.pixels, i * size * size * 3);
    masks.set(s.mask, i * size * size);
    labels[i] = s.label;
  }
  return { name: `scenes/${split}`, height: size, width: size, channels: 3, classNames: [...SCENE_CLASSES], size: count, images, labels, masks };
}

export function generateScenes(opts: ScenesOptions = {}): DatasetSplits {
  const seed = opts.seed ?? SCENES_DEFAULT_SEED;
  return {
    train: generateScenesSplit("train", opts.trainSize ?? SCENES_TRAIN_SIZE, seed),
    test: generateScenesSplit("test", opts.testSize ?? SCENES_TEST_SIZE, seed),
  };
}
