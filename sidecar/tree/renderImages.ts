// The small pictures of the Tree service (sidecar/tree/service.ts): a prototype's training patch,
// an input with its nearest patch outlined, a similarity heatmap over the input, and a leaf's
// class distribution as a bar chart. Pure JavaScript on float images (sidecar/data/png.ts), so
// they are the same bytes on every backend.
import { encodePng, type FloatImage } from "../data/png.ts";
import { colour, normaliseMap, upsampleMap } from "../inference/heatmap.ts";

/** A box on the input image, in pixels: rows y0..y1-1, columns x0..x1-1. */
export interface PixelBox {
  y0: number;
  x0: number;
  y1: number;
  x1: number;
}

/** Nearest-neighbour enlargement by an integer factor (keeps the pixels of 28-pixel inputs visible). */
export function enlarge(img: FloatImage, factor: number): FloatImage {
  const f = Math.max(1, Math.floor(factor));
  if (f === 1) return img;
  const H = img.height * f,
    W = img.width * f,
    C = img.channels;
  const data = new Float32Array(H * W * C);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const src = (Math.floor(y / f) * img.width + Math.floor(x / f)) * C;
      data.set(img.data.subarray(src, src + C), (y * W + x) * C);
    }
  return { height: H, width: W, channels: C, data };
}

/** The factor that makes the longer side at least `min` pixels. */
export function enlargeFactor(height: number, width: number, min: number): number {
  return Math.max(1, Math.ceil(min / Math.max(1, Math.max(height, width))));
}

function toRgb(img: FloatImage): FloatImage {
  if (img.channels === 3) return img;
  const data = new Float32Array(img.height * img.width * 3);
  for (let p = 0; p < img.height * img.width; p++) data.fill(img.data[p * img.channels], p * 3, p * 3 + 3);
  return { height: img.height, width: img.width, channels: 3, data };
}

/** The box cut out of the image, enlarged to at least 96 pixels on its longer side. */
export function cropPng(img: FloatImage, box: PixelBox): Buffer {
  const h = box.y1 - box.y0,
    w = box.x1 - box.x0,
    C = img.channels;
  const data = new Float32Array(h * w * C);
  for (let y = 0; y < h; y++) data.set(img.data.subarray(((box.y0 + y) * img.width + box.x0) * C, ((box.y0 + y) * img.width + box.x1) * C), y * w * C);
  const crop = { height: h, width: w, channels: C, data };
  return encodePng(enlarge(crop, enlargeFactor(h, w, 96)));
}

/** The whole image enlarged to at least 192 pixels with the box outlined in yellow (2 enlarged pixels thick). */
export function outlinedPng(img: FloatImage, box: PixelBox): Buffer {
  const f = enlargeFactor(img.height, img.width, 192);
  const big = toRgb(enlarge(img, f));
  const t = Math.max(2, f);
  const y0 = box.y0 * f,
    y1 = box.y1 * f,
    x0 = box.x0 * f,
    x1 = box.x1 * f;
  const paint = (y: number, x: number) => {
    if (y < 0 || x < 0 || y >= big.height || x >= big.width) return;
    big.data.set([1, 0.85, 0], (y * big.width + x) * 3);
  };
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (y < y0 + t || y >= y1 - t || x < x0 + t || x >= x1 - t) paint(y, x);
  return encodePng(big);
}

/**
 * The similarity of every latent patch to the prototype (h × w values in (0, 1]), upsampled
 * bilinearly over the image, scaled by its own 99th percentile and laid over the image in the
 * classification heatmaps' colours (sidecar/inference/heatmap.ts), enlarged as outlinedPng.
 */
export function similarityHeatmapPng(img: FloatImage, sim: Float32Array, latentH: number, latentW: number): Buffer {
  const H = img.height,
    W = img.width;
  const up = upsampleMap(sim, latentH, latentW, H, W);
  // Relative to the weakest patch, so an image whose patches are all alike shows no hot spot.
  let lo = Infinity;
  for (const v of up) lo = Math.min(lo, v);
  for (let i = 0; i < up.length; i++) up[i] -= lo;
  const norm = normaliseMap(up);
  const rgb = toRgb(img);
  const data = new Float32Array(H * W * 3);
  for (let p = 0; p < H * W; p++) {
    const heat = colour(norm[p]);
    const alpha = 0.2 + 0.6 * norm[p];
    for (let k = 0; k < 3; k++) data[p * 3 + k] = (1 - alpha) * rgb.data[p * 3 + k] + alpha * heat[k];
  }
  return encodePng(enlarge({ height: H, width: W, channels: 3, data }, enlargeFactor(H, W, 192)));
}

/**
 * A leaf's class distribution as a bar chart: one bar per class (at least 2 pixels wide), the
 * highest in the accent colour, the rest grey, on white; 160 × 64 pixels or wider for many classes.
 */
export function distributionPng(dist: ArrayLike<number>): Buffer {
  const n = Math.max(1, dist.length);
  const bar = Math.max(2, Math.floor(152 / n));
  const W = Math.max(160, bar * n + 8),
    H = 64;
  const data = new Float32Array(H * W * 3).fill(1);
  let top = 0;
  for (let c = 1; c < dist.length; c++) if (dist[c] > dist[top]) top = c;
  for (let c = 0; c < dist.length; c++) {
    const v = Math.min(1, Math.max(0, Number(dist[c]) || 0));
    const h = Math.round(v * (H - 6));
    const rgb = c === top ? [0.388, 0.4, 0.945] : [0.6, 0.6, 0.6];
    for (let y = H - 2 - h; y < H - 2; y++) for (let x = 4 + c * bar; x < 4 + (c + 1) * bar - (bar > 2 ? 1 : 0); x++) data.set(rgb, (y * W + x) * 3);
  }
  // Base line.
  for (let x = 2; x < W - 2; x++) data.set([0.2, 0.2, 0.2], ((H - 2) * W + x) * 3);
  return encodePng({ height: H, width: W, channels: 3, data });
}
