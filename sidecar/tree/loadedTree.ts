// The trees a worker has loaded (kept between jobs) and a request's edits applied to a copy of
// one (edits.ts): what every Tree job (predict.ts) starts from.
import fs from "node:fs";
import path from "node:path";
import * as tf from "@tensorflow/tfjs";
import type { DatasetSplits, ImageDataset } from "../data/dataset.ts";
import type { FloatImage } from "../data/png.ts";
import { MANIFEST_FILE, TreeCheckpointError, openTreeDir } from "./checkpoint.ts";
import { checkEdits, favourClass, type CheckedEdit, type EditInput, type PatchRef } from "./edits.ts";
import { latent, type ProtoTree, type TreeManifest } from "./protoTree.ts";
import { loadTreeDataset } from "./treeDatasets.ts";

// Loaded trees (per worker thread; a user's tree never changes once written, a platform tree
// only when an operator replaces it: the key includes the weights' checksum)

export interface Loaded {
  key: string;
  tree: ProtoTree;
  data: DatasetSplits;
  baseProtos: Float32Array;
  /** Latent patches [h·w·D] of training images, by index (bounded by LATENT_CACHE_BYTES). */
  latents: Map<number, Float32Array>;
  crops: Map<string, Uint8Array>;
}

const LATENT_CACHE_BYTES = 64 * 1024 * 1024;
const loaded: Loaded[] = [];
const KEEP_TREES = 2;

function checkpointFailure(err: unknown): never {
  const e = err as Error;
  // Named as the pool's checkpoint errors so the service answers FAILED_PRECONDITION (sidecar/inference/errors.ts).
  if (err instanceof TreeCheckpointError) {
    const out = new Error(e.message);
    out.name = "CheckpointError";
    throw out;
  }
  throw err;
}

export function load(dir: string, treeId: string): Loaded {
  let manifest: TreeManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST_FILE), "utf8")) as TreeManifest;
  } catch (err) {
    return checkpointFailure(new TreeCheckpointError(`tree "${treeId}" cannot be read: ${(err as Error).message}`));
  }
  const key = `${dir}|${manifest.weightsSha256}`;
  const hit = loaded.findIndex((l) => l.key === key);
  if (hit >= 0) {
    const [l] = loaded.splice(hit, 1);
    loaded.unshift(l);
    return l;
  }
  let tree: ProtoTree;
  try {
    tree = openTreeDir(dir, treeId);
  } catch (err) {
    return checkpointFailure(err);
  }
  let data: DatasetSplits;
  try {
    data = loadTreeDataset(tree.manifest.dataset);
  } catch (err) {
    return checkpointFailure(
      new TreeCheckpointError(`tree "${treeId}" was trained on ${tree.manifest.dataset}, which cannot be read here: ${(err as Error).message}`),
    );
  }
  const l: Loaded = { key, tree, data, baseProtos: Float32Array.from(tree.prototypes.dataSync()), latents: new Map(), crops: new Map() };
  loaded.unshift(l);
  while (loaded.length > KEEP_TREES) {
    const old = loaded.pop()!;
    for (const v of [old.tree.addOnKernel, old.tree.addOnBias, old.tree.prototypes]) v.dispose();
    for (const v of old.tree.backbone.weights.values()) v.dispose();
  }
  return l;
}

export function imageOf(ds: ImageDataset, index: number): FloatImage {
  const n = ds.height * ds.width * ds.channels;
  return { height: ds.height, width: ds.width, channels: ds.channels, data: ds.images.slice(index * n, (index + 1) * n) };
}

export function latentShapeOf(tree: ProtoTree): [number, number] {
  return tree.manifest.latentShape;
}

/** Latent patches of training images (cached), each [h·w·D]. */
export function trainLatents(l: Loaded, samples: number[]): Float32Array[] {
  const missing = [...new Set(samples.filter((s) => !l.latents.has(s)))];
  const { train } = l.data;
  const n = train.height * train.width * train.channels;
  for (let s = 0; s < missing.length; s += 32) {
    const part = missing.slice(s, s + 32);
    const buf = new Float32Array(part.length * n);
    part.forEach((idx, i) => buf.set(train.images.subarray(idx * n, (idx + 1) * n), i * n));
    const z = tf.tidy(() => latent(l.tree, tf.tensor4d(buf, [part.length, train.height, train.width, train.channels])).dataSync() as Float32Array);
    const per = z.length / part.length;
    part.forEach((idx, i) => l.latents.set(idx, z.slice(i * per, (i + 1) * per)));
  }
  const out = samples.map((s) => l.latents.get(s)!);
  // Bound the cache: drop the oldest entries past the byte budget (Map keeps insertion order).
  let bytes = 0;
  for (const v of l.latents.values()) bytes += v.byteLength;
  for (const k of l.latents.keys()) {
    if (bytes <= LATENT_CACHE_BYTES) break;
    bytes -= l.latents.get(k)!.byteLength;
    l.latents.delete(k);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Edits

export interface Edited {
  checked: CheckedEdit[];
  protos: Float32Array;
  logits: Float32Array;
  /** Each internal node's picture source (projection, or the candidate that replaced it). */
  source: Array<PatchRef | null>;
  edited: Set<number>;
  /** Leaves set by favour_class (held fixed when adjusting). */
  held: Set<number>;
}

export function applyEdits(l: Loaded, edits: EditInput[] | undefined): Edited {
  const { tree, data } = l;
  const checked = checkEdits(edits, {
    numPrototypes: tree.numPrototypes,
    numLeaves: tree.numLeaves,
    numClasses: tree.numClasses,
    classNames: tree.manifest.classNames,
    trainSize: data.train.size,
    latentShape: latentShapeOf(tree),
  });
  const D = tree.manifest.protoDim;
  const C = tree.numClasses;
  const [, w] = latentShapeOf(tree);
  const protos = Float32Array.from(l.baseProtos);
  const logits = Float32Array.from(tree.leafLogits);
  const source: Array<PatchRef | null> = tree.projections.map((p) => (p ? { sample: p.sample, row: p.row, col: p.col } : null));
  const edited = new Set<number>();
  const held = new Set<number>();
  const protoEdits = checked.filter((e): e is Extract<CheckedEdit, { kind: "prototype" }> => e.kind === "prototype");
  const zs = trainLatents(
    l,
    protoEdits.map((e) => e.patch.sample),
  );
  protoEdits.forEach((e, i) => {
    const cell = e.patch.row * w + e.patch.col;
    protos.set(zs[i].subarray(cell * D, (cell + 1) * D), e.node * D);
    source[e.node] = e.patch;
    edited.add(e.node);
  });
  for (const e of checked) {
    if (e.kind !== "favour") continue;
    const k = e.node - tree.numPrototypes;
    favourClass(logits.subarray(k * C, (k + 1) * C), e.cls);
    edited.add(e.node);
    held.add(e.node);
  }
  return { checked, protos, logits, source, edited, held };
}

/** The tree with other prototypes and leaf logits (shares the backbone); dispose() frees its prototype tensor. */
export function viewOf(tree: ProtoTree, protos: Float32Array, logits: Float32Array): ProtoTree & { dispose(): void } {
  const t = tf.tensor2d(protos, [tree.numPrototypes, tree.manifest.protoDim]);
  return { ...tree, manifest: { ...tree.manifest }, prototypes: t as unknown as tf.Variable, leafLogits: logits, dispose: () => t.dispose() };
}
