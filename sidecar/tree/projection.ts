// Projection of a trained ProtoTree's prototypes onto training patches (the reference's
// project.py), and the crop of such a patch the task page shows.
import * as tf from "@tensorflow/tfjs";
import type { ImageDataset } from "../data/dataset.ts";
import type { FloatImage } from "../data/png.ts";
import { addOn, allowedClasses, patchDistances, type Projection, type ProtoTree } from "./protoTree.ts";

/**
 * Projection as project.py project_with_class_constraints: each prototype becomes the latent
 * patch, over the training images whose label is the argmax class of some leaf below its node,
 * that is nearest to it (strictly nearer replaces; the first of equals is kept); the image and the
 * cell are recorded. Nodes of the pruned tree take their leaves there, removed nodes in the full tree.
 * `features(pos)` returns backbone features of training subset positions; `indices[pos]` is the
 * position's index in the train split, `labels` the split's labels.
 */
export function projectPrototypes(
  tree: ProtoTree,
  features: (pos: number[]) => tf.Tensor4D,
  indices: Int32Array,
  labels: Int32Array,
  check: () => void = () => {},
  onProgress: (f: number) => void = () => {},
): void {
  const P = tree.numPrototypes;
  const D = tree.manifest.protoDim;
  const allowed = Array.from({ length: P }, (_, h) => allowedClasses(tree, tree.pruned.children.has(h) ? tree.pruned : tree.full, h));
  const best = new Float64Array(P).fill(Infinity);
  const bestPatch = new Float32Array(P * D);
  const proj: Array<Projection | null> = new Array(P).fill(null);
  const n = indices.length;
  for (let s = 0; s < n; s += 64) {
    check();
    const pos = Array.from({ length: Math.min(64, n - s) }, (_, i) => s + i);
    const { z, dist, shape } = tf.tidy(() => {
      const zz = addOn(tree, features(pos));
      const d = patchDistances(zz, tree.prototypes as tf.Tensor2D);
      return { z: zz.dataSync() as Float32Array, dist: d.dataSync() as Float32Array, shape: zz.shape };
    });
    const [, h, w] = shape;
    const HW = h * w;
    for (let i = 0; i < pos.length; i++) {
      const label = labels[indices[pos[i]]];
      for (let p = 0; p < P; p++) {
        if (!allowed[p].has(label)) continue;
        for (let q = 0; q < HW; q++) {
          const d = dist[(i * HW + q) * P + p];
          if (d < best[p]) {
            best[p] = d;
            bestPatch.set(z.subarray((i * HW + q) * D, (i * HW + q + 1) * D), p * D);
            proj[p] = { sample: indices[pos[i]], label, row: Math.floor(q / w), col: q % w, distance: d };
          }
        }
      }
    }
    onProgress((s + pos.length) / n);
  }
  // A prototype no allowed image reached keeps its trained vector (and no projection record).
  const current = tree.prototypes.dataSync() as Float32Array;
  const next = Float32Array.from(current);
  for (let p = 0; p < P; p++) if (proj[p]) next.set(bestPatch.subarray(p * D, (p + 1) * D), p * D);
  tree.prototypes.assign(tf.tensor2d(next, [P, D]));
  tree.projections = proj;
}

/** The crop of a latent cell's pixel box, upscaled ×4 for display. */
export function patchCrop(ds: ImageDataset, index: number, box: { top: number; left: number; height: number; width: number }, scale = 4): FloatImage {
  const C = ds.channels;
  const base = index * ds.height * ds.width * C;
  const H = box.height * scale,
    W = box.width * scale;
  const data = new Float32Array(H * W * C);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++)
      for (let c = 0; c < C; c++)
        data[(y * W + x) * C + c] = ds.images[base + ((box.top + Math.floor(y / scale)) * ds.width + box.left + Math.floor(x / scale)) * C + c];
  return { height: H, width: W, channels: C, data };
}
