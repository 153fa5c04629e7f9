// What the gradient graphs need to know about a forward graph and onnxruntime does not say:
// the shape of every value at the model's fixed input size, and the contents of the small
// integer or float values that parametrise operators (Slice bounds, Resize scales, Reshape
// targets). Rather than re-implement ONNX shape inference for every operator, the forward graph
// runs once with every value as an output, on two images: a batch of two tells the batch axis
// apart from axes of size one, so broadcasting in the backward pass is read off, not guessed.
import { Rng } from "../data/prng.ts";
import { decodeModel, encodeModel, type OnnxModel } from "./onnxModel.ts";
import { createSession, ort } from "./runtime.ts";

export interface ProbedValue {
  dims: number[];
  type: string;
  /** The contents, for values of at most SMALL elements (parameters, not activations). */
  values?: number[];
}
export type Probe = Map<string, ProbedValue>;

/** Values up to this many elements are kept in full. */
const SMALL = 64;
export const PROBE_BATCH = 2;

/**
 * The model with its input's batch axis made symbolic ("N"): PyTorch's export without
 * dynamic_axes fixes it to 1, and the engine runs batches. Reshape targets that name the batch
 * as a constant 1 are rewritten to 0 ("keep the input's dim") by batchFreeReshapes once probed.
 */
export function withSymbolicBatch(model: OnnxModel, input: string): OnnxModel {
  const vi = model.graph.input.find((v) => v.name === input);
  const dim = vi?.type?.tensorType?.shape?.dim;
  if (dim && dim.length > 0) dim[0] = { dimParam: "N" };
  for (const out of model.graph.output) {
    const d = out.type?.tensorType?.shape?.dim;
    if (d && d.length > 0 && d[0].dimValue !== undefined) d[0] = { dimParam: "N" };
  }
  return model;
}

function seededImage(count: number): Float32Array {
  const rng = new Rng(12345);
  return Float32Array.from({ length: count }, () => rng.float());
}

/**
 * Runs `model` (already batch-symbolic) on PROBE_BATCH seeded images of shape [C, H, W] and
 * returns every node output's shape, with small values' contents. The caller's model is not
 * changed (a copy gets the extra outputs).
 */
export async function probeModel(bytes: Uint8Array, input: string, chw: readonly number[]): Promise<Probe> {
  const copy = decodeModel(bytes);
  const declared = new Set(copy.graph.output.map((o) => o.name));
  for (const n of copy.graph.node) {
    for (const o of n.output) if (o && !declared.has(o)) copy.graph.output.push({ name: o });
  }
  const session = await createSession(encodeModel(copy), { provider: "cpu" });
  try {
    const dims = [PROBE_BATCH, ...chw];
    const feeds = { [input]: new ort.Tensor("float32", seededImage(dims.reduce((a, b) => a * b, 1)), dims) };
    const results = await session.run(feeds);
    const probe: Probe = new Map();
    for (const [name, t] of Object.entries(results)) {
      const v: ProbedValue = { dims: [...t.dims], type: t.type };
      if (t.size <= SMALL && t.type !== "string") v.values = Array.from(t.data as ArrayLike<number | bigint>, Number);
      probe.set(name, v);
      t.dispose?.();
    }
    probe.set(input, { dims, type: "float32" });
    return probe;
  } finally {
    await session.release();
  }
}
