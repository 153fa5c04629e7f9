// The geometry of MoRF/LeRF removal (docs/evaluation.md §2–§4): the image is cut into
// square patches, each patch gets one importance (its attribution summed over its
// pixels and channels), patches are ordered most relevant first (MoRF) or least
// relevant first (LeRF) with ties broken by patch index, and at removal fraction f the
// first round(f · patches) patches of that order are painted with the filler.
// Everything here is plain arrays so it can be tested without a tensor runtime.

export type Protocol = "morf" | "lerf";
export const PROTOCOLS: readonly Protocol[] = ["morf", "lerf"];

export interface PatchGrid {
  height: number;
  width: number;
  channels: number;
  patchSize: number;
  /** Patches per row and per column; edge patches are smaller when the size does not divide. */
  cols: number;
  rows: number;
  count: number;
}

export function patchGrid(height: number, width: number, channels: number, patchSize: number): PatchGrid {
  if (!Number.isInteger(patchSize) || patchSize < 1) throw new RangeError(`patch size must be a whole number of pixels ≥ 1 (got ${patchSize})`);
  for (const [name, v] of [
    ["height", height],
    ["width", width],
    ["channels", channels],
  ] as const) {
    if (!Number.isInteger(v) || v < 1) throw new RangeError(`image ${name} must be a whole number ≥ 1 (got ${v})`);
  }
  const cols = Math.ceil(width / patchSize);
  const rows = Math.ceil(height / patchSize);
  return { height, width, channels, patchSize, cols, rows, count: cols * rows };
}

/** Patch index (row-major over the patch grid) of pixel (y, x). */
export function patchOf(grid: PatchGrid, y: number, x: number): number {
  return Math.floor(y / grid.patchSize) * grid.cols + Math.floor(x / grid.patchSize);
}

/**
 * Importance of every patch: the attribution (H × W × C, row-major HWC, the image's
 * shape) summed over the patch's pixels and all channels. Signed: a method that marks
 * a patch as evidence against the class gives it a low importance, which is what
 * MoRF/LeRF test. Summed in float64 so the order does not depend on summation noise.
 */
export function patchImportance(attribution: ArrayLike<number>, grid: PatchGrid): Float64Array {
  const { height, width, channels } = grid;
  if (attribution.length !== height * width * channels) {
    throw new RangeError(`attribution has ${attribution.length} values, expected ${height}×${width}×${channels}`);
  }
  const out = new Float64Array(grid.count);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = patchOf(grid, y, x);
      const base = (y * width + x) * channels;
      let s = 0;
      for (let c = 0; c < channels; c++) s += attribution[base + c];
      out[p] += s;
    }
  }
  return out;
}

/**
 * Patch indices in removal order. MoRF: importance descending; LeRF: ascending; equal
 * importances (and NaN, treated as equal to each other and placed last in both
 * orders) keep ascending patch index, so the order is a pure function of the map.
 */
export function orderPatches(importance: ArrayLike<number>, protocol: Protocol): Int32Array {
  const idx = Array.from({ length: importance.length }, (_, i) => i);
  const sign = protocol === "morf" ? -1 : 1;
  idx.sort((a, b) => {
    const va = importance[a];
    const vb = importance[b];
    const na = Number.isNaN(va);
    const nb = Number.isNaN(vb);
    if (na || nb) return na && nb ? a - b : na ? 1 : -1;
    if (va !== vb) return sign * (va < vb ? -1 : 1);
    return a - b;
  });
  return Int32Array.from(idx);
}

/**
 * Patches removed at each fraction of the grid: round(f · count), halves rounded up.
 * The 1e-9 nudge makes products that are exactly .5 in decimal (0.3 · 5) round up even
 * when their float64 value lands a hair below.
 */
export function removalCounts(fractions: readonly number[], count: number): number[] {
  return fractions.map((f) => {
    if (!(f >= 0 && f <= 1)) throw new RangeError(`removal fraction must be in [0, 1] (got ${f})`);
    return Math.min(count, Math.floor(f * count + 0.5 + 1e-9));
  });
}

/** The filler value for each of `channels` channels: one value per channel, or one value for all. */
export function fillerFor(filler: readonly number[], channels: number): Float32Array {
  if (filler.length === 0 || filler.some((v) => typeof v !== "number" || !Number.isFinite(v))) {
    throw new RangeError(`filler must be a list of finite numbers (got [${filler.join(", ")}])`);
  }
  if (filler.length !== 1 && filler.length < channels) {
    throw new RangeError(`filler has ${filler.length} values but the model's input has ${channels} channels`);
  }
  const out = new Float32Array(channels);
  // A one-channel model (Fashion-MNIST) takes the first value of an RGB filler, so one
  // suite-wide filler serves greyscale and colour tasks alike.
  for (let c = 0; c < channels; c++) out[c] = filler.length === 1 || channels === 1 ? filler[0] : filler[c];
  return out;
}

/** Pixel offsets (y · W + x) of every patch, built once per grid. */
export function patchPixels(grid: PatchGrid): Int32Array[] {
  const lists: number[][] = Array.from({ length: grid.count }, () => []);
  for (let y = 0; y < grid.height; y++) for (let x = 0; x < grid.width; x++) lists[patchOf(grid, y, x)].push(y * grid.width + x);
  return lists.map((l) => Int32Array.from(l));
}

/**
 * Writes into `out` (H × W × C) the image with the first `removed` patches of `order`
 * painted with `filler` (per channel). `out` may be a view into a batch buffer.
 */
export function maskImage(
  image: Float32Array,
  grid: PatchGrid,
  pixels: Int32Array[],
  order: Int32Array,
  removed: number,
  filler: Float32Array,
  out: Float32Array,
): void {
  out.set(image);
  const C = grid.channels;
  for (let k = 0; k < removed; k++) {
    for (const px of pixels[order[k]]) {
      const base = px * C;
      for (let c = 0; c < C; c++) out[base + c] = filler[c];
    }
  }
}

/**
 * Localisation: the share of the positive attribution mass (per pixel, summed over
 * channels, then only values > 0 counted) that falls inside the object mask. null when
 * the map has no positive mass at all (nothing to localise).
 */
export function positiveMassInside(attribution: ArrayLike<number>, mask: ArrayLike<number>, grid: PatchGrid): number | null {
  const { height, width, channels } = grid;
  if (mask.length !== height * width) throw new RangeError(`mask has ${mask.length} values, expected ${height}×${width}`);
  let inside = 0;
  let total = 0;
  for (let p = 0; p < height * width; p++) {
    let s = 0;
    for (let c = 0; c < channels; c++) s += attribution[p * channels + c];
    if (s > 0) {
      total += s;
      if (mask[p]) inside += s;
    }
  }
  return total > 0 ? inside / total : null;
}
