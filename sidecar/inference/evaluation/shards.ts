// Finished (method × task) shards of an evaluation, kept on disk so that a regeneration killed
// half-way continues where it stopped instead of starting over. A shard is named by a fingerprint
// of everything its numbers depend on — the suite's protocol settings, the task's checkpoint (its
// weights' SHA-256), the method and its parameters, the number of images and the tensor backend —
// so a changed input never reuses a stale result: it simply has another name. Each shard is written
// to a temporary file and renamed, so a kill during the write leaves no half shard behind.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { TaskSummary } from "./engine.ts";
import type { TaskImages } from "./resultFiles.ts";
import { pinnedCheckpoint, type SuiteConfig } from "./suite.ts";
import { taskCheckpoint } from "./taskCheckpoints.ts";
import { checkpointDir } from "../../zoo/checkpoint.ts";

/** Bump when what a shard holds, or how its numbers are computed, changes. */
const SHARD_FORMAT = 1;

export interface Shard {
  summary: TaskSummary;
  perImage: TaskImages;
}

export interface ShardSpec {
  suite: SuiteConfig;
  task: string;
  algorithm: string;
  params: Record<string, unknown>;
  images: number;
  backend: string;
}

/** JSON with object keys sorted, so equal parameters give one fingerprint whatever their order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

export function shardFingerprint(spec: ShardSpec): string {
  const inputs = {
    format: SHARD_FORMAT,
    suite: spec.suite.id,
    settings: spec.suite.settings,
    task: spec.task,
    checkpoint: taskCheckpoint(spec.task, checkpointDir(), pinnedCheckpoint(spec.suite, spec.task)),
    algorithm: spec.algorithm,
    params: spec.params,
    images: spec.images,
    backend: spec.backend,
  };
  return crypto.createHash("sha256").update(canonical(inputs)).digest("hex").slice(0, 32);
}

export class ShardStore {
  constructor(readonly dir: string) {}

  private file(spec: ShardSpec): string {
    const safe = (s: string) => s.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 60);
    return path.join(this.dir, `${safe(spec.algorithm)}__${safe(spec.task)}__${shardFingerprint(spec)}.json`);
  }

  /** The finished shard, or null (never run, or run with other inputs). An unreadable file counts as not run. */
  get(spec: ShardSpec): Shard | null {
    try {
      const shard = JSON.parse(fs.readFileSync(this.file(spec), "utf8")) as Shard;
      return shard.summary && shard.perImage ? shard : null;
    } catch {
      return null;
    }
  }

  put(spec: ShardSpec, shard: Shard): void {
    fs.mkdirSync(this.dir, { recursive: true });
    const file = this.file(spec);
    const tmp = `${file}.${process.pid}.tmp`;
    // JSON keeps every float64 exactly (shortest round-trip form), so a resumed run writes the
    // same bytes as an uninterrupted one.
    fs.writeFileSync(tmp, JSON.stringify(shard));
    fs.renameSync(tmp, file);
  }

  /** How many finished shards the folder holds (for the "resuming: N done" line). */
  count(): number {
    try {
      return fs.readdirSync(this.dir).filter((f) => f.endsWith(".json")).length;
    } catch {
      return 0;
    }
  }

  clear(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** What a committed method folder's images.json holds (run.ts, writeMethodFolder). */
interface CommittedImages {
  suite?: string;
  algorithm?: string;
  params?: unknown;
  backend?: string;
  images?: number;
  settings?: unknown;
  checkpoints?: Record<string, { id: string; weightsSha256: string }>;
  tasks?: Record<string, TaskImages>;
}

const committedCache = new Map<string, { mtimeMs: number; images: CommittedImages | null; localisation: Record<string, number | null> }>();

function readCommitted(folder: string): { images: CommittedImages | null; localisation: Record<string, number | null> } {
  const file = path.join(folder, "images.json");
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch {
    return { images: null, localisation: {} };
  }
  const hit = committedCache.get(folder);
  if (hit && hit.mtimeMs === mtimeMs) return hit;
  let images: CommittedImages | null = null;
  let localisation: Record<string, number | null> = {};
  try {
    images = JSON.parse(fs.readFileSync(file, "utf8")) as CommittedImages;
    const loc = path.join(folder, "localisation.json");
    if (fs.existsSync(loc)) localisation = JSON.parse(fs.readFileSync(loc, "utf8")) as Record<string, number | null>;
  } catch {
    images = null;
  }
  const entry = { mtimeMs, images, localisation };
  committedCache.set(folder, entry);
  return entry;
}

/**
 * One method × task of a suite's committed baseline folder, as a shard — but only when the
 * folder's images.json records exactly the inputs `spec` fingerprints: the suite, the method and
 * its parameters, the protocol settings, the number of images, the backend and the task's
 * checkpoint (id and weights' SHA-256, against the checkpoint the suite pins now). Anything else
 * gives null, and the task is evaluated again. This is what lets a board be regenerated after
 * retraining one network by evaluating only that network's task (`--reuse-suite`): the committed
 * files are what the same command wrote, and an evaluation is deterministic on one backend
 * (tests/evaluation/reproduce.test.ts re-runs a slice and gets the same bytes).
 *
 * The accuracies are recomputed from the per-image outcomes exactly as `summarise` computes them
 * (correct images / images, per grid point). The mean localisation is the committed
 * localisation.json figure: the files keep it to 6 decimals, which is all the written files show.
 */
export function committedShard(folder: string, spec: ShardSpec): Shard | null {
  const { images: rec, localisation } = readCommitted(folder);
  if (!rec || rec.suite !== spec.suite.id || rec.algorithm !== spec.algorithm || rec.backend !== spec.backend || rec.images !== spec.images) return null;
  if (canonical(rec.params ?? {}) !== canonical(spec.params) || canonical(rec.settings) !== canonical(spec.suite.settings)) return null;
  const recorded = rec.checkpoints?.[spec.task];
  if (!recorded) return null;
  let current: { id: string; weightsSha256: string };
  try {
    current = taskCheckpoint(spec.task, checkpointDir(), pinnedCheckpoint(spec.suite, spec.task));
  } catch {
    return null;
  }
  if (recorded.id !== current.id || recorded.weightsSha256 !== current.weightsSha256) return null;
  const perImage = rec.tasks?.[spec.task];
  const grid = spec.suite.settings.grid.length;
  const wellFormed = (rows: unknown): rows is string[] =>
    Array.isArray(rows) && rows.length === spec.images && rows.every((r) => typeof r === "string" && r.length === grid && /^[01]*$/.test(r));
  if (!perImage || !wellFormed(perImage.morf) || !wellFormed(perImage.lerf)) return null;
  const n = spec.images;
  const accuracy = (rows: string[]) => Array.from({ length: grid }, (_, g) => (n === 0 ? 0 : rows.reduce((s, r) => s + (r[g] === "1" ? 1 : 0), 0) / n));
  const summary: TaskSummary = { images: n, morf: accuracy(perImage.morf), lerf: accuracy(perImage.lerf) };
  if (perImage.localisation !== undefined) {
    if (!(spec.task in localisation)) return null;
    summary.localisation = localisation[spec.task];
  }
  return { summary, perImage };
}
