// The .npy reader and writer against files written by NumPy itself (Debian's python3-numpy,
// as a researcher's script would write them): every header version, float32 and float16,
// and the clear refusals (dtype, byte order, Fortran order, truncation, not an .npy).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NpyError, parseNpyHeader, readNpy, writeNpy } from "../../sidecar/inference/evaluation/npy.ts";

let dir: string;

/** Runs a numpy snippet with `d` bound to the test folder; `ref` is a 2×3×4 array of distinct values. */
function numpy(code: string): void {
  const script = `import numpy as np, numpy.lib.format as fmt\nd = ${JSON.stringify(dir)}\nref = (np.arange(24, dtype=np.float64).reshape(2, 3, 4) - 7.25) / 3\n${code}\n`;
  execFileSync("python3", ["-c", script], { stdio: ["ignore", "pipe", "pipe"] });
}
const file = (name: string) => new Uint8Array(fs.readFileSync(path.join(dir, name)));
const REF = Float32Array.from({ length: 24 }, (_, k) => (k - 7.25) / 3);

function npyError(fn: () => unknown): NpyError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(NpyError);
    return err as NpyError;
  }
  throw new Error("expected an NpyError");
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "npy-test-"));
  numpy(`
np.save(f"{d}/f4.npy", ref.astype(np.float32))
np.save(f"{d}/f2.npy", ref.astype(np.float16))
for v in [(1, 0), (2, 0), (3, 0)]:
    with open(f"{d}/v{v[0]}.npy", "wb") as f:
        fmt.write_array(f, ref.astype(np.float32), version=v)
np.save(f"{d}/scalar.npy", np.float32(2.5))
np.save(f"{d}/empty.npy", np.zeros((0, 28, 28), dtype=np.float32))
np.save(f"{d}/fortran.npy", np.asfortranarray(ref.astype(np.float32)))
np.save(f"{d}/big.npy", ref.astype(">f4"))
np.save(f"{d}/i8.npy", np.arange(6, dtype=np.int64))
np.save(f"{d}/f8.npy", ref)
np.save(f"{d}/u1.npy", np.zeros(3, dtype=np.uint8))
np.save(f"{d}/bool.npy", np.zeros(3, dtype=bool))
np.save(f"{d}/structured.npy", np.zeros(3, dtype=[("a", "<f4"), ("b", "<i4")]))
np.save(f"{d}/special.npy", np.array([np.nan, np.inf, -np.inf, -0.0, 65504, 6e-8], dtype=np.float16))
`);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("reading .npy files numpy wrote", () => {
  it("float32 in C order, the values exact", () => {
    const { header, data } = readNpy(file("f4.npy"));
    expect(header).toMatchObject({ version: "1.0", descr: "<f4", dtype: "float32", shape: [2, 3, 4], dataBytes: 96 });
    expect(header.dataOffset % 16).toBe(0);
    expect(Array.from(data)).toEqual(Array.from(REF));
  });

  it("float16 widened to float32 (exactly the half values numpy holds)", () => {
    const { header, data } = readNpy(file("f2.npy"));
    expect(header).toMatchObject({ descr: "<f2", dtype: "float16", shape: [2, 3, 4], dataBytes: 48 });
    for (let k = 0; k < 24; k++) expect(Math.abs(data[k] - REF[k])).toBeLessThanOrEqual(Math.abs(REF[k]) * 2 ** -10);
    const special = readNpy(file("special.npy")).data;
    expect(Number.isNaN(special[0])).toBe(true);
    expect(Array.from(special.slice(1, 5))).toEqual([Infinity, -Infinity, -0, 65504]);
    expect(special[5]).toBeCloseTo(6e-8, 9);
  });

  it("header versions 1.0, 2.0 and 3.0 give the same array", () => {
    for (const v of [1, 2, 3]) {
      const { header, data } = readNpy(file(`v${v}.npy`));
      expect(header.version).toBe(`${v}.0`);
      expect(header.dataOffset % 64).toBe(0);
      expect(Array.from(data)).toEqual(Array.from(REF));
    }
  });

  it("a 0-d array and an empty array", () => {
    expect(readNpy(file("scalar.npy"))).toMatchObject({ header: { shape: [] }, data: Float32Array.from([2.5]) });
    expect(readNpy(file("empty.npy")).header.shape).toEqual([0, 28, 28]);
  });

  it("the header alone from the first bytes, without the data", () => {
    const bytes = file("f4.npy");
    const header = parseNpyHeader(bytes.subarray(0, 128));
    expect(header.shape).toEqual([2, 3, 4]);
    expect(npyError(() => parseNpyHeader(bytes.subarray(0, 60))).problem).toBe("truncated");
  });
});

describe("refusals say what is wrong", () => {
  it("dtypes other than float32/float16, named as numpy names them", () => {
    const cases: Array<[string, string]> = [
      ["i8.npy", "expected float32 or float16, got int64 ('<i8')"],
      ["f8.npy", "expected float32 or float16, got float64 ('<f8')"],
      ["u1.npy", "expected float32 or float16, got uint8 ('|u1')"],
      ["bool.npy", "expected float32 or float16, got bool ('|b1')"],
    ];
    for (const [name, msg] of cases) {
      const err = npyError(() => readNpy(file(name)));
      expect(err.problem).toBe("dtype");
      expect(err.message).toContain(msg);
      expect(err.message).toContain("astype(numpy.float32)");
    }
    expect(npyError(() => readNpy(file("structured.npy"))).message).toMatch(/structured array/);
  });

  it("big-endian and Fortran order", () => {
    const big = npyError(() => readNpy(file("big.npy")));
    expect([big.problem, big.message]).toEqual(["byte-order", expect.stringContaining("big-endian ('>f4')")]);
    const fortran = npyError(() => readNpy(file("fortran.npy")));
    expect(fortran.problem).toBe("fortran-order");
    expect(fortran.message).toContain("ascontiguousarray");
  });

  it("truncated data, extra bytes, not an .npy at all, an unknown version", () => {
    const bytes = file("f4.npy");
    const short = npyError(() => readNpy(bytes.subarray(0, bytes.length - 4)));
    expect([short.problem, short.message]).toEqual(["size", expect.stringMatching(/holds 92 bytes .* needs 96: the file is truncated/)]);
    const long = new Uint8Array(bytes.length + 4);
    long.set(bytes);
    expect(npyError(() => readNpy(long)).message).toContain("longer than its header says");
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    expect(npyError(() => parseNpyHeader(png))).toMatchObject({ problem: "not-npy", message: expect.stringContaining("numpy.save") });
    const v9 = bytes.slice();
    v9[6] = 9;
    expect(npyError(() => parseNpyHeader(v9))).toMatchObject({ problem: "version", message: expect.stringContaining("9.0") });
    const garbled = bytes.slice();
    garbled.set(new TextEncoder().encode("{'descr' '<f4'"), 10);
    expect(npyError(() => parseNpyHeader(garbled)).problem).toBe("header");
  });
});

describe("writing", () => {
  it("numpy.load reads what writeNpy wrote, values and shape", () => {
    const data = Float32Array.from({ length: 2 * 5 * 3 }, (_, k) => Math.fround(Math.sin(k) * 1e3));
    const bytes = writeNpy(data, [2, 5, 3]);
    expect(parseNpyHeader(bytes).dataOffset % 64).toBe(0);
    expect(readNpy(bytes).data).toEqual(data);
    fs.writeFileSync(path.join(dir, "ours.npy"), bytes);
    fs.writeFileSync(path.join(dir, "ours.f32"), Buffer.from(data.buffer));
    numpy(`
a = np.load(f"{d}/ours.npy")
assert a.dtype == np.float32 and a.shape == (2, 5, 3) and a.flags.c_contiguous, (a.dtype, a.shape)
assert (a.ravel() == np.fromfile(f"{d}/ours.f32", dtype="<f4")).all()
`);
    expect(() => writeNpy(data, [2, 5])).toThrow(RangeError);
    expect(readNpy(writeNpy(Float32Array.from([7]), [1])).header.shape).toEqual([1]);
  });
});
