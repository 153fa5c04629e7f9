// Tree storage and identity (proto/metarank/v1/tree.proto, "Identity and visibility").
//  - Platform trees: sidecar/tree/checkpoints/<id>/ (PLATFORM_TREE_DIR overrides), id "platform:<id>",
//    visible to everyone.
//  - A user's trees: ${TREE_DIR:-var/trees}/users/<owner>/<name>/, id "user:<owner>:<name>",
//    visible to the owner and admins; anyone else gets TreeNotFoundError, exactly as for an
//    unknown id, so ids cannot be probed.
// A tree directory holds tree.json (the manifest, protoTree.ts TreeManifest; its `category` says
// which model kind reads the rest, so SeBoW trees share this layout and resolver) and weights.bin
// (little-endian float32 arrays in manifest order, SHA-256 in the manifest). Trees are written
// to a temporary sibling directory and renamed, so a reader never sees half a tree.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as tf from "@tensorflow/tfjs";
import { readCheckpoint, CHECKPOINT_DIR as ZOO_DIR } from "../zoo/checkpoint.ts";
import type { WeightMap } from "../zoo/layers.ts";
import {
  PROTOTREE_CATEGORY,
  completeTree,
  makeBackbone,
  numPrototypesOf,
  structureFromJson,
  structureToJson,
  type ProtoTree,
  type TreeManifest,
} from "./protoTree.ts";

export const PLATFORM_TREE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "checkpoints");
export const MANIFEST_FILE = "tree.json";
export const WEIGHTS_FILE = "weights.bin";

export function platformTreeDir(): string {
  return process.env.PLATFORM_TREE_DIR ?? PLATFORM_TREE_DIR;
}
export function userTreeRoot(): string {
  return path.join(process.env.TREE_DIR ?? path.resolve("var/trees"), "users");
}
/** The zoo's checkpoints (backbones); CHECKPOINT_DIR as the zoo reads it. */
function zooDir(): string {
  return process.env.CHECKPOINT_DIR ?? ZOO_DIR;
}

export interface TreeCaller {
  username: string;
  admin?: boolean;
}

/** Unknown tree, or one the caller may not see (the same answer, by design). */
export class TreeNotFoundError extends Error {
  constructor(treeId: string) {
    super(`tree "${treeId}" not found`);
    this.name = "TreeNotFoundError";
  }
}
/** A tree exists but its files are broken (FAILED_PRECONDITION). */
export class TreeCheckpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TreeCheckpointError";
  }
}
/** The owner already has a tree of that name. */
export class TreeExistsError extends Error {
  constructor(treeId: string) {
    super(`a tree named "${treeId.split(":").pop()}" already exists`);
    this.name = "TreeExistsError";
  }
}

/** Model names (tree.proto SaveTreeRequest.name): 1–64 letters, digits, '-', '_', '.'; not "." or "..". */
export const TREE_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
/** Usernames as they may appear in a path: no separators, no leading dot. */
const OWNER_PATTERN = /^[^/\\:\0.][^/\\:\0]{0,127}$/;

export function validTreeName(name: string): boolean {
  return TREE_NAME_PATTERN.test(name) && name !== "." && name !== "..";
}

export type TreeRef = { kind: "platform"; id: string; dir: string } | { kind: "user"; owner: string; name: string; dir: string };

export const platformTreeId = (id: string) => `platform:${id}`;
export const userTreeId = (owner: string, name: string) => `user:${owner}:${name}`;

/**
 * Where a tree id lives, if the caller may see it; TreeNotFoundError otherwise (malformed ids,
 * unknown ids and other users' trees alike). Does not check that the directory exists.
 */
export function resolveTree(treeId: string, caller: TreeCaller | null | undefined): TreeRef {
  const m = /^platform:([a-z0-9][a-z0-9._-]{0,63})$/.exec(treeId);
  if (m && m[1] !== "." && m[1] !== "..") return { kind: "platform", id: m[1], dir: path.join(platformTreeDir(), m[1]) };
  const u = /^user:([^:]+):([^:]+)$/.exec(treeId);
  if (u && OWNER_PATTERN.test(u[1]) && validTreeName(u[2])) {
    const [owner, name] = [u[1], u[2]];
    if (!caller || (!caller.admin && caller.username !== owner)) throw new TreeNotFoundError(treeId);
    return { kind: "user", owner, name, dir: path.join(userTreeRoot(), owner, name) };
  }
  throw new TreeNotFoundError(treeId);
}

/** The manifest of a visible tree (any category); TreeNotFoundError when absent or invisible. */
export function readTreeManifest(treeId: string, caller: TreeCaller | null | undefined): { ref: TreeRef; manifest: TreeManifest & Record<string, unknown> } {
  const ref = resolveTree(treeId, caller);
  const file = path.join(ref.dir, MANIFEST_FILE);
  if (!fs.existsSync(file)) throw new TreeNotFoundError(treeId);
  try {
    return { ref, manifest: JSON.parse(fs.readFileSync(file, "utf8")) };
  } catch (err) {
    throw new TreeCheckpointError(`tree "${treeId}" has an unreadable ${MANIFEST_FILE}: ${(err as Error).message}`);
  }
}

export interface ListedTree {
  treeId: string;
  manifest: TreeManifest & Record<string, unknown>;
}

/** Platform trees plus the caller's own (ListTrees lists a user's own trees, admins included). */
export function listTrees(caller: TreeCaller | null | undefined): { trees: ListedTree[]; problems: string[] } {
  const trees: ListedTree[] = [];
  const problems: string[] = [];
  const scan = (dir: string, idOf: (name: string) => string) => {
    if (!fs.existsSync(dir)) return;
    for (const name of fs.readdirSync(dir).sort()) {
      if (name.startsWith(".")) continue;
      const file = path.join(dir, name, MANIFEST_FILE);
      if (!fs.existsSync(file)) continue;
      try {
        trees.push({ treeId: idOf(name), manifest: JSON.parse(fs.readFileSync(file, "utf8")) });
      } catch (err) {
        problems.push(`${file}: ${(err as Error).message}`);
      }
    }
  };
  scan(platformTreeDir(), platformTreeId);
  if (caller?.username && OWNER_PATTERN.test(caller.username)) scan(path.join(userTreeRoot(), caller.username), (n) => userTreeId(caller.username, n));
  return { trees, problems };
}

// ---------------------------------------------------------------------------------------------
// Weights

export interface NamedArray {
  name: string;
  shape: number[];
  data: Float32Array;
}

function readWeights(dir: string, manifest: TreeManifest, treeId: string): Map<string, NamedArray> {
  const file = path.join(dir, path.basename(manifest.weightsFile || WEIGHTS_FILE));
  if (!fs.existsSync(file)) throw new TreeCheckpointError(`tree "${treeId}": ${WEIGHTS_FILE} is missing`);
  const buf = fs.readFileSync(file);
  const expected = manifest.weights.reduce((s, w) => s + w.shape.reduce((a, b) => a * b, 1), 0);
  if (buf.length !== expected * 4)
    throw new TreeCheckpointError(`tree "${treeId}": ${WEIGHTS_FILE} holds ${buf.length} bytes, the manifest describes ${expected * 4}`);
  if (crypto.createHash("sha256").update(buf).digest("hex") !== manifest.weightsSha256)
    throw new TreeCheckpointError(`tree "${treeId}": ${WEIGHTS_FILE} does not match its checksum (corrupt or altered)`);
  const out = new Map<string, NamedArray>();
  let offset = 0;
  for (const w of manifest.weights) {
    const n = w.shape.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    for (let i = 0; i < n; i++) data[i] = buf.readFloatLE(offset + i * 4);
    offset += n * 4;
    if (!data.every(Number.isFinite)) throw new TreeCheckpointError(`tree "${treeId}": weight ${w.name} has NaN or infinite values`);
    out.set(w.name, { name: w.name, shape: w.shape, data });
  }
  return out;
}

/** The backbone's folded weights: from the tree when fine-tuned, else from the zoo checkpoint it names (checksum checked). */
function backboneWeights(manifest: TreeManifest, own: Map<string, NamedArray>, treeId: string): WeightMap {
  const weights: WeightMap = new Map();
  if (manifest.backbone.fineTuned) {
    for (const [name, a] of own) if (name.startsWith("backbone/")) weights.set(name.slice("backbone/".length), tf.variable(tf.tensor(a.data, a.shape), false));
    return weights;
  }
  let zoo;
  try {
    zoo = readCheckpoint(manifest.backbone.checkpoint, zooDir());
  } catch (err) {
    throw new TreeCheckpointError(`tree "${treeId}": its backbone ${manifest.backbone.checkpoint} cannot be read: ${(err as Error).message}`);
  }
  if (zoo.manifest.weightsSha256 !== manifest.backbone.weightsSha256)
    throw new TreeCheckpointError(`tree "${treeId}" was trained on another version of ${manifest.backbone.checkpoint} (checksum differs)`);
  for (const a of zoo.arrays) weights.set(a.name, tf.variable(tf.tensor(a.data, a.shape), false));
  return weights;
}

/** Build a ProtoTree from a manifest and its arrays (the loader and tests share it). */
export function treeFromArrays(manifest: TreeManifest, arrays: Map<string, NamedArray>, backbone: WeightMap): ProtoTree {
  const get = (name: string) => {
    const a = arrays.get(name);
    if (!a) throw new TreeCheckpointError(`tree ${manifest.name}: weight ${name} is missing`);
    return a;
  };
  const P = numPrototypesOf(manifest.depth);
  const C = manifest.classNames.length;
  const protos = get("prototypes");
  const leaves = get("leaves");
  if (protos.shape[0] !== P || protos.shape[1] !== manifest.protoDim)
    throw new TreeCheckpointError(`tree ${manifest.name}: prototypes are ${protos.shape.join("×")}, expected ${P}×${manifest.protoDim}`);
  if (leaves.data.length !== (P + 1) * C) throw new TreeCheckpointError(`tree ${manifest.name}: ${leaves.data.length / C} leaves, expected ${P + 1}`);
  const kernel = get("addon/kernel");
  const bias = get("addon/bias");
  return {
    manifest,
    depth: manifest.depth,
    numClasses: C,
    numPrototypes: P,
    numLeaves: P + 1,
    backbone: makeBackbone(backbone, manifest.backbone.archConfig, manifest.backbone.layer),
    addOnKernel: tf.variable(tf.tensor(kernel.data, kernel.shape), false),
    addOnBias: tf.variable(tf.tensor(bias.data, bias.shape), false),
    prototypes: tf.variable(tf.tensor(protos.data, protos.shape), false),
    leafLogits: Float32Array.from(leaves.data),
    full: completeTree(manifest.depth),
    pruned: structureFromJson(manifest.pruned),
    projections: manifest.projections,
  };
}

/** Load a ProtoTree by id with the caller's visibility; TreeNotFoundError / TreeCheckpointError. */
export function openTree(treeId: string, caller: TreeCaller | null | undefined): ProtoTree {
  const { ref, manifest } = readTreeManifest(treeId, caller);
  if (manifest.category !== PROTOTREE_CATEGORY) throw new TreeCheckpointError(`tree "${treeId}" is a ${String(manifest.category)} tree, not a ProtoTree`);
  return openTreeDir(ref.dir, treeId);
}

/** Load the ProtoTree in a directory (no visibility check: callers resolve the id first). */
export function openTreeDir(dir: string, label = dir): ProtoTree {
  const file = path.join(dir, MANIFEST_FILE);
  if (!fs.existsSync(file)) throw new TreeCheckpointError(`tree "${label}": no ${MANIFEST_FILE} in ${dir}`);
  const manifest = JSON.parse(fs.readFileSync(file, "utf8")) as TreeManifest;
  if (manifest.format !== "metarank-prototree/1") throw new TreeCheckpointError(`tree "${label}" has unknown format "${String(manifest.format)}"`);
  const arrays = readWeights(dir, manifest, label);
  const backbone = backboneWeights(manifest, arrays, label);
  return treeFromArrays(manifest, arrays, backbone);
}

/** Arrays of a tree in storage order (the backbone's only when fine-tuned). */
export function treeArrays(tree: ProtoTree): NamedArray[] {
  const arr = (name: string, v: tf.Tensor): NamedArray => ({ name, shape: v.shape, data: Float32Array.from(v.dataSync()) });
  const out = [
    arr("addon/kernel", tree.addOnKernel),
    arr("addon/bias", tree.addOnBias),
    arr("prototypes", tree.prototypes),
    { name: "leaves", shape: [tree.numLeaves, tree.numClasses], data: Float32Array.from(tree.leafLogits) },
  ];
  if (tree.manifest.backbone.fineTuned) for (const [name, v] of tree.backbone.weights) out.push(arr(`backbone/${name}`, v));
  return out;
}

/** Write a tree into `dir` atomically (temp sibling + rename); `dir` must not exist. Returns the manifest written. */
export function writeTreeDir(dir: string, tree: ProtoTree, patch: Partial<TreeManifest> = {}): TreeManifest {
  const arrays = treeArrays(tree);
  const total = arrays.reduce((s, a) => s + a.data.length, 0);
  const buf = Buffer.alloc(total * 4);
  let offset = 0;
  for (const a of arrays) {
    for (let i = 0; i < a.data.length; i++) buf.writeFloatLE(a.data[i], offset + i * 4);
    offset += a.data.length * 4;
  }
  const manifest: TreeManifest = {
    ...tree.manifest,
    ...patch,
    pruned: structureToJson(tree.pruned),
    projections: tree.projections,
    weightsFile: WEIGHTS_FILE,
    weightsSha256: crypto.createHash("sha256").update(buf).digest("hex"),
    weights: arrays.map((a) => ({ name: a.name, shape: a.shape })),
  };
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const tmp = `${dir}.tmp-${process.pid}-${crypto.randomBytes(4).toString("hex")}`;
  fs.mkdirSync(tmp);
  try {
    fs.writeFileSync(path.join(tmp, WEIGHTS_FILE), buf);
    fs.writeFileSync(path.join(tmp, MANIFEST_FILE), JSON.stringify(manifest, null, 1) + "\n");
    // renameSync onto an existing directory fails (ENOTEMPTY/EEXIST): a name is never overwritten.
    fs.renameSync(tmp, dir);
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOTEMPTY" || code === "EEXIST") throw new TreeExistsError(dir);
    throw err;
  }
  tree.manifest = manifest;
  return manifest;
}

/** Save a tree as `owner`'s tree `name`; returns its id. TreeExistsError when the name is taken. */
export function saveTree(tree: ProtoTree, owner: string, name: string): string {
  if (!validTreeName(name)) throw new Error(`tree name "${name}" must be 1–64 letters, digits, '-', '_' or '.'`);
  if (!OWNER_PATTERN.test(owner)) throw new Error(`owner "${owner}" cannot name a tree folder`);
  const id = userTreeId(owner, name);
  const dir = path.join(userTreeRoot(), owner, name);
  if (fs.existsSync(dir)) throw new TreeExistsError(id);
  writeTreeDir(dir, tree, { name, owner });
  return id;
}

/** Write a platform tree (training command). */
export function savePlatformTree(tree: ProtoTree, id: string, dir = platformTreeDir()): string {
  writeTreeDir(path.join(dir, id), tree, { name: id, owner: "" });
  return platformTreeId(id);
}
