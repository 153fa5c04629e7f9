// Suite kits for download (docs/suite-kit.md): the sidecar builds a suite's kit, because it
// holds the checkpoints and the data (the app may run on another host); this module keeps one
// copy per suite version in var/kits/<suite>-<key>.zip and hands the route a finished file.
// A kit is streamed from the sidecar into a temporary file, fsynced and renamed into place, so
// a reader never sees a half-written kit; concurrent requests for the same kit share one build.
// The key comes from the sidecar (Kits.Describe, cheap: manifests and suite.json only), so a new
// suite version or retrained network gives a new file and older ones of the suite are removed.
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
const KEY = /^[0-9a-f]{64}$/;
/** A build streams a few MB; one that takes longer than this is stuck. */
const BUILD_DEADLINE_MS = 10 * 60_000;
/** A kit is far below this; a sidecar sending more is refused rather than filling the disk. */
export const KIT_MAX_BYTES = 2 * 1024 ** 3;

export interface CachedKit {
  suiteId: string;
  key: string;
  file: string;
  size: number;
  /** Whether this request found the kit already on disk. */
  cached: boolean;
}

const builds = new Map<string, Promise<CachedKit>>();

const kitFile = (suiteId: string, key: string) => path.join(kitDir(), `${suiteId}-${key}.zip`);

/** The suite's current kit, built (once, whoever asks) if it is not cached yet. Throws SidecarCallError. */
export async function suiteKit(suiteId: string): Promise<CachedKit> {
  if (!KIT_SUITE_ID.test(suiteId) || suiteId.includes("..")) throw new RangeError(`not a suite id: ${suiteId}`);
  // One sidecar answers both calls, so the key it describes is the kit it builds.
  const target = await pickSidecar();
  const header = await unary(rpc().kits.Describe, { suiteId }, { address: target, deadlineMs: 30_000 });
  if (!KEY.test(header.key)) throw new Error(`the sidecar described kit ${suiteId} with a malformed key`);
  const file = kitFile(suiteId, header.key);
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (stat?.isFile()) return { suiteId, key: header.key, file, size: stat.size, cached: true };
  const id = `${suiteId}-${header.key}`;
  let build = builds.get(id);
  if (!build) {
    build = buildKit(suiteId, header.key, target).finally(() => builds.delete(id));
    builds.set(id, build);
  }
  return { ...(await build), cached: false };
}

async function buildKit(suiteId: string, key: string, target: Awaited<ReturnType<typeof pickSidecar>>): Promise<CachedKit> {
  const dir = kitDir();
  fs.mkdirSync(dir, { recursive: true });
  const file = kitFile(suiteId, key);
  const tmp = path.join(dir, `.${suiteId}-${key}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.partial`);
  const fd = fs.openSync(tmp, "wx", 0o644);
  let bytes = 0;
  let builtKey = "";
  const started = Date.now();
  try {
    await serverStream(
      rpc().kits.Build,
      { suiteId },
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
  removeOlderKits(suiteId, file);
  logger("kits").info({ suite: suiteId, key: key.slice(0, 20), bytes, ms: Date.now() - started }, "kit built and cached");
  return { suiteId, key, file, size: bytes, cached: false };
}

/** Kits of earlier versions of the suite (another key): no request will ask for them again. */
function removeOlderKits(suiteId: string, keep: string): void {
  const pattern = new RegExp(`^${suiteId.replace(/[.]/g, "\\.")}-[0-9a-f]{64}\\.zip$`);
  for (const name of fs.readdirSync(kitDir())) {
    const full = path.join(kitDir(), name);
    // A download still reading an old file keeps its open descriptor; unlinking is safe.
    if (pattern.test(name) && full !== keep) fs.rmSync(full, { force: true });
  }
}
