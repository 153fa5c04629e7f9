// What the classification demo says about a result besides the prediction (docs/datasets.md "The
// demo's result"): which model and which data produced it, whether the picture is like the data the
// model learned (an out-of-distribution check), and the attribution overlay drawn on the picture
// the visitor sees.
//
// The out-of-distribution check (docs/datasets.md "Is the picture like the model's data?"):
// a picture of the model's own held-out test split (the platform's installed dataset of that
// data) is in distribution by where it comes from. Any other picture (a user's dataset, an
// upload) is compared with that held-out split by simple statistics of the input the model
// receives (the same crop, size and channels as the Explain call): mean and spread of the
// intensities, the mean of the border ring and of the centre, the share of near-black pixels,
// the mean edge strength, and for colour models the mean chroma. Each statistic is scored by its
// distance to the held-out split's median in robust standard deviations (1.4826 × MAD, never
// below 0.02); the picture's score is its largest distance. The threshold is the 99th percentile
// of the held-out pictures' own scores (at least 5), so 99 % of the model's real test data pass
// and a picture beyond it is flagged. Max-softmax was not used: a network is confidently wrong on
// inputs unlike its data (a red square reads as "Bag 79.90 %"), which is what the check is for.
import sharp from "sharp";
import { colour } from "../../sidecar/inference/heatmap.ts";
import { Dataset, InferenceCache, Picture } from "./db.server.ts";
import { listModels, modelInput, resultFor, type ResultView, type TrainedModel } from "./classification.server.ts";
import { datasetIntros, type Viewer } from "./datasets.server.ts";
import { readStored } from "./pictures.server.ts";

/** Robust z-score the held-out data's own 99th percentile must reach before it is the threshold. */
export const OOD_MIN_THRESHOLD = 5;
export const OOD_QUANTILE = 0.99;
const SCALE_FLOOR = 0.02;
const CALIBRATION_PICTURES = 500;
export const FEATURE_NAMES = ["mean", "spread", "border", "centre", "dark", "edges", "chroma"] as const;

export type DistributionCheck =
  | { kind: "heldOut" }
  | { kind: "inDistribution"; score: number; threshold: number; calibration: number }
  | { kind: "outOfDistribution"; score: number; threshold: number; calibration: number; feature: string }
  | { kind: "unchecked"; reason: "noModel" | "noHeldOut" | "unreadable" };

export interface ResultProvenance {
  model: { id: string; arch: string; data: string; dataTitle: string; testAccuracy: number | null; classes: number; trainedAt: string } | null;
  picture: { name: string; dataset: string; platform: boolean };
  check: DistributionCheck;
}

/** Statistics of the input as the model receives it (pixel values in [0, 1]). */
export async function inputFeatures(bytes: Buffer, model: TrainedModel): Promise<number[]> {
  const { data, info } = await sharp(await modelInput(bytes, model))
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width: w, height: h, channels: c } = info;
  const grey = new Float32Array(w * h);
  let chroma = 0;
  for (let p = 0; p < w * h; p++) {
    let s = 0;
    let lo = 1;
    let hi = 0;
    for (let k = 0; k < c; k++) {
      const v = data[p * c + k] / 255;
      s += v;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    grey[p] = s / c;
    chroma += hi - lo;
  }
  const n = w * h;
  const mean = grey.reduce((a, b) => a + b, 0) / n;
  const spread = Math.sqrt(grey.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
  const ring = Math.max(1, Math.round(Math.min(w, h) / 14));
  let border = 0;
  let borderN = 0;
  let centre = 0;
  let centreN = 0;
  let dark = 0;
  let edges = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const v = grey[y * w + x];
      if (x < ring || y < ring || x >= w - ring || y >= h - ring) {
        border += v;
        borderN++;
      }
      if (x >= w / 4 && x < (3 * w) / 4 && y >= h / 4 && y < (3 * h) / 4) {
        centre += v;
        centreN++;
      }
      if (v < 0.05) dark++;
      if (x + 1 < w) edges += Math.abs(grey[y * w + x + 1] - v);
      if (y + 1 < h) edges += Math.abs(grey[(y + 1) * w + x] - v);
    }
  return [mean, spread, border / borderN, centre / Math.max(1, centreN), dark / n, edges / (2 * n), chroma / n];
}

interface Calibration {
  median: number[];
  scale: number[];
  threshold: number;
  size: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export function scoreOf(f: number[], cal: Pick<Calibration, "median" | "scale">): { score: number; feature: number } {
  let score = 0;
  let feature = 0;
  f.forEach((v, i) => {
    const z = Math.abs(v - cal.median[i]) / cal.scale[i];
    if (z > score) {
      score = z;
      feature = i;
    }
  });
  return { score, feature };
}

/** Fits the statistics' medians and robust spreads on held-out pictures and sets the threshold from their own scores. */
export function calibrate(samples: number[][]): Calibration {
  const dims = samples[0].length;
  const med: number[] = [];
  const scale: number[] = [];
  for (let i = 0; i < dims; i++) {
    const col = samples.map((s) => s[i]);
    const m = median(col);
    med.push(m);
    scale.push(Math.max(SCALE_FLOOR, 1.4826 * median(col.map((v) => Math.abs(v - m)))));
  }
  const scores = samples.map((s) => scoreOf(s, { median: med, scale }).score).sort((a, b) => a - b);
  const q = scores[Math.min(scores.length - 1, Math.ceil(OOD_QUANTILE * scores.length) - 1)];
  return { median: med, scale, threshold: Math.max(OOD_MIN_THRESHOLD, q), size: samples.length };
}

/** The platform's installed dataset of the model's data: its held-out test split (seeds/steps/datasets.ts). */
async function heldOutDataset(model: TrainedModel): Promise<Dataset | null> {
  const installed = await Dataset.findAll({ where: { ownerId: null }, order: [["id", "ASC"]] });
  return installed.find((d) => d.dataKind && (model.dataset === d.dataKind || model.dataset.startsWith(`${d.dataKind}-`))) ?? null;
}

const calibrations = new Map<string, Calibration>();

async function calibrationFor(model: TrainedModel): Promise<Calibration | null> {
  const key = `${model.id}@${model.trainedAt}`;
  const known = calibrations.get(key);
  if (known) return known;
  const ds = await heldOutDataset(model);
  if (!ds) return null;
  const rows = await Picture.findAll({ where: { datasetId: ds.id }, order: [["id", "ASC"]], limit: CALIBRATION_PICTURES });
  const samples: number[][] = [];
  for (const r of rows) {
    const bytes = await readStored(r.filePath);
    if (bytes) samples.push(await inputFeatures(bytes, model).catch(() => null as never));
  }
  const usable = samples.filter(Boolean);
  if (usable.length < 10) return null;
  const cal = calibrate(usable);
  calibrations.set(key, cal);
  return cal;
}

const verdicts = new Map<string, DistributionCheck>();

/** Where the result comes from, and whether its picture is like the model's data. */
export async function provenanceOf(result: ResultView): Promise<ResultProvenance> {
  const picture = await Picture.findByPk(result.pictureId, { include: ["dataset"] });
  const dataset = picture?.dataset ?? null;
  const pic = { name: picture?.displayName ?? "", dataset: dataset?.name ?? "", platform: dataset?.ownerId == null };
  let model: TrainedModel | undefined;
  try {
    model = (await listModels()).find((m) => m.id === result.modelId);
  } catch {
    model = undefined;
  }
  if (!model || !picture || !dataset) return { model: null, picture: pic, check: { kind: "unchecked", reason: "noModel" } };
  const info = {
    id: model.id,
    arch: model.arch,
    data: model.dataset,
    dataTitle: datasetIntros().get(model.dataset)?.title ?? (await heldOutDataset(model))?.name ?? model.dataset,
    testAccuracy: model.testAccuracy,
    classes: model.classNames.length,
    trainedAt: model.trainedAt,
  };
  const heldOut = await heldOutDataset(model);
  if (heldOut && heldOut.id === dataset.id) return { model: info, picture: pic, check: { kind: "heldOut" } };
  const key = `${picture.id}:${model.id}@${model.trainedAt}`;
  let check = verdicts.get(key);
  if (!check) {
    check = await checkPicture(picture, model);
    if (verdicts.size > 1000) verdicts.clear();
    verdicts.set(key, check);
  }
  return { model: info, picture: pic, check };
}

async function checkPicture(picture: Picture, model: TrainedModel): Promise<DistributionCheck> {
  const cal = await calibrationFor(model);
  if (!cal) return { kind: "unchecked", reason: "noHeldOut" };
  const bytes = await readStored(picture.filePath);
  if (!bytes) return { kind: "unchecked", reason: "unreadable" };
  let f: number[];
  try {
    f = await inputFeatures(bytes, model);
  } catch {
    return { kind: "unchecked", reason: "unreadable" };
  }
  const { score, feature } = scoreOf(f, cal);
  const rounded = Math.round(score * 10) / 10;
  const threshold = Math.round(cal.threshold * 10) / 10;
  return score > cal.threshold
    ? { kind: "outOfDistribution", score: rounded, threshold, calibration: cal.size, feature: FEATURE_NAMES[feature] }
    : { kind: "inDistribution", score: rounded, threshold, calibration: cal.size };
}

// ---------------------------------------------------------------------------------------------
// The overlay on the picture the visitor sees: the sidecar draws its overlay on the
// model's input (28 × 28 grey for Fashion-MNIST, whatever the upload was); here the attribution is
// laid over the picture itself, cropped as the model saw it, at the size the page shows it.

/** Longest side of the shown input and overlay: the result figure's width at twice the CSS pixels. */
export const DISPLAY_PX = 640;

/** The ramp's inverse: a colour of the sidecar's heatmap back to its value in [0, 1]. */
const RAMP = Array.from({ length: 256 }, (_, i) => colour(i / 255).map((x) => x * 255));
function valueOf(r: number, g: number, b: number): number {
  let best = 0;
  let bestD = Infinity;
  for (let i = 0; i < RAMP.length; i++) {
    const [cr, cg, cb] = RAMP[i];
    const d = (cr - r) ** 2 + (cg - g) ** 2 + (cb - b) ** 2;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best / 255;
}

interface Shown {
  input: Buffer;
  overlay: Buffer;
}
const shownCache = new Map<number, Shown>();

/** The picture as the model saw it (same crop) and the overlay on it, both at display size; null when the viewer may not see it. */
export async function shownImages(viewer: Viewer, cacheId: unknown): Promise<Shown | null> {
  const result = await resultFor(viewer, cacheId);
  if (!result) return null;
  const hit = shownCache.get(result.id);
  if (hit) return hit;
  const row = await InferenceCache.findByPk(result.id);
  const picture = await Picture.findByPk(result.pictureId);
  if (!row || !picture) return null;
  const [original, heat] = await Promise.all([readStored(picture.filePath), readStored(row.heatmapPath)]);
  if (!original || !heat) return null;
  let model: TrainedModel | undefined;
  try {
    model = (await listModels()).find((m) => m.id === row.modelId);
  } catch {
    model = undefined;
  }
  const heatMeta = await sharp(heat).metadata();
  // The attribution's own grid: the model's input size (the stored heatmap is that, enlarged by a whole factor).
  const gridW = model?.inputWidth ?? heatMeta.width ?? 1;
  const gridH = model?.inputHeight ?? heatMeta.height ?? 1;
  const grid = await sharp(heat).resize(gridW, gridH, { kernel: "nearest" }).removeAlpha().toColourspace("srgb").raw().toBuffer({ resolveWithObject: true });
  const gc = grid.info.channels;
  const values = Buffer.alloc(gridW * gridH);
  for (let p = 0; p < gridW * gridH; p++) values[p] = Math.round(255 * valueOf(grid.data[p * gc], grid.data[p * gc + 1], grid.data[p * gc + 2]));

  // The crop the model saw (modelInput: cover, centred) at display size; small pictures by a whole factor, hard edges.
  const meta = await sharp(original).metadata();
  const srcW = meta.autoOrient?.width ?? meta.width ?? gridW;
  const srcH = meta.autoOrient?.height ?? meta.height ?? gridH;
  const cropScale = Math.min(srcW / gridW, srcH / gridH);
  const cropW = Math.max(1, Math.round(gridW * cropScale));
  const cropH = Math.max(1, Math.round(gridH * cropScale));
  const small = Math.max(cropW, cropH) < DISPLAY_PX;
  const factor = small ? Math.max(1, Math.floor(DISPLAY_PX / Math.max(cropW, cropH))) : DISPLAY_PX / Math.max(cropW, cropH);
  const outW = Math.max(1, Math.round(cropW * factor));
  const outH = Math.max(1, Math.round(cropH * factor));
  const base = await sharp(original, { limitInputPixels: 40_000_000, animated: false })
    .rotate()
    .resize(outW, outH, { fit: "cover", kernel: small ? "nearest" : "lanczos3" })
    .removeAlpha()
    .toColourspace("srgb")
    .raw()
    .toBuffer({ resolveWithObject: true });
  const heatUp = await sharp(values, { raw: { width: gridW, height: gridH, channels: 1 } })
    .resize(outW, outH, { fit: "fill", kernel: small && cropW === gridW ? "nearest" : "cubic" })
    .raw()
    // sharp may hand a one-channel image back as three: read its own channel count.
    .toBuffer({ resolveWithObject: true });
  const hc0 = heatUp.info.channels;
  const c = base.info.channels;
  const out = Buffer.alloc(outW * outH * 3);
  for (let p = 0; p < outW * outH; p++) {
    const v = heatUp.data[p * hc0] / 255;
    const hc = colour(v);
    const alpha = 0.25 + 0.6 * v; // as the sidecar's overlay (sidecar/inference/heatmap.ts)
    for (let k = 0; k < 3; k++) {
      const b = base.data[p * c + (c >= 3 ? k : 0)];
      out[p * 3 + k] = Math.round((1 - alpha) * b + alpha * hc[k] * 255);
    }
  }
  const shown: Shown = {
    input: await sharp(base.data, { raw: { width: outW, height: outH, channels: c as 1 | 3 | 4 } })
      .png()
      .toBuffer(),
    overlay: await sharp(out, { raw: { width: outW, height: outH, channels: 3 } })
      .png()
      .toBuffer(),
  };
  if (shownCache.size > 100) shownCache.clear();
  shownCache.set(result.id, shown);
  return shown;
}
