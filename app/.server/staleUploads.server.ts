// Uploads streamed to disk land as `<random>.part` files in the upload dir's incoming/ folder
// (uploads.server.ts) until their action moves or deletes them. A web process killed during an
// upload leaves its file behind with no row to own it (docs/security.md "Files"), so the app
// sweeps them: at start, once more when the grace has passed (a file too young at start may
// still be an upload another app process is receiving), then every 10 minutes.
import fs from "node:fs/promises";
import path from "node:path";
import { logger } from "./logger.server.ts";

/**
 * A `.part` file not written for this long belongs to no upload in progress: a body that is
 * still arriving writes to its file many times a second (UPLOAD_PART_GRACE_MS, default 60 s).
 */
export function partGraceMs(env: Record<string, string | undefined> = process.env): number {
  const n = env.UPLOAD_PART_GRACE_MS ? Number(env.UPLOAD_PART_GRACE_MS) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : 60_000;
}

const SWEEP_EVERY_MS = 10 * 60_000;

/** Removes the `.part` files in `dir` last written more than `graceMs` ago; returns their names. */
export async function sweepStaleParts(dir: string, graceMs = partGraceMs(), now = Date.now()): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException)?.code === "ENOENT") return [];
    throw e;
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.endsWith(".part")) continue;
    const file = path.join(dir, name);
    const stat = await fs.stat(file).catch(() => null);
    if (!stat?.isFile() || now - stat.mtimeMs <= graceMs) continue;
    await fs.rm(file, { force: true });
    removed.push(name);
  }
  return removed;
}

let timers: NodeJS.Timeout[] = [];

/** Sweeps now, after the grace, and every 10 minutes (timers that never keep the process up). */
export async function startPartSweeps(dir: string): Promise<void> {
  const log = logger("uploads");
  const sweep = async () => {
    try {
      const removed = await sweepStaleParts(dir);
      if (removed.length) log.info({ dir, removed: removed.length }, "removed uploads a stopped process left unfinished (.part)");
    } catch (err) {
      log.warn({ err: (err as Error).message, dir }, "could not sweep unfinished uploads");
    }
  };
  await sweep();
  stopPartSweeps();
  timers = [setTimeout(sweep, partGraceMs() + 1000), setInterval(sweep, SWEEP_EVERY_MS)];
  for (const t of timers) t.unref();
}

export function stopPartSweeps(): void {
  for (const t of timers) clearTimeout(t);
  timers = [];
}
