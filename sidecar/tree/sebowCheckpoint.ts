// The SeBoW checkpoint folder (sidecar/tree/sebow.ts, docs/sebow.md): tree.json (category "SeBoW",
// config, derived tree, wiring, accuracies, weight names/shapes, SHA-256) and weights.bin (float32,
// little-endian), one folder for the search space and the derived tree. The folder layout and the
// manifest's name are the Tree service's (sidecar/tree/checkpoint.ts), and the manifest carries the
// fields its listing reads (owner, depth, inputShape, testAccuracy, cnnAccuracy, leaves), so a user's
// SeBoW tree from a task is listed with their ProtoTrees. Written by sebowTrain.ts, read by sidecar/sebow/.
import * as tf from "@tensorflow/tfjs";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { leafCount, searchSpaceForward, treeForward, type DeriveOptions, type SebowConfig, type SebowTree, type Weights } from "./sebow.ts";

export const SEBOW_CHECKPOINT_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "checkpoints");

/** Platform checkpoints' folder (SEBOW_CHECKPOINT_DIR overrides it, e.g. for tests). */
export function sebowCheckpointDir(): string {
  return process.env.SEBOW_CHECKPOINT_DIR || SEBOW_CHECKPOINT_DIR;
}

/** The manifest's file name, as the Tree service's (sidecar/tree/checkpoint.ts MANIFEST_FILE). */
export const SEBOW_MANIFEST = "tree.json";

export interface SebowManifest {
  id: string;
  category: "SeBoW";
  format?: "metarank-sebow/1";
  /** "" for platform models. */
  owner?: string;
  /** For the Tree service's listing: layers, input shape, the tree's accuracy and leaves. */
  depth?: number;
  inputShape?: [number, number, number];
  testAccuracy?: number;
  leaves?: number;
  name: string;
  /** "scenes" or "cifar10" / "cifar100" (an operator's CIFAR folder). */
  dataset: string;
  datasetName: string;
  classNames: string[];
  config: SebowConfig;
  derive: DeriveOptions;
  tree: SebowTree;
  /** W[l][i][j] measured on the training split. */
  wiring: number[][][];
  searchSpaceAccuracy: number;
  treeAccuracy: number;
  /** Accuracy of the tree's greedy (hard) routing. */
  treeGreedyAccuracy: number;
  cnnAccuracy: number;
  /** With a feature net (config.backbone): the tree's accuracy before the feature net was fine-tuned, and the fine-tuning steps. */
  treeAccuracyFrozenBackbone?: number;
  fineTuneSteps?: number;
  trainSize: number;
  testSize: number;
  searchSteps: number;
  treeSteps: number;
  batch: number;
  lr: number;
  seed: number;
  trainedAt: string;
  trainingSeconds: number;
  backend: string;
  command?: string;
  weights: Array<{ name: string; shape: number[] }>;
  sha256: string;
}

export class SebowCheckpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CheckpointError";
  }
}

export interface LoadedSebow {
  manifest: SebowManifest;
  searchSpace: Weights;
  tree: Weights;
  dispose(): void;
}

export function readSebowManifest(dir: string): SebowManifest {
  const file = path.join(dir, SEBOW_MANIFEST);
  let m: SebowManifest;
  try {
    m = JSON.parse(fs.readFileSync(file, "utf8")) as SebowManifest;
  } catch (err) {
    throw new SebowCheckpointError(`${file}: ${(err as Error).message}`);
  }
  if (m.category !== "SeBoW" || !m.config || !m.tree || !Array.isArray(m.weights)) throw new SebowCheckpointError(`${file} is not a SeBoW manifest`);
  return m;
}

/** Load a checkpoint folder, checking the weights' size and SHA-256 against the manifest. */
export function loadSebow(dir: string): LoadedSebow {
  const manifest = readSebowManifest(dir);
  const bin = fs.readFileSync(path.join(dir, "weights.bin"));
  const sha = crypto.createHash("sha256").update(bin).digest("hex");
  const total = manifest.weights.reduce((s, w) => s + w.shape.reduce((a, b) => a * b, 1), 0);
  if (bin.length !== total * 4) throw new SebowCheckpointError(`${dir}/weights.bin has ${bin.length} bytes, the manifest describes ${total * 4}`);
  if (sha !== manifest.sha256) throw new SebowCheckpointError(`${dir}/weights.bin does not match the manifest's SHA-256`);
  const floats = new Float32Array(bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.length));
  const searchSpace: Weights = new Map();
  const tree: Weights = new Map();
  let off = 0;
  for (const w of manifest.weights) {
    const n = w.shape.reduce((a, b) => a * b, 1);
    const v = tf.variable(tf.tensor(floats.subarray(off, off + n), w.shape), false);
    off += n;
    if (w.name.startsWith("ss:")) searchSpace.set(w.name.slice(3), v);
    else tree.set(w.name.slice(5), v);
  }
  const dispose = () => {
    for (const v of [...searchSpace.values(), ...tree.values()]) v.dispose();
  };
  try {
    // One forward pass of each model proves every weight is there and shaped right.
    tf.tidy(() => {
      const x = tf.zeros([1, ...manifest.config.inputShape]) as tf.Tensor4D;
      searchSpaceForward(manifest.config, searchSpace, x).probs.dataSync();
      treeForward(manifest.tree, tree, x).probs.dataSync();
    });
  } catch (err) {
    dispose();
    throw new SebowCheckpointError(`${dir} does not fit its SeBoW configuration: ${(err as Error).message}`);
  }
  return { manifest, searchSpace, tree, dispose };
}

/** Write to a temporary folder beside `dir`, then rename: a reader never sees half a checkpoint. */
export function writeSebow(dir: string, manifest: Omit<SebowManifest, "weights" | "sha256">, ss: Weights, tree: Weights): SebowManifest {
  const arrays: Array<{ name: string; shape: number[]; data: Float32Array }> = [];
  for (const [name, v] of ss) arrays.push({ name: `ss:${name}`, shape: v.shape, data: v.dataSync() as Float32Array });
  for (const [name, v] of tree) arrays.push({ name: `tree:${name}`, shape: v.shape, data: v.dataSync() as Float32Array });
  const total = arrays.reduce((s, a) => s + a.data.length, 0);
  const all = new Float32Array(total);
  let off = 0;
  for (const a of arrays) {
    all.set(a.data, off);
    off += a.data.length;
  }
  const bin = Buffer.from(all.buffer, all.byteOffset, all.byteLength);
  const full: SebowManifest = {
    ...manifest,
    format: "metarank-sebow/1",
    owner: manifest.owner ?? "",
    depth: manifest.config.widths.length,
    inputShape: manifest.config.inputShape,
    testAccuracy: manifest.treeAccuracy,
    leaves: leafCount(manifest.tree),
    weights: arrays.map((a) => ({ name: a.name, shape: a.shape })),
    sha256: crypto.createHash("sha256").update(bin).digest("hex"),
  };
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  fs.mkdirSync(tmp, { recursive: true });
  fs.writeFileSync(path.join(tmp, "weights.bin"), bin);
  fs.writeFileSync(path.join(tmp, SEBOW_MANIFEST), JSON.stringify(full, null, 1) + "\n");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(tmp, dir);
  return full;
}
