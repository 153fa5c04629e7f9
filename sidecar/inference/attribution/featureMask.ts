// Feature masks for the perturbation methods: an integer feature id per input element
// (NHWC order, broadcast over channels where the mask is per pixel). Captum's default
// mask gives every scalar its own id; for images Lime and KernelShap need a few
// superpixels instead, which here are square grid cells.
import { AttributionParamError } from "./types.ts";

export interface FeatureMask {
  /** One id per input element, NHWC order (length H·W·C). */
  ids: Int32Array;
  /** Number of distinct features: ids are 0 … count − 1. */
  count: number;
}

/** Every element its own feature (Captum's default feature_mask). */
export function elementMask(h: number, w: number, c: number): FeatureMask {
  const ids = new Int32Array(h * w * c);
  for (let i = 0; i < ids.length; i++) ids[i] = i;
  return { ids, count: ids.length };
}

/** Square cells of `cell` × `cell` pixels (all channels together), row-major ids. */
export function gridMask(h: number, w: number, c: number, cell: number): FeatureMask {
  if (!(cell >= 1)) throw new AttributionParamError(`superpixel size must be at least 1 (got ${cell})`);
  const cols = Math.ceil(w / cell);
  const rows = Math.ceil(h / cell);
  const ids = new Int32Array(h * w * c);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const id = Math.floor(y / cell) * cols + Math.floor(x / cell);
      for (let ch = 0; ch < c; ch++) ids[(y * w + x) * c + ch] = id;
    }
  return { ids, count: rows * cols };
}

/** A mask given per element or per pixel (broadcast over channels), checked and normalised. */
export function maskFrom(values: ArrayLike<number>, h: number, w: number, c: number): FeatureMask {
  let ids: Int32Array;
  if (values.length === h * w * c) ids = Int32Array.from(values);
  else if (values.length === h * w) {
    ids = new Int32Array(h * w * c);
    for (let p = 0; p < h * w; p++) for (let ch = 0; ch < c; ch++) ids[p * c + ch] = values[p];
  } else {
    throw new AttributionParamError(`feature_mask must have ${h * w * c} (per element) or ${h * w} (per pixel) entries, got ${values.length}`);
  }
  let max = -1;
  for (const v of ids) {
    if (!Number.isInteger(v) || v < 0) throw new AttributionParamError("feature_mask ids must be whole numbers ≥ 0");
    if (v > max) max = v;
  }
  return { ids, count: max + 1 };
}
