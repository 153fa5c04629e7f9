// "Concrete inspection": generated photos of concrete surfaces with ground truth for crack
// detection (docs/crack-detection.md "The data"). Each 192×192 RGB photo is a textured concrete
// background (multi-octave value noise, fine grain, pores, stains and sometimes a formwork joint: a
// broad, faint straight groove that is NOT a crack) and, in most photos, one crack drawn as a
// branching random walk whose every branch has a known width. Ground truth per photo: the crack's
// pixel mask, its length (sum of the walk's segment lengths) and its widths, in millimetres at
// CRACK_MM_PER_PIXEL. Everything derives from (seed, split, index), so the set is identical on
// every machine and splits never share a photo.
import type { ImageDataset } from "./dataset.ts";
import { Rng, mixSeed } from "./prng.ts";

export const CRACK_PHOTO_SIZE = 192;
/** The photos' documented scale: one pixel is 0.5 mm of concrete (the photo covers 96 × 96 mm). */
export const CRACK_MM_PER_PIXEL = 0.5;
export const CRACKS_DEFAULT_SEED = 20261124;
export const CRACK_CLASSES = ["no crack", "crack"] as const;
/** Share of photos with a crack (the rest are clean surfaces, joints and stains included). */
const CRACK_SHARE = 0.7;

export interface CrackBranch {
  /** Polyline vertices in pixel coordinates (x, y), pixel centres at integer + 0.5. */
  points: [number, number][];
  /** Full width of each segment (points[i] → points[i+1]) in pixels: widest where the branch starts, tapering to its tips. */
  widthsPx: number[];
}

export interface CrackTruth {
  hasCrack: boolean;
  /** Sum of every branch's in-photo polyline length, in mm. */
  lengthMm: number;
  /** Widest segment, in mm. */
  maxWidthMm: number;
  /** Length-weighted mean segment width, in mm. */
  meanWidthMm: number;
  branches: CrackBranch[];
}

export interface CrackPhoto {
  width: number;
  height: number;
  /** H × W × 3 in [0, 1]. */
  image: Float32Array;
  /** H × W, 1 where a pixel centre lies within half a branch width of its polyline. */
  mask: Uint8Array;
  truth: CrackTruth;
}

const SPLIT_IDS = { train: 1, test: 2 } as const;
export type CrackSplit = keyof typeof SPLIT_IDS;

/** Smooth value noise: a coarse grid of random values, bilinearly interpolated with a smoothstep. */
function valueNoise(rng: Rng, size: number, cell: number): Float32Array {
  const n = Math.ceil(size / cell) + 2;
  const grid = new Float32Array(n * n);
  for (let i = 0; i < grid.length; i++) grid[i] = rng.float() * 2 - 1;
  const out = new Float32Array(size * size);
  for (let y = 0; y < size; y++) {
    const gy = y / cell,
      y0 = Math.floor(gy),
      ty = gy - y0,
      sy = ty * ty * (3 - 2 * ty);
    for (let x = 0; x < size; x++) {
      const gx = x / cell,
        x0 = Math.floor(gx),
        tx = gx - x0,
        sx = tx * tx * (3 - 2 * tx);
      const a = grid[y0 * n + x0],
        b = grid[y0 * n + x0 + 1],
        c = grid[(y0 + 1) * n + x0],
        d = grid[(y0 + 1) * n + x0 + 1];
      out[y * size + x] = (a * (1 - sx) + b * sx) * (1 - sy) + (c * (1 - sx) + d * sx) * sy;
    }
  }
  return out;
}

/** Distance from point p to segment ab. */
function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax,
    dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
  const qx = ax + t * dx - px,
    qy = ay + t * dy - py;
  return Math.sqrt(qx * qx + qy * qy);
}

const inside = (x: number, y: number, size: number) => x >= 0 && y >= 0 && x <= size && y <= size;

/**
 * One branch as a random walk: steps of 2 px whose heading drifts, stopping at the photo's
 * edge or after `steps` steps. Children start at random vertices, turning off by 25–70°.
 */
function walk(rng: Rng, size: number, start: [number, number], heading: number, steps: number): [number, number][] {
  const pts: [number, number][] = [start];
  let [x, y] = start;
  let h = heading;
  for (let s = 0; s < steps; s++) {
    // Jagged but going somewhere: heading noise pulled back toward the branch's course (no loops).
    h += 0.15 * (heading - h) + rng.normal() * 0.3;
    const nx = x + 2 * Math.cos(h),
      ny = y + 2 * Math.sin(h);
    if (!inside(nx, ny, size)) break;
    x = nx;
    y = ny;
    pts.push([x, y]);
  }
  return pts;
}

/** Widths tapering from `width` at vertex `widest` to 45 % of it at the branch's far ends. */
function taper(points: [number, number][], widest: number, width: number): number[] {
  const span = Math.max(widest, points.length - 1 - widest, 1);
  return Array.from({ length: points.length - 1 }, (_, i) => {
    const away = Math.abs(i + 0.5 - widest) / span;
    return Math.max(1.5, width * (1 - 0.55 * away));
  });
}

function crackBranches(rng: Rng, size: number): CrackBranch[] {
  // The trunk starts somewhere on the middle half of the photo and walks both ways.
  const start: [number, number] = [rng.uniform(size * 0.25, size * 0.75), rng.uniform(size * 0.25, size * 0.75)];
  const heading = rng.uniform(0, 2 * Math.PI);
  const trunkWidth = rng.uniform(1.8, 6.5);
  const forward = walk(rng, size, start, heading, rng.int(20, 60));
  const backward = walk(rng, size, start, heading + Math.PI, rng.int(10, 40));
  const trunk = [...backward.slice(1).reverse(), ...forward];
  const branches: CrackBranch[] = [{ points: trunk, widthsPx: taper(trunk, backward.length - 1, trunkWidth) }];
  const children = rng.int(0, 2);
  for (let c = 0; c < children && trunk.length > 6; c++) {
    const k = rng.int(2, trunk.length - 3);
    const turn = (rng.float() < 0.5 ? -1 : 1) * rng.uniform(0.45, 1.2);
    const pts = walk(rng, size, trunk[k], heading + turn, rng.int(8, 30));
    const atJoint = branches[0].widthsPx[Math.min(k, branches[0].widthsPx.length - 1)];
    if (pts.length > 3) branches.push({ points: pts, widthsPx: taper(pts, 0, Math.max(1.5, atJoint * rng.uniform(0.5, 0.85))) });
  }
  return branches;
}

/** One photo: deterministic in (seed, split, index). */
export function generateCrackPhoto(index: number, split: CrackSplit = "test", seed = CRACKS_DEFAULT_SEED, size = CRACK_PHOTO_SIZE): CrackPhoto {
  const rng = new Rng(mixSeed(seed, SPLIT_IDS[split], index));
  const n = size * size;
  // Concrete: a grey with a slight warm or cool cast, three octaves of noise, fine grain.
  const base = rng.uniform(0.5, 0.7);
  const tint: [number, number, number] = [rng.uniform(0.98, 1.04), 1, rng.uniform(0.93, 1.0)];
  const o1 = valueNoise(rng, size, 48),
    o2 = valueNoise(rng, size, 16),
    o3 = valueNoise(rng, size, 5);
  const grey = new Float32Array(n);
  for (let p = 0; p < n; p++) grey[p] = base + 0.05 * o1[p] + 0.03 * o2[p] + 0.02 * o3[p] + 0.025 * rng.normal();
  // Stains: soft blobs, darker (water) or lighter (efflorescence).
  for (let s = rng.int(0, 3); s > 0; s--) {
    const cx = rng.uniform(0, size),
      cy = rng.uniform(0, size),
      r = rng.uniform(14, 40),
      amp = rng.float() < 0.7 ? -rng.uniform(0.04, 0.12) : rng.uniform(0.03, 0.06);
    for (let y = 0; y < size; y++)
      for (let x = 0; x < size; x++) {
        const d2 = ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2) / (r * r);
        if (d2 < 9) grey[y * size + x] += amp * Math.exp(-d2);
      }
  }
  // Pores: small round dark dots (blobs, which a line detector must not take for cracks).
  for (let s = rng.int(5, 30); s > 0; s--) {
    const cx = rng.uniform(0, size),
      cy = rng.uniform(0, size),
      r = rng.uniform(0.8, 2.2),
      depth = rng.uniform(0.08, 0.2);
    for (let y = Math.max(0, Math.floor(cy - r - 1)); y < Math.min(size, cy + r + 1); y++)
      for (let x = Math.max(0, Math.floor(cx - r - 1)); x < Math.min(size, cx + r + 1); x++) {
        const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
        grey[y * size + x] -= depth * Math.max(0, Math.min(1, r + 0.5 - d));
      }
  }
  // A formwork joint in some photos: a straight groove 8–12 px wide and only slightly darker.
  if (rng.float() < 0.3) {
    const horizontal = rng.float() < 0.5;
    const at = rng.uniform(size * 0.15, size * 0.85),
      half = rng.uniform(4, 6),
      depth = rng.uniform(0.04, 0.07);
    for (let y = 0; y < size; y++)
      for (let x = 0; x < size; x++) {
        const d = Math.abs((horizontal ? y : x) + 0.5 - at);
        if (d < half + 2) grey[y * size + x] -= depth * Math.max(0, Math.min(1, (half + 1 - d) / 2));
      }
  }
  const mask = new Uint8Array(n);
  let truth: CrackTruth = { hasCrack: false, lengthMm: 0, maxWidthMm: 0, meanWidthMm: 0, branches: [] };
  if (rng.float() < CRACK_SHARE) {
    const branches = crackBranches(rng, size);
    const darkness = rng.uniform(0.3, 0.65);
    let lengthPx = 0,
      widthSum = 0,
      maxWidth = 0;
    for (const b of branches) {
      const xs = b.points.map((p) => p[0]),
        ys = b.points.map((p) => p[1]);
      const pad = Math.max(...b.widthsPx) / 2 + 2;
      const x0 = Math.max(0, Math.floor(Math.min(...xs) - pad)),
        x1 = Math.min(size - 1, Math.ceil(Math.max(...xs) + pad));
      const y0 = Math.max(0, Math.floor(Math.min(...ys) - pad)),
        y1 = Math.min(size - 1, Math.ceil(Math.max(...ys) + pad));
      for (let i = 1; i < b.points.length; i++) {
        const len = Math.hypot(b.points[i][0] - b.points[i - 1][0], b.points[i][1] - b.points[i - 1][1]);
        lengthPx += len;
        widthSum += len * b.widthsPx[i - 1];
        maxWidth = Math.max(maxWidth, b.widthsPx[i - 1]);
      }
      for (let y = y0; y <= y1; y++)
        for (let x = x0; x <= x1; x++) {
          // How far inside the nearest segment's edge this pixel centre lies (positive = inside).
          let depthIn = -Infinity;
          for (let i = 1; i < b.points.length; i++) {
            const d = segmentDistance(x + 0.5, y + 0.5, b.points[i - 1][0], b.points[i - 1][1], b.points[i][0], b.points[i][1]);
            depthIn = Math.max(depthIn, b.widthsPx[i - 1] / 2 - d);
          }
          // Anti-aliased edge: full darkness inside, a one-pixel ramp across the true edge.
          const cover = Math.max(0, Math.min(1, depthIn + 0.5));
          if (cover > 0) grey[y * size + x] = Math.min(grey[y * size + x], grey[y * size + x] * (1 - darkness * cover));
          if (depthIn >= 0) mask[y * size + x] = 1;
        }
    }
    truth = {
      hasCrack: true,
      lengthMm: lengthPx * CRACK_MM_PER_PIXEL,
      maxWidthMm: maxWidth * CRACK_MM_PER_PIXEL,
      meanWidthMm: (widthSum / lengthPx) * CRACK_MM_PER_PIXEL,
      branches,
    };
  }
  const image = new Float32Array(n * 3);
  for (let p = 0; p < n; p++) for (let c = 0; c < 3; c++) image[p * 3 + c] = Math.max(0, Math.min(1, grey[p] * tint[c]));
  return { width: size, height: size, image, mask, truth };
}

/** The first `count` photos of a split as an image dataset (label 1 = crack), masks included. */
export function generateCracksSplit(split: CrackSplit, count: number, seed = CRACKS_DEFAULT_SEED): ImageDataset {
  const size = CRACK_PHOTO_SIZE;
  const per = size * size * 3;
  const images = new Float32Array(count * per);
  const masks = new Uint8Array(count * size * size);
  const labels = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const photo = generateCrackPhoto(i, split, seed, size);
    images.set(photo.image, i * per);
    masks.set(photo.mask, i * size * size);
    labels[i] = photo.truth.hasCrack ? 1 : 0;
  }
  return { name: `concrete-inspection/${split}`, height: size, width: size, channels: 3, classNames: [...CRACK_CLASSES], size: count, images, labels, masks };
}
