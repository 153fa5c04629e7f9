// IDX reader (the MNIST / Fashion-MNIST container format: a big-endian header
// giving element type and dimensions, then the raw values). Files may be gzipped,
// as Debian's dataset-fashion-mnist ships them.
import fs from "node:fs";
import zlib from "node:zlib";
import { DatasetFormatError } from "./dataset.ts";

export interface IdxArray {
  dims: number[];
  data: Uint8Array;
}

/** Gunzip when the bytes start with the gzip magic, otherwise return them as they are. */
export function maybeGunzip(bytes: Uint8Array, file: string): Uint8Array {
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      return zlib.gunzipSync(bytes);
    } catch (err) {
      throw new DatasetFormatError(`${file}: gzip data is damaged (${(err as Error).message})`);
    }
  }
  return bytes;
}

/** Parse an unsigned-byte IDX file (type code 0x08), the only type (Fashion-)MNIST uses. */
export function parseIdx(raw: Uint8Array, file = "IDX data"): IdxArray {
  const bytes = maybeGunzip(raw, file);
  if (bytes.length < 4 || bytes[0] !== 0 || bytes[1] !== 0) {
    throw new DatasetFormatError(`${file}: not an IDX file (bad magic number)`);
  }
  if (bytes[2] !== 0x08) {
    throw new DatasetFormatError(`${file}: IDX element type 0x${bytes[2].toString(16)} is not supported (only unsigned bytes, 0x08)`);
  }
  const rank = bytes[3];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 4 + 4 * rank) throw new DatasetFormatError(`${file}: IDX header is truncated`);
  const dims: number[] = [];
  for (let i = 0; i < rank; i++) dims.push(view.getUint32(4 + 4 * i, false));
  const count = dims.reduce((a, b) => a * b, 1);
  const start = 4 + 4 * rank;
  if (bytes.length - start !== count) {
    throw new DatasetFormatError(`${file}: header promises ${count} values (${dims.join("×")}) but the file holds ${bytes.length - start}`);
  }
  return { dims, data: bytes.subarray(start) };
}

export function readIdxFile(file: string): IdxArray {
  if (!fs.existsSync(file)) throw new DatasetFormatError(`${file}: file not found`);
  return parseIdx(fs.readFileSync(file), file);
}
