// The VQA checkpoint: a folder with `model.json` (what the network is: architecture,
// vocabulary, answers; how it was trained; how well it and its two blind baselines answer
// held-out questions) and `weights.bin` (the weights as little-endian float16, concatenated
// in manifest order; its SHA-256 is in the manifest so a truncated or altered file is
// refused). A folder, not `<id>.json` beside the zoo's checkpoints, so the image
// classifiers' catalogue (sidecar/zoo/checkpoint.ts listManifests) never sees it.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fromHalf, toHalf } from "../zoo/half.ts";
import type { VqaArch } from "./vqaNet.ts";

export const VQA_CHECKPOINT_FORMAT = "metarank-vqa/1";
export const DEFAULT_VQA_CHECKPOINT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "zoo", "checkpoints", "vqa-scenes");
const MANIFEST = "model.json";
const WEIGHTS = "weights.bin";

export interface AccuracyReport {
  /** Fraction of held-out questions answered correctly, in [0, 1]. */
  overall: number;
  /** The same per question type (QUESTION_TYPES). */
  perType: Record<string, number>;
}

export interface VqaManifest {
  format: typeof VQA_CHECKPOINT_FORMAT;
  id: string;
  dataset: string;
  description: string;
  arch: VqaArch;
  /** [height, width, channels] of the image input. */
  inputShape: [number, number, number];
  vocabulary: string[];
  answers: string[];
  questionTypes: string[];
  maxQuestionTokens: number;
  /** Which output the attributions explain. */
  explainedOutput: string;
  exampleQuestions: string[];
  training: {
    command: string;
    seed: number;
    dataSeed: number;
    epochs: number;
    batchImages: number;
    learningRate: number;
    /** Images an epoch, and whether every epoch read new ones (then trainImages = epochs × imagesPerEpoch). */
    imagesPerEpoch: number;
    freshImages: boolean;
    trainImages: number;
    trainQuestions: number;
    testImages: number;
    testQuestions: number;
    /** Held-out questions per type. */
    testQuestionsPerType: Record<string, number>;
    /** Wall time of the whole run (the model and both baselines) and of the model alone. */
    seconds: number;
    modelSeconds: number;
    backend: string;
    trainedAt: string;
  };
  accuracy: {
    model: AccuracyReport;
    /** The same network and recipe with every image replaced by a black one (question only). */
    imageBlind: AccuracyReport;
    /** The same network and recipe with every question replaced by pads (image only). */
    questionBlind: AccuracyReport;
  };
  /**
   * The same held-out images and questions asked in Chinese (docs/vqa.md "Chinese"); the
   * question-blind network reads no words, so its figure is the English one. Absent from
   * checkpoints trained before Chinese was added.
   */
  accuracyZh?: { model: AccuracyReport; imageBlind?: AccuracyReport; questionBlind: AccuracyReport; testQuestions: number };
  /** Where the blind baselines' figures come from ("trained in this run", or the checkpoint they were taken from). */
  baselines?: string;
  dtype: "float16";
  weightsFile: string;
  weightsSha256: string;
  weights: Array<{ name: string; shape: number[] }>;
}

export interface NamedArray {
  name: string;
  shape: number[];
  data: Float32Array;
}

export class VqaCheckpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "VqaCheckpointError";
  }
}

export function writeVqaCheckpoint(
  dir: string,
  manifest: Omit<VqaManifest, "format" | "dtype" | "weightsFile" | "weightsSha256" | "weights">,
  arrays: NamedArray[],
): VqaManifest {
  fs.mkdirSync(dir, { recursive: true });
  const total = arrays.reduce((s, a) => s + a.data.length, 0);
  const buf = Buffer.alloc(total * 2);
  let offset = 0;
  for (const a of arrays) {
    for (let i = 0; i < a.data.length; i++) buf.writeUInt16LE(toHalf(a.data[i]), offset + i * 2);
    offset += a.data.length * 2;
  }
  const full: VqaManifest = {
    format: VQA_CHECKPOINT_FORMAT,
    ...manifest,
    dtype: "float16",
    weightsFile: WEIGHTS,
    weightsSha256: crypto.createHash("sha256").update(buf).digest("hex"),
    weights: arrays.map((a) => ({ name: a.name, shape: a.shape })),
  };
  fs.writeFileSync(path.join(dir, WEIGHTS), buf);
  fs.writeFileSync(path.join(dir, MANIFEST), JSON.stringify(full, null, 2) + "\n");
  return full;
}

export function readVqaManifest(dir = DEFAULT_VQA_CHECKPOINT): VqaManifest {
  const file = path.join(dir, MANIFEST);
  if (!fs.existsSync(file)) throw new VqaCheckpointError(`no VQA checkpoint in ${dir} (${MANIFEST} is missing; train one with npx tsx sidecar/vqa/train.ts)`);
  let m: VqaManifest;
  try {
    m = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (err) {
    throw new VqaCheckpointError(`unreadable VQA manifest ${file}: ${(err as Error).message}`);
  }
  if (m.format !== VQA_CHECKPOINT_FORMAT) throw new VqaCheckpointError(`${file} has unknown format "${String(m.format)}"`);
  for (const k of ["arch", "vocabulary", "answers", "weights", "weightsSha256"] as const)
    if (m[k] === undefined) throw new VqaCheckpointError(`${file} lacks "${k}"`);
  return m;
}

export function readVqaCheckpoint(dir = DEFAULT_VQA_CHECKPOINT): { manifest: VqaManifest; arrays: NamedArray[] } {
  const manifest = readVqaManifest(dir);
  const file = path.join(dir, path.basename(manifest.weightsFile));
  if (!fs.existsSync(file)) throw new VqaCheckpointError(`VQA weights file ${file} is missing`);
  const buf = fs.readFileSync(file);
  const expected = manifest.weights.reduce((s, w) => s + w.shape.reduce((a, b) => a * b, 1), 0);
  if (buf.length !== expected * 2) throw new VqaCheckpointError(`${file} holds ${buf.length} bytes but the manifest describes ${expected * 2}`);
  if (crypto.createHash("sha256").update(buf).digest("hex") !== manifest.weightsSha256)
    throw new VqaCheckpointError(`${file} does not match the checksum in its manifest (corrupt or altered)`);
  const arrays: NamedArray[] = [];
  let offset = 0;
  for (const w of manifest.weights) {
    const n = w.shape.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    for (let i = 0; i < n; i++) data[i] = fromHalf(buf.readUInt16LE(offset + i * 2));
    offset += n * 2;
    if (!data.every(Number.isFinite)) throw new VqaCheckpointError(`VQA weight ${w.name} contains NaN or infinite values`);
    arrays.push({ name: w.name, shape: w.shape, data });
  }
  return { manifest, arrays };
}
