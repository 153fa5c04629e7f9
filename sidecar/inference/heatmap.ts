// Renders an attribution as pictures: a heatmap (colour map of how much each pixel
// contributed) and an overlay (the heatmap blended over the input). Both are the
// input's size; the web app enlarges them for display.
import { encodePng, type FloatImage } from "../data/png.ts";
import type { RawTensor } from "./imageInput.ts";

/**
 * One non-negative value per input pixel. An input-shaped attribution [1, H, W, C]
 * gives Σ_c |a| (the usual saliency view: magnitude, whatever the sign); a smaller
 * layer map [1, h, w, 1] (LayerGradCam) keeps its positive part and is upsampled
 * bilinearly to H × W.
 */
export function attributionMap(att: RawTensor, height: number, width: number): Float32Array {
  const dims = att.shape.length === 4 ? att.shape.slice(1) : att.shape.length === 3 ? att.shape : att.shape.length === 2 ? [...att.shape, 1] : null;
  if (!dims) throw new Error(`cannot draw an attribution of shape [${att.shape.join(", ")}]`);
  const [h, w, c] = dims;
  const map = new Float32Array(h * w);
  const inputShaped = h === height && w === width;
  for (let p = 0; p < h * w; p++) {
    let s = 0;
    for (let k = 0; k < c; k++) s += inputShaped ? Math.abs(att.data[p * c + k]) : att.data[p * c + k];
    map[p] = inputShaped ? s : Math.max(0, s);
  }
  if (inputShaped) return map;
  return upsampleMap(map, h, w, height, width);
}

/** A map of h × w values resized bilinearly to height × width (pixel centres aligned, edges clamped). */
export function upsampleMap(map: ArrayLike<number>, h: number, w: number, height: number, width: number): Float32Array {
  const out = new Float32Array(height * width);
  for (let y = 0; y < height; y++) {
    const fy = Math.min(h - 1, Math.max(0, ((y + 0.5) * h) / height - 0.5));
    const y0 = Math.floor(fy),
      y1 = Math.min(h - 1, y0 + 1),
      wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(w - 1, Math.max(0, ((x + 0.5) * w) / width - 0.5));
      const x0 = Math.floor(fx),
        x1 = Math.min(w - 1, x0 + 1),
        wx = fx - x0;
      out[y * width + x] = (1 - wy) * ((1 - wx) * map[y0 * w + x0] + wx * map[y0 * w + x1]) + wy * ((1 - wx) * map[y1 * w + x0] + wx * map[y1 * w + x1]);
    }
  }
  return out;
}

/** Scale to [0, 1] by the 99th percentile, so one extreme pixel does not wash out the rest. */
export function normaliseMap(map: Float32Array): Float32Array {
  const sorted = Float32Array.from(map).sort();
  const hi = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] || sorted[sorted.length - 1];
  const out = new Float32Array(map.length);
  if (!(hi > 0)) return out;
  for (let i = 0; i < map.length; i++) out[i] = Math.min(1, map[i] / hi);
  return out;
}

/** A perceptually ordered dark-blue → red → yellow ramp (close to matplotlib's "inferno"/"hot"). */
const STOPS: Array<[number, [number, number, number]]> = [
  [0, [0.0, 0.0, 0.15]],
  [0.3, [0.35, 0.05, 0.55]],
  [0.6, [0.9, 0.2, 0.2]],
  [0.85, [1.0, 0.65, 0.0]],
  [1, [1.0, 1.0, 0.6]],
];

export function colour(v: number): [number, number, number] {
  for (let i = 1; i < STOPS.length; i++) {
    if (v <= STOPS[i][0]) {
      const [t0, c0] = STOPS[i - 1],
        [t1, c1] = STOPS[i];
      const f = (v - t0) / (t1 - t0);
      return [c0[0] + f * (c1[0] - c0[0]), c0[1] + f * (c1[1] - c0[1]), c0[2] + f * (c1[2] - c0[2])];
    }
  }
  return STOPS[STOPS.length - 1][1];
}

export function heatmapImage(norm: Float32Array, height: number, width: number): FloatImage {
  const data = new Float32Array(height * width * 3);
  for (let p = 0; p < height * width; p++) data.set(colour(norm[p]), p * 3);
  return { height, width, channels: 3, data };
}

/** The input (greyscale shown as grey) with the heatmap laid over it, more opaque where the attribution is larger. */
export function overlayImage(norm: Float32Array, input: FloatImage): FloatImage {
  const { height, width, channels } = input;
  const data = new Float32Array(height * width * 3);
  for (let p = 0; p < height * width; p++) {
    const heat = colour(norm[p]);
    const alpha = 0.25 + 0.6 * norm[p];
    for (let k = 0; k < 3; k++) {
      const base = channels === 1 ? input.data[p] : input.data[p * channels + k];
      data[p * 3 + k] = (1 - alpha) * base + alpha * heat[k];
    }
  }
  return { height, width, channels: 3, data };
}

export function renderAttribution(att: RawTensor, input: FloatImage): { heatmapPng: Buffer; overlayPng: Buffer } {
  const norm = normaliseMap(attributionMap(att, input.height, input.width));
  return {
    heatmapPng: encodePng(heatmapImage(norm, input.height, input.width)),
    overlayPng: encodePng(overlayImage(norm, input)),
  };
}
