// The 64-pixel scenes (sidecar/data/scenes64.ts): deterministic, every class, masks on the
// object, more clutter than the 32-pixel scenes, and the 32-pixel scenes unchanged by the
// layout parameters they now share (the committed metarank-local-v1 numbers depend on them).
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { SCENE_CLASSES, generateScenesSplit } from "../../sidecar/data/scenes.ts";
import { SCENES64_SIZE, generateScenes64Split } from "../../sidecar/data/scenes64.ts";
import type { ImageDataset } from "../../sidecar/data/dataset.ts";

const hash = (d: ImageDataset) =>
  crypto.createHash("sha256").update(Buffer.from(d.images.buffer)).update(Buffer.from(d.labels.buffer)).update(Buffer.from(d.masks!.buffer)).digest("hex");

/** Mean absolute difference between horizontally adjacent background pixels: how busy the background is. */
function backgroundBusyness(d: ImageDataset): number {
  const { width: w, height: h } = d;
  let sum = 0,
    n = 0;
  for (let i = 0; i < d.size; i++)
    for (let y = 0; y < h; y++)
      for (let x = 0; x + 1 < w; x++) {
        const p = i * h * w + y * w + x;
        if (d.masks![p] || d.masks![p + 1]) continue;
        for (let c = 0; c < 3; c++) sum += Math.abs(d.images[(p + 1) * 3 + c] - d.images[p * 3 + c]);
        n++;
      }
  return sum / n;
}

describe("scenes64", () => {
  const train = generateScenes64Split("train", 240);
  const test = generateScenes64Split("test", 40);

  it("is the same on every generation, and differs from the 32-pixel scenes' images", () => {
    expect(hash(generateScenes64Split("train", 240))).toBe(hash(train));
    expect([train.height, train.width, train.channels]).toEqual([SCENES64_SIZE, SCENES64_SIZE, 3]);
    expect(train.classNames).toEqual([...SCENE_CLASSES]);
  });

  it("has every class, values in [0, 1], and an object mask of a plausible size", () => {
    const counts = new Array(SCENE_CLASSES.length).fill(0);
    for (const l of train.labels) counts[l]++;
    for (const c of counts) expect(c).toBeGreaterThan(240 / SCENE_CLASSES.length / 2);
    expect(train.images.every((v) => v >= 0 && v <= 1)).toBe(true);
    const px = SCENES64_SIZE * SCENES64_SIZE;
    for (let i = 0; i < train.size; i++) {
      let area = 0;
      for (let p = 0; p < px; p++) area += train.masks![i * px + p];
      expect(area).toBeGreaterThan(60); // radius ≥ 9 px: a ring of radius 9 covers about 190
      expect(area).toBeLessThan(0.3 * px);
    }
  });

  it("keeps train and test apart", () => {
    const seen = new Set<string>();
    const n = SCENES64_SIZE * SCENES64_SIZE * 3 * 4;
    for (let i = 0; i < train.size; i++) seen.add(Buffer.from(train.images.buffer, i * n, 256).toString("hex"));
    for (let i = 0; i < test.size; i++) expect(seen.has(Buffer.from(test.images.buffer, i * n, 256).toString("hex"))).toBe(false);
  });

  it("has a busier background than the 32-pixel scenes (more strokes and dots per pixel)", () => {
    expect(backgroundBusyness(train)).toBeGreaterThan(1.3 * backgroundBusyness(generateScenesSplit("train", 240)));
  });

  it("leaves the 32-pixel scenes exactly as they were generated before the layout became a parameter", () => {
    // SHA-256 of the first 50 test scenes (pixels, labels, masks) as commit 2783879 generated them.
    expect(hash(generateScenesSplit("test", 50))).toBe("16a7be6356e6e16d0fcc282cb5d90d1f15e3cc1481961eba93fc6cad87efe416");
  });
});
