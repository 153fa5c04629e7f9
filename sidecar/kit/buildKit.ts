// A suite kit: one zip with everything a researcher needs to compute attribution maps for a
// suite outside this platform — the suite file, and per task the exact evaluation images and
// labels the engine uses (tasks.ts evaluationImages, in its order), the model in the platform's
// checkpoint format and exported to ONNX (zoo/onnx/export.ts). The zip is written as a stream
// (yazl): each task's large entries (images.npy, PNGs, model.onnx, weights) are produced only
// when the zip writer reaches them, so a kit is never held in memory whole. The same suite
// version gives the same bytes (fixed timestamps and order), and its cache key is a hash of
// what decides those bytes: suite.json, each task's checkpoint weights and KIT_FORMAT. A task's
// kit (one dataset/model pair of the suite) is the same zip with that task's files only.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PassThrough, type Readable } from "node:stream";
import { PNG } from "pngjs";
import yazl from "yazl";
import type { ImageDataset } from "../data/dataset.ts";
import { splitImages } from "../inference/evaluation/runRules.ts";
import { pinnedCheckpoint, readSuite, resolveSuiteDir, type SuiteConfig } from "../inference/evaluation/suite.ts";
import { TaskUnavailableError, splitTaskId, taskManifest } from "../inference/evaluation/taskCheckpoints.ts";
import { evaluationImages } from "../inference/evaluation/tasks.ts";
import { CheckpointError, checkpointDir, type CheckpointManifest } from "../zoo/checkpoint.ts";
import { exportCheckpoint } from "../zoo/onnx/export.ts";
import { npyFloat32 } from "./npyWrite.ts";
import { kitReadme } from "./readme.ts";

/** Bumped whenever the kit's layout or any entry's encoding changes: it is part of the cache key. */
export const KIT_FORMAT = "metarank-kit/1";
/**
 * Every entry's timestamp. yazl writes DOS timestamps from the Date's local-time fields, so a
 * Date built from local fields gives the same bytes in every time zone (and forceDosTimestamp
 * leaves out the UTC extra field, which would not).
 */
const ENTRY_MTIME = new Date(2024, 0, 1, 0, 0, 0);
const ENTRY_OPTIONS = { mtime: ENTRY_MTIME, forceDosTimestamp: true, compress: true } as const;

/** A suite whose kit cannot be built here (no data or checkpoint for a task); the message says which. */
export class KitUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KitUnavailableError";
  }
}

export interface KitTask {
  id: string;
  dataset: string;
  checkpoint: CheckpointManifest;
}

export interface KitPlan {
  suite: SuiteConfig;
  /** The one task this kit holds, or null for the whole suite's kit. */
  task: string | null;
  /** suite.json exactly as the suite folder holds it. */
  suiteJson: Buffer;
  /** Evaluation images per task (the suite's split size, as the engine uses it). */
  images: number;
  tasks: KitTask[];
  /** Hex SHA-256 of KIT_FORMAT, suite.json, each task's checkpoint (id and weights hash) and, for a task's kit, the task. */
  key: string;
}

/**
 * The kit's cache key: changes when suite.json, any task's weights, or the kit format change. A
 * task's kit is keyed on its task too (the whole kit's key is what it always was), so it never
 * shares a key with the whole kit or with another task's.
 */
export function kitKey(suiteJson: Buffer, tasks: Array<{ id: string; checkpointId: string; weightsSha256: string }>, task: string | null = null): string {
  const h = crypto.createHash("sha256");
  h.update(`${KIT_FORMAT}\n`);
  if (task !== null) h.update(`task ${task}\n`);
  h.update(suiteJson);
  for (const t of tasks) h.update(`\n${t.id} ${t.checkpointId} ${t.weightsSha256}`);
  return h.digest("hex");
}

/**
 * Reads the suite and its tasks' manifests (not the weights): cheap enough for every download
 * request. With `task`, the plan of that one task's kit (it needs only that task's data and
 * checkpoint here); a task the suite does not have is refused.
 */
export function planKit(suiteIdOrPath: string, dir = checkpointDir(), task: string | null = null): KitPlan {
  const suite = readSuite(suiteIdOrPath);
  const suiteJson = fs.readFileSync(path.join(resolveSuiteDir(suiteIdOrPath), "suite.json"));
  if (task !== null && !suite.tasks.includes(task))
    throw new KitUnavailableError(`suite "${suite.id}" has no task "${task.slice(0, 64)}"; its tasks: ${suite.tasks.join(", ")}`);
  const wanted = task === null ? suite.tasks : [task];
  const problems: string[] = [];
  const tasks: KitTask[] = [];
  for (const id of wanted) {
    try {
      const { dataset } = splitTaskId(id);
      tasks.push({ id, dataset, checkpoint: taskManifest(id, dir, pinnedCheckpoint(suite, id)) });
    } catch (err) {
      if (!(err instanceof TaskUnavailableError || err instanceof CheckpointError)) throw err;
      problems.push(`${id}: ${err.message}`);
    }
  }
  if (problems.length)
    throw new KitUnavailableError(
      task === null
        ? `suite "${suite.id}" has ${problems.length} of ${suite.tasks.length} task(s) without data or a checkpoint on this server, so its kit cannot be built: ${problems.slice(0, 3).join("; ")}${problems.length > 3 ? "; …" : ""}`
        : `task "${task}" of suite "${suite.id}" has no data or checkpoint on this server, so its kit cannot be built: ${problems[0]}`,
    );
  const key = kitKey(
    suiteJson,
    tasks.map((t) => ({ id: t.id, checkpointId: t.checkpoint.id, weightsSha256: t.checkpoint.weightsSha256 })),
    task,
  );
  return { suite, task, suiteJson, images: splitImages(suite), tasks, key };
}

/** 8-bit PNG of one image (grey for 1 channel, RGB for 3), values rounded from [0, 1]. */
export function imagePng(ds: ImageDataset, index: number): Buffer {
  const { height, width, channels } = ds;
  if (channels !== 1 && channels !== 3) throw new KitUnavailableError(`${ds.name}: ${channels}-channel images cannot be written as PNG`);
  const n = height * width * channels;
  const bytes = Buffer.alloc(n);
  for (let i = 0; i < n; i++) bytes[i] = Math.round(Math.min(1, Math.max(0, ds.images[index * n + i])) * 255);
  const colorType = channels === 1 ? 0 : 2;
  const png = new PNG({ width, height, colorType, inputColorType: colorType, inputHasAlpha: false, bitDepth: 8 });
  png.data = bytes;
  return PNG.sync.write(png, { colorType, inputColorType: colorType, inputHasAlpha: false, bitDepth: 8 });
}

/** labels.csv: the image's index in the kit order, its class index (the target) and class name. */
export function labelsCsv(ds: ImageDataset): string {
  const quote = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const lines = ["index,label,class"];
  for (let i = 0; i < ds.size; i++) lines.push(`${i},${ds.labels[i]},${quote(ds.classNames[ds.labels[i]] ?? "")}`);
  return lines.join("\n") + "\n";
}

export const pngName = (index: number) => `${String(index).padStart(5, "0")}.png`;

function bufferStream(make: () => Buffer): (cb: (err: Error | null, stream: NodeJS.ReadableStream) => void) => void {
  return (cb) => {
    let data: Buffer;
    try {
      data = make();
    } catch (err) {
      cb(err as Error, new PassThrough());
      return;
    }
    const s = new PassThrough();
    s.end(data);
    cb(null, s);
  };
}

/** The checkpoint's weights file, refused unless it is the one its manifest's hash names. */
function verifiedWeights(m: CheckpointManifest, dir: string): Buffer {
  const buf = fs.readFileSync(path.join(dir, path.basename(m.weightsFile)));
  if (crypto.createHash("sha256").update(buf).digest("hex") !== m.weightsSha256)
    throw new KitUnavailableError(`checkpoint ${m.id}: weights file does not match its manifest's checksum`);
  return buf;
}

export interface KitStreamOptions {
  /** Checkpoint folder (default: CHECKPOINT_DIR or the zoo's). */
  dir?: string;
}

/**
 * Starts writing the kit; returns the zip's byte stream. Task data is read here (so an
 * unreadable dataset fails before the first byte); the large entries are made lazily.
 */
export function kitStream(plan: KitPlan, opts: KitStreamOptions = {}): Readable {
  const dir = opts.dir ?? checkpointDir();
  const zip = new yazl.ZipFile();
  const splits = plan.tasks.map((t) => {
    const ds = evaluationImages(t.dataset, plan.images);
    if (ds.classNames.length !== t.checkpoint.classNames.length)
      throw new KitUnavailableError(`${t.id}: the checkpoint has ${t.checkpoint.classNames.length} classes, the dataset ${ds.classNames.length}`);
    const [h, w, c] = t.checkpoint.inputShape;
    if (ds.height !== h || ds.width !== w || ds.channels !== c)
      throw new KitUnavailableError(`${t.id}: the images are ${ds.height}×${ds.width}×${ds.channels}, the model takes ${h}×${w}×${c}`);
    return ds;
  });
  const add = (name: string, data: Buffer | string) => zip.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data, "utf8"), name, ENTRY_OPTIONS);
  const addLazy = (name: string, make: () => Buffer) => zip.addReadStreamLazy(name, ENTRY_OPTIONS, bufferStream(make));
  add("suite.json", plan.suiteJson);
  add("README.md", kitReadme(plan, splits));
  plan.tasks.forEach((t, ti) => {
    const ds = splits[ti];
    const base = `tasks/${t.id}`;
    add(`${base}/labels.csv`, labelsCsv(ds));
    addLazy(`${base}/images.npy`, () => npyFloat32([ds.size, ds.height, ds.width, ds.channels], ds.images));
    for (let i = 0; i < ds.size; i++) addLazy(`${base}/images/${pngName(i)}`, () => imagePng(ds, i));
    addLazy(`${base}/model.onnx`, () => Buffer.from(exportCheckpoint(t.checkpoint.id, dir)));
    add(`${base}/checkpoint/${t.checkpoint.id}.json`, fs.readFileSync(path.join(dir, `${t.checkpoint.id}.json`)));
    addLazy(`${base}/checkpoint/${path.basename(t.checkpoint.weightsFile)}`, () => verifiedWeights(t.checkpoint, dir));
  });
  zip.end();
  // yazl reports a failed lazy entry as an "error" on the ZipFile; pass it to the byte stream's reader.
  const out = zip.outputStream as Readable;
  zip.on("error", (err: Error) => out.destroy(err));
  return out;
}

/** Writes the kit (or one task's, with `task`) to `outFile` (through a temporary file renamed at the end); returns its key and size. */
export async function writeKitFile(
  suiteIdOrPath: string,
  outFile: string,
  dir?: string,
  task: string | null = null,
): Promise<{ plan: KitPlan; bytes: number }> {
  const plan = planKit(suiteIdOrPath, dir, task);
  const tmp = `${outFile}.${process.pid}.partial`;
  try {
    const stream = kitStream(plan, { dir });
    const { pipeline } = await import("node:stream/promises");
    await pipeline(stream, fs.createWriteStream(tmp));
    fs.renameSync(tmp, outFile);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  return { plan, bytes: fs.statSync(outFile).size };
}
