// NumPy's .npy format (numpy.lib.format), read and written without tfjs: researchers save their
// attribution maps with numpy.save in any framework (docs/evaluation.md "Path 2: attribution maps
// from any framework"), and the web app checks an upload's header (parseNpyHeader on the first
// bytes) before queueing it. Supported: header versions 1.0, 2.0 and 3.0; dtypes float32 ('<f4')
// and float16 ('<f2', widened to float32); C order. Everything else is refused with an NpyError
// whose message says what was found and what to change, in a researcher's words.
import { fromHalf } from "../../zoo/half.ts";

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // "\x93NUMPY"
/** numpy.load refuses headers over 10 000 bytes by default; a maps header is ~100 bytes. */
export const MAX_HEADER_BYTES = 10_000;
/** Bytes that always hold the whole header of an acceptable file (prefix + MAX_HEADER_BYTES). */
export const NPY_HEADER_PREFIX_BYTES = 12 + MAX_HEADER_BYTES;

export type NpyProblem = "not-npy" | "version" | "truncated" | "header" | "dtype" | "byte-order" | "fortran-order" | "shape" | "size";

/** A file that is not an .npy this reader accepts; `problem` says which check failed. */
export class NpyError extends Error {
  constructor(
    readonly problem: NpyProblem,
    message: string,
  ) {
    super(message);
    this.name = "NpyError";
  }
}

export type NpyDtype = "float32" | "float16";

export interface NpyHeader {
  /** "1.0", "2.0" or "3.0". */
  version: string;
  /** As written in the file, e.g. "<f4". */
  descr: string;
  dtype: NpyDtype;
  shape: number[];
  /** Offset of the first data byte (a multiple of 16, or 64 in numpy ≥ 1.x writers). */
  dataOffset: number;
  /** Bytes of data the shape and dtype call for. */
  dataBytes: number;
}

export interface NpyArray {
  header: NpyHeader;
  /** Values in C order, widened to float32. */
  data: Float32Array;
}

const ITEM_BYTES: Record<NpyDtype, number> = { float32: 4, float16: 2 };

/** numpy's names for the dtype codes a researcher is likely to save by mistake. */
const KIND_NAMES: Record<string, string> = {
  f: "float",
  i: "int",
  u: "uint",
  c: "complex",
  b: "bool",
  U: "unicode string",
  S: "byte string",
  O: "Python object",
  M: "datetime",
  m: "timedelta",
  V: "raw bytes",
};

function describeDescr(descr: string): string {
  const m = /^([<>|=]?)([a-zA-Z])(\d*)/.exec(descr);
  if (!m) return `'${descr}'`;
  const [, , kind, size] = m;
  const name = KIND_NAMES[kind];
  if (!name) return `'${descr}'`;
  if (kind === "b") return `bool ('${descr}')`;
  if ("fiuc".includes(kind) && size) return `${name}${Number(size) * 8} ('${descr}')`;
  return `${name} ('${descr}')`;
}

/** The few Python literals an .npy header dict uses: strings, ints, True/False/None, tuples, lists, dicts. */
type PyValue = string | number | boolean | null | PyValue[] | { [k: string]: PyValue };

function parsePyLiteral(text: string): PyValue {
  let i = 0;
  const fail = (what: string): never => {
    throw new NpyError("header", `the .npy header is not a valid Python dictionary (${what} at character ${i}): ${JSON.stringify(text.slice(0, 200))}`);
  };
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const value = (): PyValue => {
    ws();
    const ch = text[i];
    if (ch === "'" || ch === '"') {
      const end = text.indexOf(ch, i + 1);
      if (end < 0) fail("unterminated string");
      const s = text.slice(i + 1, end);
      i = end + 1;
      return s;
    }
    if (ch === "(" || ch === "[") {
      const close = ch === "(" ? ")" : "]";
      i++;
      const items: PyValue[] = [];
      for (;;) {
        ws();
        if (text[i] === close) {
          i++;
          return items;
        }
        items.push(value());
        ws();
        if (text[i] === ",") i++;
        else if (text[i] !== close) fail(`expected "," or "${close}"`);
      }
    }
    if (ch === "{") {
      i++;
      const obj: Record<string, PyValue> = {};
      for (;;) {
        ws();
        if (text[i] === "}") {
          i++;
          return obj;
        }
        const key = value();
        if (typeof key !== "string") fail("a key that is not a string");
        ws();
        if (text[i] !== ":") fail('expected ":"');
        i++;
        obj[key as string] = value();
        ws();
        if (text[i] === ",") i++;
        else if (text[i] !== "}") fail('expected "," or "}"');
      }
    }
    const word = /^(-?\d+L?|True|False|None)/.exec(text.slice(i));
    if (!word) return fail("unexpected text");
    i += word[0].length;
    if (word[0] === "True") return true;
    if (word[0] === "False") return false;
    if (word[0] === "None") return null;
    return Number(word[0].replace("L", ""));
  };
  const v = value();
  ws();
  if (i !== text.length) fail("text after the dictionary");
  return v;
}

/**
 * Reads and checks an .npy header. `bytes` may be the first bytes of a file only: the header
 * must be complete (NPY_HEADER_PREFIX_BYTES always suffice), the data need not be present.
 */
export function parseNpyHeader(bytes: Uint8Array): NpyHeader {
  if (bytes.length < MAGIC.length || MAGIC.some((b, k) => bytes[k] !== b)) {
    throw new NpyError("not-npy", "not a NumPy .npy file (it does not start with \\x93NUMPY); save each task's maps with numpy.save(path, maps)");
  }
  if (bytes.length < 10) throw new NpyError("truncated", "the .npy file ends inside its header");
  const major = bytes[6];
  const minor = bytes[7];
  if (![1, 2, 3].includes(major) || minor !== 0) {
    throw new NpyError("version", `unsupported .npy format version ${major}.${minor} (this reader knows 1.0, 2.0 and 3.0)`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const prefix = major === 1 ? 10 : 12;
  if (bytes.length < prefix) throw new NpyError("truncated", "the .npy file ends inside its header");
  const headerLen = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  if (headerLen > MAX_HEADER_BYTES) {
    throw new NpyError("header", `the .npy header is ${headerLen} bytes long, more than the ${MAX_HEADER_BYTES} allowed (numpy.load's own limit)`);
  }
  if (bytes.length < prefix + headerLen) {
    throw new NpyError("truncated", `the .npy file ends inside its header (${bytes.length} bytes, the header needs ${prefix + headerLen})`);
  }
  const raw = bytes.subarray(prefix, prefix + headerLen);
  // Versions 1 and 2 are latin-1 (ASCII in practice); 3 is UTF-8 (structured field names).
  const text = (major === 3 ? new TextDecoder("utf-8") : new TextDecoder("latin1")).decode(raw).trim();
  const dict = parsePyLiteral(text);
  if (dict === null || typeof dict !== "object" || Array.isArray(dict)) throw new NpyError("header", "the .npy header is not a dictionary");
  const { descr, fortran_order: fortran, shape } = dict as Record<string, PyValue>;
  if (typeof descr !== "string") {
    throw new NpyError("dtype", "expected float32 or float16, got a structured array (several named fields); save a plain array of maps");
  }
  if (descr === ">f4" || descr === ">f2") {
    throw new NpyError("byte-order", `the maps are big-endian ('${descr}'); save them little-endian: maps.astype('<f4')`);
  }
  const dtype: NpyDtype | undefined = descr === "<f4" ? "float32" : descr === "<f2" ? "float16" : undefined;
  if (!dtype) {
    throw new NpyError("dtype", `expected float32 or float16, got ${describeDescr(descr)}; convert with maps.astype(numpy.float32)`);
  }
  if (typeof fortran !== "boolean") throw new NpyError("header", "the .npy header has no fortran_order True/False");
  if (fortran) {
    throw new NpyError(
      "fortran-order",
      "the maps are stored in Fortran (column-major) order; save them in C order: numpy.save(path, numpy.ascontiguousarray(maps))",
    );
  }
  if (!Array.isArray(shape) || shape.some((d) => typeof d !== "number" || !Number.isSafeInteger(d) || d < 0)) {
    throw new NpyError("shape", `the .npy header's shape is not a tuple of sizes: ${JSON.stringify(shape)}`);
  }
  const dims = shape as number[];
  const count = dims.reduce((a, b) => a * b, 1);
  if (!Number.isSafeInteger(count * ITEM_BYTES[dtype])) throw new NpyError("shape", `the shape (${dims.join(", ")}) is too large`);
  return { version: `${major}.0`, descr, dtype, shape: dims, dataOffset: prefix + headerLen, dataBytes: count * ITEM_BYTES[dtype] };
}

/** Reads a whole .npy file into float32 values (float16 is widened). */
export function readNpy(bytes: Uint8Array): NpyArray {
  const header = parseNpyHeader(bytes);
  const have = bytes.length - header.dataOffset;
  if (have !== header.dataBytes) {
    throw new NpyError(
      "size",
      `the .npy file holds ${have} bytes of data but its shape (${header.shape.join(", ")}) of ${header.dtype} needs ${header.dataBytes}: the file is ${have < header.dataBytes ? "truncated" : "longer than its header says"}`,
    );
  }
  const n = header.dataBytes / ITEM_BYTES[header.dtype];
  const body = bytes.subarray(header.dataOffset);
  const data = new Float32Array(n);
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  if (header.dtype === "float32") {
    for (let k = 0; k < n; k++) data[k] = view.getFloat32(4 * k, true);
  } else {
    for (let k = 0; k < n; k++) data[k] = fromHalf(view.getUint16(2 * k, true));
  }
  return { header, data };
}

/** An .npy file (format 1.0, '<f4', C order) holding `data` with `shape`, as numpy.save writes it. */
export function writeNpy(data: Float32Array, shape: readonly number[]): Uint8Array {
  const count = shape.reduce((a, b) => a * b, 1);
  if (shape.some((d) => !Number.isSafeInteger(d) || d < 0) || count !== data.length) {
    throw new RangeError(`shape (${shape.join(", ")}) does not hold ${data.length} values`);
  }
  const tuple = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(", ")})`;
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': ${tuple}, }`;
  // numpy pads with spaces and ends with "\n" so the data starts at a multiple of 64.
  const total = Math.ceil((10 + header.length + 1) / 64) * 64;
  header = header.padEnd(total - 10 - 1, " ") + "\n";
  if (header.length > 0xffff) throw new RangeError("shape too long for an .npy 1.0 header");
  const out = new Uint8Array(total + 4 * count);
  out.set(MAGIC, 0);
  out[6] = 1;
  out[7] = 0;
  const view = new DataView(out.buffer);
  view.setUint16(8, header.length, true);
  for (let k = 0; k < header.length; k++) out[10 + k] = header.charCodeAt(k);
  for (let k = 0; k < count; k++) view.setFloat32(total + 4 * k, data[k], true);
  return out;
}
