// Writes NumPy's .npy format (version 1.0, little-endian float32 '<f4', C order): what
// numpy.load, PyTorch (via numpy) and TensorFlow read without any other library, and the float
// values are exact, which PNG cannot be for the scenes' non-8-bit pixels. Spec:
// numpy.lib.format — magic "\x93NUMPY", version 1.0, a little-endian uint16 header length, then
// an ASCII dict padded with spaces and ended by "\n" so that the data starts on a 64-byte boundary.
const MAGIC = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 0x01, 0x00]);
const ALIGN = 64;

/** The header (magic, version, length and dict) of a float32 C-order array of `shape`. */
export function npyHeader(shape: readonly number[]): Buffer {
  if (shape.some((d) => !Number.isInteger(d) || d < 0)) throw new RangeError(`npy shape must be whole numbers ≥ 0, got [${shape.join(", ")}]`);
  // Python's tuple repr: a one-element tuple keeps its trailing comma.
  const tuple = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(", ")})`;
  const dict = `{'descr': '<f4', 'fortran_order': False, 'shape': ${tuple}, }`;
  const unpadded = MAGIC.length + 2 + dict.length + 1;
  const total = Math.ceil(unpadded / ALIGN) * ALIGN;
  const headerLength = total - MAGIC.length - 2;
  if (headerLength > 0xffff) throw new RangeError("npy header too long for format version 1.0");
  const out = Buffer.alloc(total, 0x20);
  MAGIC.copy(out, 0);
  out.writeUInt16LE(headerLength, MAGIC.length);
  out.write(dict, MAGIC.length + 2, "latin1");
  out[total - 1] = 0x0a;
  return out;
}

/** A whole .npy file holding `data` (row-major) as float32 of `shape`. */
export function npyFloat32(shape: readonly number[], data: Float32Array): Buffer {
  const count = shape.reduce((a, b) => a * b, 1);
  if (count !== data.length) throw new RangeError(`npy shape [${shape.join(", ")}] holds ${count} values, got ${data.length}`);
  const header = npyHeader(shape);
  const out = Buffer.alloc(header.length + data.length * 4);
  header.copy(out, 0);
  // Explicit little-endian writes: the bytes are '<f4' on any host.
  for (let i = 0; i < data.length; i++) out.writeFloatLE(data[i], header.length + i * 4);
  return out;
}
