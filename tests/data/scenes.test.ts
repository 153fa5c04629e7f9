// The generated scenes dataset: deterministic, classes balanced enough to learn,
// masks that cover the object, and train/test splits that never share an image.
import { describe, expect, it } from "vitest";
import { SCENE_CLASSES, generateScenes, generateScenesSplit, renderScene } from "../../sidecar/data/scenes.ts";

describe("scenes", () => {
  const { train, test } = generateScenes({ trainSize: 300, testSize: 60 });

  it("is identical on every generation from the same seed", () => {
    const again = generateScenesSplit("train", 300);
    expect(Buffer.from(again.images.buffer).equals(Buffer.from(train.images.buffer))).toBe(true);
    expect(Array.from(again.labels)).toEqual(Array.from(train.labels));
    const other = generateScenesSplit("train", 5, 7);
    expect(Buffer.from(other.images.buffer).equals(Buffer.from(train.images.buffer, 0, other.images.byteLength))).toBe(false);
  });

  it("has every class, RGB 32×32 images in [0, 1], and a non-trivial mask per image", () => {
    expect(train.classNames).toEqual([...SCENE_CLASSES]);
    expect([train.height, train.width, train.channels]).toEqual([32, 32, 3]);
    const counts = new Array(SCENE_CLASSES.length).fill(0);
    for (const l of train.labels) counts[l]++;
    for (const c of counts) expect(c).toBeGreaterThan(300 / SCENE_CLASSES.length / 2);
    expect(train.images.every((v) => v >= 0 && v <= 1)).toBe(true);
    for (let i = 0; i < train.size; i++) {
      let area = 0;
      for (let p = 0; p < 1024; p++) area += train.masks![i * 1024 + p];
      expect(area).toBeGreaterThan(30); // radius ≥ 7 px
      expect(area).toBeLessThan(600);
    }
  });

  it("keeps train and test images apart", () => {
    const seen = new Set<string>();
    for (let i = 0; i < train.size; i++) seen.add(Buffer.from(train.images.buffer, i * 3072 * 4, 64).toString("hex"));
    for (let i = 0; i < test.size; i++) expect(seen.has(Buffer.from(test.images.buffer, i * 3072 * 4, 64).toString("hex"))).toBe(false);
  });

  it("draws the object where its mask is: masked pixels differ from the background around them", () => {
    const s = renderScene(20240611, 0, 3);
    let inside = 0,
      n = 0;
    for (let p = 0; p < 1024; p++)
      if (s.mask[p]) {
        inside += s.pixels[p * 3] + s.pixels[p * 3 + 1] + s.pixels[p * 3 + 2];
        n++;
      }
    let outside = 0,
      m = 0;
    for (let p = 0; p < 1024; p++)
      if (!s.mask[p]) {
        outside += s.pixels[p * 3] + s.pixels[p * 3 + 1] + s.pixels[p * 3 + 2];
        m++;
      }
    expect(Math.abs(inside / n - outside / m)).toBeGreaterThan(0.1);
  });
});
