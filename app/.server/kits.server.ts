// Suite kits for download (docs/suite-kit.md): the sidecar builds a suite's kit, because it
// holds the checkpoints and the data (the app may run on another host); this module keeps one
// copy per suite version in var/kits/<suite>-<key>.zip and hands the route a finished file.
// A kit is streamed from the sidecar into a temporary file, fsynced and renamed into place, so
// a reader never sees a half-written kit; concurrent requests for the same kit share one build.
// The key comes from the sidecar (Kits.Describe, cheap: manifests and suite.json only), so a new
// suite version or retrained network gives a new file and older ones of the suite are removed.
// A task's kit (one dataset/model pair) is kept the same way, one file per task of a suite in
// var/kits/tasks/<suite>/<task>-<key>.zip, older keys of the task removed.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pickSidecar, rpc, serverStream, unary } from "./sidecar.server.ts";
import { logger } from "./logger.server.ts";

export function kitDir(): string {
  return path.resolve(process.env.KIT_DIR ?? "var/kits");
}

/** A suite id as the sidecar accepts it: a folder name, never a path. */
export const KIT_SUITE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** A task id as the sidecar accepts it (the route also checks it is one of the suite's tasks). */
export const KIT_TASK_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const KEY = /^[0-9a-f]{64}$/;
/** A build streams a few MB; one that takes longer than this is stuck. */
const BUILD_DEADLINE_MS = 10 * 60_000;
/** A kit is far below this; a sidecar sending more is refused rather than filling the disk. */
export const KIT_MAX_BYTES = 2 * 1024 ** 3;

export interface CachedKit {
  suiteId: string;
  /** The one task the kit holds; null for the whole suite's kit. */
  task: string | null;
  key: string;
  file: string;
  size: number;
  /** Whether this request found the kit already on disk. */
  cached: boolean;
}

const builds = new Map<string, Promise<CachedKit>>();

/** Where a kit is kept: the whole suite's in var/kits, a task's in var/kits/tasks/<suite>/ (a suite id holds no '/'). */
const kitFolder = (suiteId: string, task: string | null) => (task === null ? kitDir() : path.join(kitDir(), "tasks", suiteId));
const kitName = (suiteId: string, task: string | null, key: string) => `${task === null ? suiteId : task}-${key}.zip`;
const kitFile = (suiteId: string, task: string | null, key: string) => path.join(kitFolder(suiteId, task), kitName(suiteId, task, key));

/**
 * The suite's current kit, or with `task` that task's alone, built (once, whoever asks) if it is
 * not cached yet. Throws SidecarCallError.
 */
export async function suiteKit(suiteId: string, task: string | null = null): Promise<CachedKit> {
  if (!KIT_SUITE_ID.test(suiteId) || suiteId.includes("..")) throw new RangeError(`not a suite id: ${suiteId}`);
  if (task !== null && (!KIT_TASK_ID.test(task) || task.includes(".."))) throw new RangeError(`not a task id: ${task}`);
  // One sidecar answers both calls, so the key it describes is the kit it builds.
  const target = await pickSidecar();
  const header = await unary(rpc().kits.Describe, { suiteId, task: task ?? "" }, { address: target, deadlineMs: 30_000 });
  if (!KEY.test(header.key)) throw new Error(`the sidecar described kit ${suiteId} with a malformed key`);
  const file = kitFile(suiteId, task, header.key);
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (stat?.isFile()) return { suiteId, task, key: header.key, file, size: stat.size, cached: true };
  const id = `${suiteId}/${task ?? ""}-${header.key}`;
  let build = builds.get(id);
  if (!build) {
    build = buildKit(suiteId, task, header.key, target).finally(() => builds.delete(id));
    builds.set(id, build);
  }
  return { ...(await build), cached: false };
}

async function buildKit(suiteId: string, task: string | null, key: string, target: Awaited<ReturnType<typeof pickSidecar>>): Promise<CachedKit> {
  const dir = kitFolder(suiteId, task);
  fs.mkdirSync(dir, { recursive: true });
  const file = kitFile(suiteId, task, key);
  const tmp = path.join(dir, `.${kitName(suiteId, task, key)}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.partial`);
  const fd = fs.openSync(tmp, "wx", 0o644);
  let bytes = 0;
  let builtKey = "";
  const started = Date.now();
  try {
    await serverStream(
      rpc().kits.Build,
      { suiteId, task: task ?? "" },
      (m) => {
        if (m.header) {
          builtKey = m.header.key;
          return;
        }
        if (!builtKey) throw new Error("the sidecar sent kit data before its header");
        const data = m.data ?? Buffer.alloc(0);
        bytes += data.length;
        if (bytes > KIT_MAX_BYTES) throw new Error(`kit ${suiteId} exceeds ${KIT_MAX_BYTES} bytes`);
        // Synchronous writes of ≤ 1 MiB messages keep the file in stream order without buffering the kit.
        fs.writeSync(fd, data);
      },
      { address: target, deadlineMs: BUILD_DEADLINE_MS },
    );
    if (builtKey !== key)
      throw new Error(`the sidecar built kit ${builtKey.slice(0, 12)} while describing ${key.slice(0, 12)} (the suite changed meanwhile); try again`);
    if (bytes === 0) throw new Error(`the sidecar sent an empty kit for ${suiteId}`);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(tmp, file);
  } catch (err) {
    try {
      fs.closeSync(fd);
    } catch {
      // Already closed after fsync: the rename failed.
    }
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  removeOlderKits(dir, task ?? suiteId, file);
  logger("kits").info({ suite: suiteId, task: task ?? undefined, key: key.slice(0, 20), bytes, ms: Date.now() - started }, "kit built and cached");
  return { suiteId, task, key, file, size: bytes, cached: false };
}

/** Kits of earlier versions of the suite or task (another key) in its folder: no request will ask for them again. */
function removeOlderKits(dir: string, name: string, keep: string): void {
  const pattern = new RegExp(`^${name.replace(/[.]/g, "\\.")}-[0-9a-f]{64}\\.zip$`);
  for (const entry of fs.readdirSync(dir)) {
    const full = path.join(dir, entry);
    // A download still reading an old file keeps its open descriptor; unlinking is safe.
    if (pattern.test(entry) && full !== keep) fs.rmSync(full, { force: true });
  }
}
