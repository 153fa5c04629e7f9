// Training-time augmentation (sidecar/zoo/train.ts copyAugmented): a mirrored and moved copy of
// an image, checked against the answer worked out by hand on a 3×4 image with two channels.
import { describe, expect, it } from "vitest";
import { copyAugmented } from "../../sidecar/zoo/train.ts";
import type { ImageDataset } from "../../sidecar/data/dataset.ts";

// Image 1 of two (image 0 is all −1, so reading the wrong image shows); channel 0 holds
// 10·row + column, channel 1 the negative of it.
const H = 3,
  W = 4,
  C = 2;
const images = new Float32Array(2 * H * W * C).fill(-1);
for (let y = 0; y < H; y++)
  for (let x = 0; x < W; x++) {
    images[H * W * C + (y * W + x) * C] = 10 * y + x;
    images[H * W * C + (y * W + x) * C + 1] = -(10 * y + x);
  }
const ds: ImageDataset = { name: "toy", height: H, width: W, channels: C, classNames: ["a"], size: 2, images, labels: new Int32Array(2) };

/** Channel 0 of the augmented copy of image 1, as rows. */
function rows(flip: boolean, dx: number, dy: number): number[][] {
  const out = new Float32Array(3 + H * W * C).fill(NaN);
  copyAugmented(ds, 1, { flip, dx, dy }, out, 3);
  expect(Array.from(out.subarray(0, 3)).every(Number.isNaN)).toBe(true);
  for (let i = 0; i < H * W; i++) expect(out[3 + i * C + 1]).toBe(-out[3 + i * C]);
  return Array.from({ length: H }, (_, y) => Array.from({ length: W }, (_, x) => out[3 + (y * W + x) * C]));
}

describe("copyAugmented", () => {
  it("copies the image unchanged without flip or shift", () => {
    expect(rows(false, 0, 0)).toEqual([
      [0, 1, 2, 3],
      [10, 11, 12, 13],
      [20, 21, 22, 23],
    ]);
  });
  it("mirrors left-right", () => {
    expect(rows(true, 0, 0)).toEqual([
      [3, 2, 1, 0],
      [13, 12, 11, 10],
      [23, 22, 21, 20],
    ]);
  });
  it("moves right and down, repeating the edge into the uncovered border", () => {
    expect(rows(false, 1, 1)).toEqual([
      [0, 0, 1, 2],
      [0, 0, 1, 2],
      [10, 10, 11, 12],
    ]);
  });
  it("moves left and up by two", () => {
    expect(rows(false, -2, -2)).toEqual([
      [22, 23, 23, 23],
      [22, 23, 23, 23],
      [22, 23, 23, 23],
    ]);
  });
  it("moves the mirrored image", () => {
    expect(rows(true, 1, 0)).toEqual([
      [3, 3, 2, 1],
      [13, 13, 12, 11],
      [23, 23, 22, 21],
    ]);
  });
});
