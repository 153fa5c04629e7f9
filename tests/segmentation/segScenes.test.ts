// The segmentation scenes: deterministic from (seed, split, index), 2–4 objects of the six
// shape classes on a background, masks consistent with the painted objects and the splits apart.
import { describe, expect, it } from "vitest";
import {
  SEG_CLASSES,
  SEG_MAX_OBJECTS,
  SEG_MIN_OBJECTS,
  SEG_SCENES_DEFAULT_SEED,
  classesPresent,
  generateSegScenes,
  renderSegScene,
} from "../../sidecar/data/segScenes.ts";
import { IoUMeter } from "../../sidecar/zoo/segmenter.ts";

describe("segmentation scenes", () => {
  it("renders the same image and mask for the same (seed, split, index), and different ones otherwise", () => {
    const a = renderSegScene(SEG_SCENES_DEFAULT_SEED, 0, 7);
    const b = renderSegScene(SEG_SCENES_DEFAULT_SEED, 0, 7);
    expect(Buffer.from(a.pixels.buffer).equals(Buffer.from(b.pixels.buffer))).toBe(true);
    expect(Buffer.from(a.mask).equals(Buffer.from(b.mask))).toBe(true);
    const otherSplit = renderSegScene(SEG_SCENES_DEFAULT_SEED, 1, 7);
    const otherIndex = renderSegScene(SEG_SCENES_DEFAULT_SEED, 0, 8);
    expect(Buffer.from(otherSplit.pixels.buffer).equals(Buffer.from(a.pixels.buffer))).toBe(false);
    expect(Buffer.from(otherIndex.pixels.buffer).equals(Buffer.from(a.pixels.buffer))).toBe(false);
  });

  it("masks hold background and the painted objects' classes; the top-most object wins", () => {
    let overlapping = 0;
    for (let i = 0; i < 200; i++) {
      const s = renderSegScene(SEG_SCENES_DEFAULT_SEED, 0, i);
      expect(s.objects.length).toBeGreaterThanOrEqual(SEG_MIN_OBJECTS);
      expect(s.objects.length).toBeLessThanOrEqual(SEG_MAX_OBJECTS);
      const painted = new Set(s.objects.map((o) => o.cls));
      // Every labelled class was painted; background is there; values stay within 0..6.
      for (const c of classesPresent(s.mask)) expect(painted.has(c)).toBe(true);
      expect(s.mask.some((v) => v === 0)).toBe(true);
      expect(Math.max(...s.mask)).toBeLessThan(SEG_CLASSES.length);
      // The last object is on top: the pixel nearest its centre carries its class
      // (every shape covers its own centre except the ring, whose centre is a hole).
      const top = s.objects[s.objects.length - 1];
      if (top.cls !== SEG_CLASSES.indexOf("ring")) {
        const x = Math.min(31, Math.max(0, Math.floor(top.cx))),
          y = Math.min(31, Math.max(0, Math.floor(top.cy)));
        expect(s.mask[y * 32 + x]).toBe(top.cls);
      }
      // Overlap: some object's own footprint (by geometry) is partly covered by a later one.
      const covered = s.objects.some((o, k) => s.objects.slice(k + 1).some((p) => Math.hypot(o.cx - p.cx, o.cy - p.cy) < o.radius + p.radius));
      if (covered) overlapping++;
      expect(s.pixels.every((v) => v >= 0 && v <= 1)).toBe(true);
    }
    // The generator is meant to produce overlapping objects often, not by rare accident.
    expect(overlapping).toBeGreaterThan(100);
  });

  it("splits come out with matching images and masks", () => {
    const ds = generateSegScenes("test", 5);
    expect(ds.size).toBe(5);
    expect(ds.images.length).toBe(5 * 32 * 32 * 3);
    expect(ds.masks.length).toBe(5 * 32 * 32);
    const third = renderSegScene(SEG_SCENES_DEFAULT_SEED, 1, 3);
    expect(Buffer.from(ds.masks.subarray(3 * 1024, 4 * 1024)).equals(Buffer.from(third.mask))).toBe(true);
  });

  it("scores mean IoU from a confusion matrix", () => {
    const m = new IoUMeter(3);
    // truth [0,0,1,1,2], prediction [0,1,1,1,0]: IoU0 = 1/3, IoU1 = 2/3, IoU2 = 0/1.
    m.add([0, 0, 1, 1, 2], [0, 1, 1, 1, 0]);
    const per = m.perClass();
    expect(per[0]).toBeCloseTo(1 / 3, 10);
    expect(per[1]).toBeCloseTo(2 / 3, 10);
    expect(per[2]).toBe(0);
    expect(m.mean()).toBeCloseTo(1 / 3, 10);
    expect(m.pixelAccuracy()).toBeCloseTo(3 / 5, 10);
  });
});
