// The kit's .npy writer against NumPy's format rules (numpy.lib.format, version 1.0) and, where
// Debian's python3-numpy is installed, against numpy.load itself.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { npyFloat32, npyHeader } from "../../sidecar/kit/npyWrite.ts";

function hasNumpy(): boolean {
  try {
    execFileSync("python3", ["-c", "import numpy"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe("npy writer", () => {
  it("writes magic, version 1.0, a 64-byte-aligned header and little-endian float32 data", () => {
    const data = new Float32Array([0, 0.5, -1.25, 1 / 3, 7, 1e-8]);
    const buf = npyFloat32([2, 3], data);
    expect([...buf.subarray(0, 8)]).toEqual([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
    const headerLength = buf.readUInt16LE(8);
    expect((10 + headerLength) % 64).toBe(0);
    const header = buf.subarray(10, 10 + headerLength).toString("latin1");
    expect(header).toMatch(/^\{'descr': '<f4', 'fortran_order': False, 'shape': \(2, 3\), \} *\n$/);
    const values = Array.from({ length: 6 }, (_, i) => buf.readFloatLE(10 + headerLength + i * 4));
    expect(values).toEqual(Array.from(data));
  });

  it("writes a one-element tuple with its comma and refuses a shape that does not hold the data", () => {
    expect(npyHeader([5]).toString("latin1")).toContain("'shape': (5,)");
    expect(() => npyFloat32([2, 2], new Float32Array(3))).toThrow(/holds 4 values, got 3/);
    expect(() => npyHeader([2, -1])).toThrow(/whole numbers/);
  });

  it.skipIf(!hasNumpy())("is read back exactly by numpy.load", () => {
    const data = new Float32Array(2 * 4 * 4 * 3).map((_, i) => Math.fround(Math.sin(i) / 3));
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "npy-")), "x.npy");
    fs.writeFileSync(file, npyFloat32([2, 4, 4, 3], data));
    const out = execFileSync(
      "python3",
      [
        "-c",
        `import numpy as np, sys; a = np.load(sys.argv[1]); print(a.dtype, a.shape, a.flags['C_CONTIGUOUS']); print(' '.join(repr(float(v)) for v in a.ravel()))`,
        file,
      ],
      { encoding: "utf8" },
    );
    const [meta, values] = out.trim().split("\n");
    expect(meta).toBe("float32 (2, 4, 4, 3) True");
    expect(values.split(" ").map(Number)).toEqual(Array.from(data));
    fs.rmSync(path.dirname(file), { recursive: true });
  });
});
