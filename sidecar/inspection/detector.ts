// The crack detector the platform keeps (docs/crack-detection.md explains the comparison):
// a classical ridge-filter pipeline. Dark thin lines are found with a multi-scale Frangi
// filter, kept where they are also clearly darker than the surrounding surface (hysteresis
// between a strong and a weak threshold, so a crack is followed along its fainter parts),
// short pieces are dropped (pores, grain), and the crack's own pixels are those darker than
// half its contrast (full width at half depth), which is what the width is measured on.
import { darkLineFilter, gaussianBlur } from "./filters.ts";
import { connectedComponents, dilate } from "./morphology.ts";
import { measureCrack, centreLineLength } from "./measure.ts";
import { thin } from "./morphology.ts";

export const DETECTOR_NAME = "ridge-frangi-v1";

export interface DetectorParams {
  /** Background estimate: Gaussian σ in pixels (well above the widest crack). */
  backgroundSigma: number;
  /** A line pixel must respond at least this strongly to start a crack … */
  strongResponse: number;
  /** … and be this much darker than the background (intensity in [0, 1]). */
  strongContrast: number;
  /** Pixels connected to a start that respond this much and are this much darker continue it. */
  weakResponse: number;
  weakContrast: number;
  /** Pieces whose centre line is shorter than this (pixels) are not cracks. */
  minLengthPx: number;
}

export const DEFAULT_DETECTOR: DetectorParams = {
  backgroundSigma: 10,
  strongResponse: 0.3,
  strongContrast: 0.07,
  weakResponse: 0.1,
  weakContrast: 0.05,
  minLengthPx: 16,
};

export interface CrackDetection {
  hasCrack: boolean;
  lengthMm: number;
  maxWidthMm: number;
  meanWidthMm: number;
  /** 1 on the crack's pixels. */
  mask: Uint8Array;
  /** Separate cracks found (connected pieces). */
  pieces: number;
  crackPixels: number;
}

/** Luminance of an H×W×C image in [0, 1]. */
export function toGrey(data: Float32Array, width: number, height: number, channels: number): Float32Array {
  if (channels === 1) return data.slice(0, width * height);
  const grey = new Float32Array(width * height);
  for (let p = 0; p < width * height; p++) grey[p] = 0.299 * data[p * channels] + 0.587 * data[p * channels + 1] + 0.114 * data[p * channels + 2];
  return grey;
}

export function detectCracks(
  image: { data: Float32Array; width: number; height: number; channels: number },
  mmPerPixel: number,
  params: DetectorParams = DEFAULT_DETECTOR,
): CrackDetection {
  const { width, height } = image;
  const grey = toGrey(image.data, width, height, image.channels);
  const background = gaussianBlur(grey, width, height, params.backgroundSigma);
  const contrast = new Float32Array(grey.length);
  for (let i = 0; i < grey.length; i++) contrast[i] = background[i] - grey[i];
  const { response } = darkLineFilter(grey, width, height);

  // Hysteresis: weak line pixels, kept where their piece holds at least one strong pixel.
  const weak = new Uint8Array(grey.length);
  for (let i = 0; i < grey.length; i++) weak[i] = response[i] > params.weakResponse && contrast[i] > params.weakContrast ? 1 : 0;
  const { labels, sizes } = connectedComponents(weak, width, height);
  const strongIn = new Uint8Array(sizes.length);
  for (let i = 0; i < grey.length; i++) if (labels[i] && response[i] > params.strongResponse && contrast[i] > params.strongContrast) strongIn[labels[i]] = 1;
  const lines = new Uint8Array(grey.length);
  for (let i = 0; i < grey.length; i++) lines[i] = labels[i] && strongIn[labels[i]] ? 1 : 0;

  // Each piece's depth: the median contrast on its centre line; its pixels are those near the
  // line that are darker than half that depth.
  const pieces = connectedComponents(lines, width, height);
  const centre = thin(lines, width, height);
  const depths: number[][] = pieces.sizes.map(() => []);
  for (let i = 0; i < grey.length; i++) if (centre[i]) depths[pieces.labels[i]].push(contrast[i]);
  const halfDepth = depths.map((d) => (d.length ? d.sort((a, b) => a - b)[d.length >> 1] / 2 : Infinity));
  const near = dilate(lines, width, height, 3);
  // Nearest piece label for the grown pixels: spread labels into the dilated band.
  const owner = pieces.labels.slice();
  for (let pass = 0; pass < 3; pass++)
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const i = y * width + x;
        if (owner[i] || !near[i]) continue;
        for (let dy = -1; dy <= 1 && !owner[i]; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            const xx = x + dx,
              yy = y + dy;
            if (xx < 0 || yy < 0 || xx >= width || yy >= height) continue;
            const o = owner[yy * width + xx];
            if (o) {
              owner[i] = o;
              break;
            }
          }
      }
  const crack = new Uint8Array(grey.length);
  for (let i = 0; i < grey.length; i++) crack[i] = owner[i] && near[i] && contrast[i] > halfDepth[owner[i]] ? 1 : 0;

  // Drop short pieces.
  const final = connectedComponents(crack, width, height);
  const skeleton = thin(crack, width, height);
  const pieceSkeleton: Uint8Array[] = [];
  const keep = new Uint8Array(final.sizes.length);
  let kept = 0;
  for (let label = 1; label < final.sizes.length; label++) {
    const own = new Uint8Array(grey.length);
    for (let i = 0; i < grey.length; i++) own[i] = final.labels[i] === label && skeleton[i] ? 1 : 0;
    pieceSkeleton[label] = own;
    if (centreLineLength(own, width, height) >= params.minLengthPx) {
      keep[label] = 1;
      kept++;
    }
  }
  const mask = new Uint8Array(grey.length);
  let crackPixels = 0;
  for (let i = 0; i < grey.length; i++)
    if (keep[final.labels[i]]) {
      mask[i] = 1;
      crackPixels++;
    }
  if (!kept) return { hasCrack: false, lengthMm: 0, maxWidthMm: 0, meanWidthMm: 0, mask, pieces: 0, crackPixels: 0 };
  const m = measureCrack(mask, width, height, mmPerPixel);
  return { hasCrack: true, lengthMm: m.lengthMm, maxWidthMm: m.maxWidthMm, meanWidthMm: m.meanWidthMm, mask, pieces: kept, crackPixels };
}
