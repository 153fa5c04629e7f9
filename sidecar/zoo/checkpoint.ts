// Checkpoint files: `<id>.json` (manifest: what the net is, what it was trained on,
// how well it did, and where each weight lies in the binary) next to
// `<id>.weights.bin` (little-endian float16 or float32, as the manifest's `dtype`
// says, weights concatenated in manifest order). The SHA-256 of the binary is in the manifest so a truncated or altered
// file is refused with a clear CheckpointError instead of serving garbage.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ArchConfig, ArchName } from "./architectures.ts";
import { fromHalf, toHalf } from "./half.ts";

export const CHECKPOINT_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "checkpoints");

export interface WeightEntry {
  name: string;
  shape: number[];
}

export type WeightDtype = "float16" | "float32";
const DTYPE_BYTES: Record<WeightDtype, number> = { float16: 2, float32: 4 };

export interface CheckpointManifest {
  format: "metarank-checkpoint/1";
  /** Storage type of the weights file; absent means float32. */
  dtype?: WeightDtype;
  id: string;
  arch: ArchName;
  archConfig: ArchConfig;
  dataset: string;
  /** [height, width, channels] */
  inputShape: [number, number, number];
  classNames: string[];
  /** Accuracy on the held-out test split, in [0, 1]. */
  testAccuracy: number;
  trainSize: number;
  testSize: number;
  epochs: number;
  trainedAt: string;
  /** Seconds of training wall time and the tfjs backend it ran on. */
  trainingSeconds: number;
  backend: string;
  layers: string[];
  defaultCamLayer: string;
  weightsFile: string;
  weightsSha256: string;
  weights: WeightEntry[];
}

export interface NamedArray {
  name: string;
  shape: number[];
  data: Float32Array;
}

/** A checkpoint is missing, unreadable or inconsistent; the message says which and why. */
export class CheckpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CheckpointError";
  }
}

const ID_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;

export function checkpointDir(): string {
  return process.env.CHECKPOINT_DIR ?? CHECKPOINT_DIR;
}

export function writeCheckpoint(
  dir: string,
  manifest: Omit<CheckpointManifest, "weights" | "weightsFile" | "weightsSha256" | "format" | "dtype">,
  arrays: NamedArray[],
  dtype: WeightDtype = "float32",
): CheckpointManifest {
  if (!ID_PATTERN.test(manifest.id)) throw new CheckpointError(`checkpoint id "${manifest.id}" must be lower-case letters, digits, '.', '_' or '-'`);
  fs.mkdirSync(dir, { recursive: true });
  const total = arrays.reduce((s, a) => s + a.data.length, 0);
  const size = DTYPE_BYTES[dtype];
  const buf = Buffer.alloc(total * size);
  let offset = 0;
  for (const a of arrays) {
    const expected = a.shape.reduce((x, y) => x * y, 1);
    if (expected !== a.data.length) throw new CheckpointError(`weight ${a.name}: shape ${a.shape.join("×")} does not match ${a.data.length} values`);
    for (let i = 0; i < a.data.length; i++) {
      if (dtype === "float16") buf.writeUInt16LE(toHalf(a.data[i]), offset + i * 2);
      else buf.writeFloatLE(a.data[i], offset + i * 4);
    }
    offset += a.data.length * size;
  }
  const weightsFile = `${manifest.id}.weights.bin`;
  const full: CheckpointManifest = {
    format: "metarank-checkpoint/1",
    dtype,
    ...manifest,
    weightsFile,
    weightsSha256: crypto.createHash("sha256").update(buf).digest("hex"),
    weights: arrays.map((a) => ({ name: a.name, shape: a.shape })),
  };
  fs.writeFileSync(path.join(dir, weightsFile), buf);
  fs.writeFileSync(path.join(dir, `${manifest.id}.json`), JSON.stringify(full, null, 2) + "\n");
  return full;
}

function fail(id: string, why: string): never {
  throw new CheckpointError(`checkpoint "${id}" ${why}`);
}

/** Read and validate a manifest (not the weights). */
export function readManifest(id: string, dir = checkpointDir()): CheckpointManifest {
  if (!ID_PATTERN.test(id)) fail(id, "is not a valid checkpoint id");
  const file = path.join(dir, `${id}.json`);
  if (!fs.existsSync(file)) fail(id, `not found (no ${id}.json in ${dir})`);
  let m: CheckpointManifest;
  try {
    m = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (err) {
    fail(id, `has an unreadable manifest ${file}: ${(err as Error).message}`);
  }
  if (m.format !== "metarank-checkpoint/1") fail(id, `manifest has unknown format "${String(m.format)}"`);
  if (m.id !== id) fail(id, `manifest names itself "${m.id}"`);
  const need: Array<keyof CheckpointManifest> = ["arch", "archConfig", "dataset", "inputShape", "classNames", "weights", "weightsFile", "weightsSha256"];
  for (const k of need) if (m[k] === undefined) fail(id, `manifest lacks "${k}"`);
  if (!Array.isArray(m.inputShape) || m.inputShape.length !== 3) fail(id, "manifest inputShape must be [height, width, channels]");
  if (!Array.isArray(m.weights) || m.weights.some((w) => typeof w.name !== "string" || !Array.isArray(w.shape))) fail(id, "manifest weights list is malformed");
  return m;
}

/** Read, verify (size and SHA-256) and split the weights of a checkpoint. */
export function readCheckpoint(id: string, dir = checkpointDir()): { manifest: CheckpointManifest; arrays: NamedArray[] } {
  const manifest = readManifest(id, dir);
  const file = path.join(dir, path.basename(manifest.weightsFile));
  if (!fs.existsSync(file)) fail(id, `weights file ${manifest.weightsFile} is missing`);
  const buf = fs.readFileSync(file);
  const dtype = manifest.dtype ?? "float32";
  const size = DTYPE_BYTES[dtype];
  if (!size) fail(id, `manifest has unknown weight dtype "${dtype}"`);
  const expected = manifest.weights.reduce((s, w) => s + w.shape.reduce((a, b) => a * b, 1), 0);
  if (buf.length !== expected * size)
    fail(id, `weights file holds ${buf.length} bytes but the manifest describes ${expected * size} (truncated or from another model)`);
  const sha = crypto.createHash("sha256").update(buf).digest("hex");
  if (sha !== manifest.weightsSha256) fail(id, "weights file does not match the checksum in its manifest (corrupt or altered)");
  const arrays: NamedArray[] = [];
  let offset = 0;
  for (const w of manifest.weights) {
    const n = w.shape.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    for (let i = 0; i < n; i++) data[i] = dtype === "float16" ? fromHalf(buf.readUInt16LE(offset + i * 2)) : buf.readFloatLE(offset + i * 4);
    offset += n * size;
    if (!data.every(Number.isFinite)) fail(id, `weight ${w.name} contains NaN or infinite values`);
    arrays.push({ name: w.name, shape: w.shape, data });
  }
  return { manifest, arrays };
}

/** Manifests of every checkpoint in the folder, sorted by id; unreadable ones are skipped with a note. */
export function listManifests(dir = checkpointDir()): { manifests: CheckpointManifest[]; problems: string[] } {
  const manifests: CheckpointManifest[] = [];
  const problems: string[] = [];
  if (!fs.existsSync(dir)) return { manifests, problems: [`checkpoint folder ${dir} does not exist`] };
  for (const f of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    try {
      manifests.push(readManifest(f.replace(/\.json$/, ""), dir));
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  return { manifests, problems };
}
