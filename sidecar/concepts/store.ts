// Trained CAVs kept on disk, shared by every worker thread of the sidecar and kept across restarts:
// a CAV depends only on (model, layer, concept examples, random examples, classifier options,
// seed), all in its key, so it is trained once and reused (docs/concepts.md "Service and caching").
// One file per CAV, written to a temporary name and renamed, so a reader never sees half a file.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Cav } from "./cav.ts";
import type { CavStore } from "./tcav.ts";

export const cavCacheDir = () => path.resolve(process.env.CAV_CACHE_DIR ?? "var/cavs");

export function diskCavStore(dir = cavCacheDir()): CavStore {
  const file = (key: string) => path.join(dir, crypto.createHash("sha256").update(key).digest("hex") + ".cav");
  return {
    get(key) {
      let buf: Buffer;
      try {
        buf = fs.readFileSync(file(key));
      } catch {
        return undefined;
      }
      if (buf.length < 8 || buf.length % 4) return undefined;
      const f = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
      return { accuracy: f[0], epochs: f[1], vector: f.slice(2) };
    },
    set(key, cav: Cav) {
      fs.mkdirSync(dir, { recursive: true });
      const f = new Float32Array(cav.vector.length + 2);
      f[0] = cav.accuracy;
      f[1] = cav.epochs;
      f.set(cav.vector, 2);
      const target = file(key);
      const tmp = `${target}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`;
      fs.writeFileSync(tmp, Buffer.from(f.buffer));
      fs.renameSync(tmp, target);
    },
  };
}
