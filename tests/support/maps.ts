// Attribution maps as a researcher uploads them for a verified evaluation (docs/evaluation.md):
// one zip with a `<task>.npy` (float32, N×H×W) per task of the 12-case suite.
import fs from "node:fs";
import path from "node:path";
import yazl from "yazl";
import { ROOT } from "./stack.ts";

/** A .npy (version 1.0, little-endian float32) of the given shape. */
export function npy(shape: number[]): Buffer {
  const n = shape.reduce((a, b) => a * b, 1);
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(", ")},), }`;
  header += " ".repeat(64 - ((10 + header.length + 1) % 64)) + "\n";
  const head = Buffer.alloc(10);
  head.write("\x93NUMPY", 0, "latin1");
  head.writeUInt8(1, 6);
  head.writeUInt8(0, 7);
  head.writeUInt16LE(header.length, 8);
  const data = new Float32Array(n).map((_, i) => (i % 13) / 13);
  return Buffer.concat([head, Buffer.from(header, "latin1"), Buffer.from(data.buffer)]);
}

/** A maps zip for the 12-case suite metarank-local-v1: every task's N×H×W maps. */
export async function mapsZip(): Promise<Buffer> {
  const suite = JSON.parse(fs.readFileSync(path.join(ROOT, "seeds/suites/metarank-local-v1/suite.json"), "utf8")) as {
    tasks: string[];
    evaluation: { images: number };
  };
  const zip = new yazl.ZipFile();
  for (const task of suite.tasks) {
    const side = task.startsWith("fashionmnist") ? 28 : 32;
    zip.addBuffer(npy([suite.evaluation.images, side, side]), `${task}.npy`);
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
