// Measures the crack detector against the generated photos' ground truth and writes the
// figures the /twodresult page and docs/crack-detection.md quote:
//   npm run -s crack-eval -- [--from 400] [--count 1000] [--out sidecar/inspection/results/ridge-frangi-v1.json]
// The detector's thresholds were chosen on test photos 0–399; the committed figures are on
// photos 400–1399, which tuning never saw. Deterministic: the same command writes the same file.
import fs from "node:fs";
import path from "node:path";
import { CRACK_MM_PER_PIXEL, CRACKS_DEFAULT_SEED, generateCrackPhoto } from "../data/cracks.ts";
import { DEFAULT_DETECTOR, DETECTOR_NAME, detectCracks } from "./detector.ts";

export interface EvaluatedPhoto {
  index: number;
  truth: { hasCrack: boolean; lengthMm: number; maxWidthMm: number; meanWidthMm: number };
  detected: { hasCrack: boolean; lengthMm: number; maxWidthMm: number; meanWidthMm: number };
}

export interface ErrorSummary {
  /** Mean signed error (detected − truth). */
  bias: number;
  /** Mean absolute error. */
  mae: number;
  /** 90th percentile of the absolute error. */
  p90: number;
}

export interface DetectorEvaluation {
  detector: string;
  params: typeof DEFAULT_DETECTOR;
  data: { generator: string; seed: number; split: "test"; from: number; count: number; mmPerPixel: number; tuning: string };
  counts: { truePositive: number; falsePositive: number; falseNegative: number; trueNegative: number };
  precision: number;
  recall: number;
  /** Over photos with a crack that was found: relative length error (detected/truth − 1). */
  lengthRelative: ErrorSummary;
  /** In mm, same photos. */
  meanWidthMm: ErrorSummary;
  maxWidthMm: ErrorSummary;
  msPerPhoto: number;
  photos: EvaluatedPhoto[];
}

const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

function summarise(errors: number[]): ErrorSummary {
  if (!errors.length) return { bias: 0, mae: 0, p90: 0 };
  const abs = errors.map(Math.abs).sort((a, b) => a - b);
  return {
    bias: round(errors.reduce((s, e) => s + e, 0) / errors.length),
    mae: round(abs.reduce((s, e) => s + e, 0) / abs.length),
    p90: round(abs[Math.min(abs.length - 1, Math.floor(abs.length * 0.9))]),
  };
}

/** Detector vs ground truth on test photos [from, from + count). */
export function evaluateDetector(from: number, count: number): DetectorEvaluation {
  const photos: EvaluatedPhoto[] = [];
  const started = performance.now();
  for (let index = from; index < from + count; index++) {
    const p = generateCrackPhoto(index, "test");
    const d = detectCracks({ data: p.image, width: p.width, height: p.height, channels: 3 }, CRACK_MM_PER_PIXEL);
    const pick = (m: { hasCrack: boolean; lengthMm: number; maxWidthMm: number; meanWidthMm: number }) => ({
      hasCrack: m.hasCrack,
      lengthMm: round(m.lengthMm),
      maxWidthMm: round(m.maxWidthMm),
      meanWidthMm: round(m.meanWidthMm),
    });
    photos.push({ index, truth: pick(p.truth), detected: pick(d) });
  }
  const msPerPhoto = (performance.now() - started) / count;
  const c = { truePositive: 0, falsePositive: 0, falseNegative: 0, trueNegative: 0 };
  const len: number[] = [],
    mean: number[] = [],
    max: number[] = [];
  for (const { truth, detected } of photos) {
    if (truth.hasCrack && detected.hasCrack) {
      c.truePositive++;
      len.push(detected.lengthMm / truth.lengthMm - 1);
      mean.push(detected.meanWidthMm - truth.meanWidthMm);
      max.push(detected.maxWidthMm - truth.maxWidthMm);
    } else if (detected.hasCrack) c.falsePositive++;
    else if (truth.hasCrack) c.falseNegative++;
    else c.trueNegative++;
  }
  return {
    detector: DETECTOR_NAME,
    params: DEFAULT_DETECTOR,
    data: {
      generator: "sidecar/data/cracks.ts",
      seed: CRACKS_DEFAULT_SEED,
      split: "test",
      from,
      count,
      mmPerPixel: CRACK_MM_PER_PIXEL,
      tuning: "thresholds chosen on test photos 0–399",
    },
    counts: c,
    precision: round(c.truePositive / Math.max(1, c.truePositive + c.falsePositive)),
    recall: round(c.truePositive / Math.max(1, c.truePositive + c.falseNegative)),
    lengthRelative: summarise(len),
    meanWidthMm: summarise(mean),
    maxWidthMm: summarise(max),
    msPerPhoto: round(msPerPhoto, 1),
    photos,
  };
}

export const COMMITTED_EVALUATION = path.resolve(path.dirname(new URL(import.meta.url).pathname), "results", `${DETECTOR_NAME}.json`);

/** The committed figures without the timing (which depends on the machine) — what a rerun must reproduce. */
export function reproducible(e: DetectorEvaluation): Omit<DetectorEvaluation, "msPerPhoto"> {
  const { msPerPhoto: _ms, ...rest } = e;
  return rest;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const arg = (name: string, fallback: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const from = Number(arg("from", "400")),
    count = Number(arg("count", "1000"));
  const out = arg("out", COMMITTED_EVALUATION);
  if (!Number.isInteger(from) || from < 0 || !Number.isInteger(count) || count < 1 || count > 100_000) {
    console.error("usage: crack-eval [--from N] [--count 1..100000] [--out FILE]");
    process.exit(2);
  }
  const e = evaluateDetector(from, count);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const { photos, ...summary } = e;
  // The summary readable, then one line per photo (a diff shows which photos changed).
  const head = JSON.stringify(summary, null, 1).replace(/\n}$/, "");
  fs.writeFileSync(out, `${head},\n "photos": [\n${photos.map((p) => "  " + JSON.stringify(p)).join(",\n")}\n ]\n}\n`);
  console.log(JSON.stringify(summary, null, 1));
}
