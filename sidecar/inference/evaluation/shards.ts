// Finished (method × task) shards of an evaluation, kept on disk so that a regeneration killed
// half-way continues where it stopped (issue 14 §1: "resumable after an interruption").
// A shard is named by a fingerprint of everything its numbers depend on — the suite's protocol
// settings, the task's checkpoint (its weights' SHA-256), the method and its parameters, the
// number of images and the tensor backend — so a changed input never reuses a stale result: it
// simply has another name. Each shard is written to a temporary file and renamed, so a kill
// during the write leaves no half shard behind.
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
