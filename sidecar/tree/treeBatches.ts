// Mini-batches of a ProtoTree's training and testing (trainProtoTree.ts): a dataset's image rows,
// and the backbone's features of a subset, computed once when the backbone is frozen.
import * as tf from "@tensorflow/tfjs";
import type { ImageDataset } from "../data/dataset.ts";
import type { BatchRows } from "./dataParallel.ts";

/** Latent features of the backbone for a set of images, computed once when the backbone is frozen. */
export class FeatureCache {
  private data: Float32Array | null = null;
  shape: [number, number, number] = [0, 0, 0];
  constructor(
    private ds: ImageDataset,
    private indices: Int32Array,
  ) {}
  fill(forward: (x: tf.Tensor4D) => tf.Tensor4D, check: () => void): void {
    const n = this.indices.length;
    for (let s = 0; s < n; s += 128) {
      check();
      const idx = this.indices.subarray(s, Math.min(n, s + 128));
      const f = tf.tidy(() => forward(imagesOf(this.ds, idx)));
      const [, h, w, c] = f.shape;
      if (!this.data) {
        this.shape = [h, w, c];
        this.data = new Float32Array(n * h * w * c);
      }
      this.data.set(f.dataSync(), s * h * w * c);
      f.dispose();
    }
  }
  /** Features of positions `pos` (into `indices`), as rows [n, h, w, c]. */
  rows(pos: ArrayLike<number>): BatchRows {
    const [h, w, c] = this.shape;
    const m = h * w * c;
    const buf = new Float32Array(pos.length * m);
    for (let i = 0; i < pos.length; i++) buf.set(this.data!.subarray(pos[i] * m, (pos[i] + 1) * m), i * m);
    return { data: buf, shape: [pos.length, h, w, c] };
  }
  batch(pos: ArrayLike<number>): tf.Tensor4D {
    const r = this.rows(pos);
    return tf.tensor4d(r.data, r.shape);
  }
}

export function imagesOf(ds: ImageDataset, idx: ArrayLike<number>): tf.Tensor4D {
  const r = imageRows(ds, idx);
  return tf.tensor4d(r.data, r.shape);
}

export function imageRows(ds: ImageDataset, idx: ArrayLike<number>): BatchRows {
  const n = ds.height * ds.width * ds.channels;
  const buf = new Float32Array(idx.length * n);
  for (let b = 0; b < idx.length; b++) buf.set(ds.images.subarray(idx[b] * n, (idx[b] + 1) * n), b * n);
  return { data: buf, shape: [idx.length, ds.height, ds.width, ds.channels] };
}
