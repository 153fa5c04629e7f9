// The in-memory shape every dataset reader returns. Images are NHWC float32 in
// [0, 1] so training, attribution and heatmaps all read them the same way,
// whatever file format they came from.
export interface ImageDataset {
  /** Short name, e.g. "fashion-mnist/test". */
  name: string;
  height: number;
  width: number;
  channels: number;
  classNames: string[];
  /** Number of images. */
  size: number;
  /** size × height × width × channels values in [0, 1], row-major NHWC. */
  images: Float32Array;
  /** One class index per image. */
  labels: Int32Array;
  /** Optional ground-truth object mask, size × height × width, 1 on the object. */
  masks?: Uint8Array;
}

export interface DatasetSplits {
  train: ImageDataset;
  test: ImageDataset;
}

/** A reader met a file it cannot use; the message names the file and what is wrong. */
export class DatasetFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DatasetFormatError";
  }
}

/** Pixels of one image as a fresh Float32Array (H × W × C). */
export function imageAt(ds: ImageDataset, index: number): Float32Array {
  if (index < 0 || index >= ds.size) throw new RangeError(`image ${index} outside 0..${ds.size - 1} of ${ds.name}`);
  const n = ds.height * ds.width * ds.channels;
  return ds.images.slice(index * n, (index + 1) * n);
}

/** The first `count` images (or all of them) as a new dataset sharing nothing with the source. */
export function takeFirst(ds: ImageDataset, count: number): ImageDataset {
  const size = Math.min(count, ds.size);
  const n = ds.height * ds.width * ds.channels;
  return {
    ...ds,
    size,
    images: ds.images.slice(0, size * n),
    labels: ds.labels.slice(0, size),
    masks: ds.masks?.slice(0, size * ds.height * ds.width),
  };
}
