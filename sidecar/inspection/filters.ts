// Image filters of the crack detector (docs/crack-detection.md): a separable Gaussian blur and
// the multi-scale Hessian line filter of Frangi et al. (MICCAI 1998), tuned for DARK lines
// (cracks) on a brighter surface. Images here are single-channel Float32Array, row-major.

/** Separable Gaussian blur with reflected borders; the kernel is cut at 3σ and normalised. */
export function gaussianBlur(src: Float32Array, width: number, height: number, sigma: number): Float32Array {
  if (sigma <= 0) return src.slice();
  const radius = Math.max(1, Math.ceil(3 * sigma));
  const kernel = new Float32Array(2 * radius + 1);
  let sum = 0;
  for (let i = -radius; i <= radius; i++) sum += kernel[i + radius] = Math.exp(-(i * i) / (2 * sigma * sigma));
  for (let i = 0; i < kernel.length; i++) kernel[i] /= sum;
  const reflect = (i: number, n: number) => (i < 0 ? Math.min(n - 1, -i - 1) : i >= n ? Math.max(0, 2 * n - i - 1) : i);
  const tmp = new Float32Array(src.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let acc = 0;
      for (let k = -radius; k <= radius; k++) acc += kernel[k + radius] * src[y * width + reflect(x + k, width)];
      tmp[y * width + x] = acc;
    }
  const out = new Float32Array(src.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let acc = 0;
      for (let k = -radius; k <= radius; k++) acc += kernel[k + radius] * tmp[reflect(y + k, height) * width + x];
      out[y * width + x] = acc;
    }
  return out;
}

export interface LineFilterOptions {
  /** Scales (Gaussian σ in pixels) the filter looks at: about half the line widths it should find. */
  sigmas: number[];
  /** Frangi's β: how strongly blob-like structures (pores) are suppressed. */
  beta: number;
  /** Frangi's c: the "structureness" at which the response saturates (in scale-normalised units). */
  c: number;
}

export const DEFAULT_LINE_FILTER: LineFilterOptions = { sigmas: [1, 1.5, 2, 3], beta: 0.5, c: 0.08 };

/**
 * Frangi vesselness for dark lines: at each scale σ the Hessian of the σ-blurred image is
 * scale-normalised by σ²; with eigenvalues |λ1| ≤ |λ2|, a dark line has λ2 > 0 (the intensity
 * curves up across it) and λ1 ≈ 0 (flat along it). V = exp(−Rb²/2β²)·(1 − exp(−S²/2c²)), with
 * Rb = λ1/λ2 and S = √(λ1² + λ2²); V = 0 where λ2 ≤ 0. The result is the maximum over scales,
 * with the scale that gave it (which says how wide the line is).
 */
export function darkLineFilter(grey: Float32Array, width: number, height: number, opts: LineFilterOptions = DEFAULT_LINE_FILTER) {
  const response = new Float32Array(grey.length);
  const scale = new Float32Array(grey.length);
  for (const sigma of opts.sigmas) {
    const g = gaussianBlur(grey, width, height, sigma);
    const s2 = sigma * sigma;
    for (let y = 1; y < height - 1; y++)
      for (let x = 1; x < width - 1; x++) {
        const i = y * width + x;
        const dxx = (g[i - 1] - 2 * g[i] + g[i + 1]) * s2;
        const dyy = (g[i - width] - 2 * g[i] + g[i + width]) * s2;
        const dxy = ((g[i - width - 1] + g[i + width + 1] - g[i - width + 1] - g[i + width - 1]) / 4) * s2;
        // Eigenvalues of [[dxx, dxy], [dxy, dyy]], ordered by magnitude.
        const mean = (dxx + dyy) / 2;
        const root = Math.sqrt(((dxx - dyy) / 2) ** 2 + dxy * dxy);
        let l1 = mean - root,
          l2 = mean + root;
        if (Math.abs(l1) > Math.abs(l2)) [l1, l2] = [l2, l1];
        if (l2 <= 0) continue;
        const rb = l1 / l2;
        const s = Math.sqrt(l1 * l1 + l2 * l2);
        const v = Math.exp(-(rb * rb) / (2 * opts.beta * opts.beta)) * (1 - Math.exp(-(s * s) / (2 * opts.c * opts.c)));
        if (v > response[i]) {
          response[i] = v;
          scale[i] = sigma;
        }
      }
  }
  return { response, scale };
}
