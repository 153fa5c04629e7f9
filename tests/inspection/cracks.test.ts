// The crack detector's maths on cases whose answers are known (docs/crack-detection.md): the
// distance transform against brute force, thinning and the length estimator on drawn lines, the
// width estimate on bands of known width, the generator's ground truth, the detector against that
// ground truth, and the committed held-out figures re-run on a slice.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { CRACK_MM_PER_PIXEL, generateCrackPhoto } from "../../sidecar/data/cracks.ts";
import { Rng } from "../../sidecar/data/prng.ts";
import { detectCracks } from "../../sidecar/inspection/detector.ts";
import { COMMITTED_EVALUATION, evaluateDetector, type DetectorEvaluation } from "../../sidecar/inspection/evaluate.ts";
import { centreLineLength, measureCrack, removeCorners } from "../../sidecar/inspection/measure.ts";
import { connectedComponents, distanceTransform, thin } from "../../sidecar/inspection/morphology.ts";
import { detectCracksInPhoto } from "../../sidecar/inspection/photo.ts";
import { encodePng } from "../../sidecar/data/png.ts";

/** A band of full width `w` around the segment (x0,y0)–(x1,y1), pixel centres at +0.5. */
function band(size: number, x0: number, y0: number, x1: number, y1: number, w: number): Uint8Array {
  const m = new Uint8Array(size * size);
  const dx = x1 - x0,
    dy = y1 - y0,
    len2 = dx * dx + dy * dy;
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const px = x + 0.5,
        py = y + 0.5;
      const t = Math.max(0, Math.min(1, ((px - x0) * dx + (py - y0) * dy) / len2));
      if (Math.hypot(x0 + t * dx - px, y0 + t * dy - py) <= w / 2) m[y * size + x] = 1;
    }
  return m;
}

describe("distance transform", () => {
  it("equals the brute-force distance to the nearest background pixel (outside the image counts as background)", () => {
    const rng = new Rng(7);
    const W = 23,
      H = 17;
    for (let trial = 0; trial < 5; trial++) {
      const mask = new Uint8Array(W * H).map(() => (rng.float() < 0.75 ? 1 : 0));
      const dt = distanceTransform(mask, W, H);
      for (let y = 0; y < H; y++)
        for (let x = 0; x < W; x++) {
          let best = mask[y * W + x] ? Infinity : 0;
          if (best)
            for (let yy = -1; yy <= H; yy++)
              for (let xx = -1; xx <= W; xx++) {
                const outside = xx < 0 || yy < 0 || xx >= W || yy >= H || !mask[yy * W + xx];
                if (outside) best = Math.min(best, Math.hypot(xx - x, yy - y));
              }
          expect(dt[y * W + x]).toBeCloseTo(best, 5);
        }
    }
  });
  it("gives (n + 1)/2 at the centre of a band n pixels across", () => {
    const mask = new Uint8Array(9 * 9);
    for (let y = 2; y <= 6; y++) for (let x = 0; x < 9; x++) mask[y * 9 + x] = 1; // 5 rows
    expect(distanceTransform(mask, 9, 9)[4 * 9 + 4]).toBe(3);
  });
});

describe("thinning and centre-line length", () => {
  it("thins a 5-pixel bar to one connected line along its middle row", () => {
    const W = 40;
    const mask = new Uint8Array(W * 11);
    for (let y = 3; y <= 7; y++) for (let x = 5; x < 35; x++) mask[y * W + x] = 1;
    const sk = thin(mask, W, 11);
    const rows = new Set<number>();
    for (let i = 0; i < sk.length; i++) if (sk[i]) rows.add(Math.floor(i / W));
    expect([...rows].sort()).toContain(5);
    expect(connectedComponents(sk, W, 11).sizes.length - 1).toBe(1);
  });
  it("measures straight bands 2–6 px wide in 26 directions: length within 6 %, mean width within 0.25 px of the truth over the directions and within 1 px each", () => {
    const size = 160,
      L = 110;
    for (const w of [2, 3, 4, 6]) {
      const widthErrors: number[] = [];
      for (let deg = 0; deg < 180; deg += 7) {
        const a = (deg * Math.PI) / 180;
        // Off the pixel grid, so no pixel centre lies exactly on the band's edge.
        const c = 80.3;
        const mask = band(size, c - (L / 2) * Math.cos(a), c - (L / 2) * Math.sin(a), c + (L / 2) * Math.cos(a), c + (L / 2) * Math.sin(a), w);
        const m = measureCrack(mask, size, size, 1);
        expect(Math.abs(m.lengthMm / L - 1), `length, w ${w} at ${deg}°`).toBeLessThan(0.06);
        expect(Math.abs(m.meanWidthMm - w), `width, w ${w} at ${deg}°`).toBeLessThan(1);
        widthErrors.push(m.meanWidthMm - w);
      }
      expect(Math.abs(widthErrors.reduce((s, e) => s + e, 0) / widthErrors.length), `mean width error, w ${w}`).toBeLessThan(0.25);
    }
  });
  it("counts a staircase step once: an 8-thin diagonal line of n pixels measures about n·√2", () => {
    const W = 50;
    const sk = new Uint8Array(W * W);
    for (let i = 5; i < 45; i++) sk[i * W + i] = 1;
    expect(centreLineLength(sk, W, W)).toBeCloseTo(39 * 1.406, 6);
    // The same diagonal drawn 4-connected (a corner pixel at every step) loses its corners first.
    const stairs = sk.slice();
    for (let i = 5; i < 44; i++) stairs[i * W + i + 1] = 1;
    expect(centreLineLength(removeCorners(stairs, W, W), W, W)).toBeCloseTo(39 * 1.406, 6);
  });
});

describe("generated inspection photos", () => {
  it("are deterministic and their ground truth is the drawn polyline's", () => {
    const a = generateCrackPhoto(3, "test"),
      b = generateCrackPhoto(3, "test");
    expect(Buffer.from(a.image.buffer).equals(Buffer.from(b.image.buffer))).toBe(true);
    expect(Buffer.from(generateCrackPhoto(4, "test").image.buffer).equals(Buffer.from(a.image.buffer))).toBe(false);
    const withCrack = [0, 1, 2, 3, 4, 5].map((i) => generateCrackPhoto(i, "test")).find((p) => p.truth.hasCrack)!;
    let len = 0;
    for (const br of withCrack.truth.branches)
      for (let i = 1; i < br.points.length; i++) len += Math.hypot(br.points[i][0] - br.points[i - 1][0], br.points[i][1] - br.points[i - 1][1]);
    expect(withCrack.truth.lengthMm).toBeCloseTo(len * CRACK_MM_PER_PIXEL, 9);
    expect(withCrack.mask.some((v) => v === 1)).toBe(true);
  });
  it("measured on their ground-truth masks: mean length error under 8 %, mean width error under 0.2 mm", () => {
    const rel: number[] = [],
      width: number[] = [];
    for (let i = 0; i < 40; i++) {
      const p = generateCrackPhoto(i, "train");
      if (!p.truth.hasCrack) continue;
      const m = measureCrack(p.mask, p.width, p.height, CRACK_MM_PER_PIXEL);
      rel.push(Math.abs(m.lengthMm / p.truth.lengthMm - 1));
      width.push(Math.abs(m.meanWidthMm - p.truth.meanWidthMm));
    }
    expect(rel.length).toBeGreaterThan(20);
    expect(rel.reduce((s, x) => s + x, 0) / rel.length).toBeLessThan(0.08);
    expect(width.reduce((s, x) => s + x, 0) / width.length).toBeLessThan(0.2);
  });
});

describe("the detector against ground truth", () => {
  it("finds every crack and no false one on 40 train photos, length within 10 % on average, mean width within 0.25 mm", () => {
    const rel: number[] = [],
      width: number[] = [];
    for (let i = 0; i < 40; i++) {
      const p = generateCrackPhoto(i, "train");
      const d = detectCracks({ data: p.image, width: p.width, height: p.height, channels: 3 }, CRACK_MM_PER_PIXEL);
      expect(d.hasCrack, `photo ${i}`).toBe(p.truth.hasCrack);
      if (!p.truth.hasCrack) continue;
      rel.push(Math.abs(d.lengthMm / p.truth.lengthMm - 1));
      width.push(Math.abs(d.meanWidthMm - p.truth.meanWidthMm));
    }
    expect(rel.reduce((s, x) => s + x, 0) / rel.length).toBeLessThan(0.1);
    expect(width.reduce((s, x) => s + x, 0) / width.length).toBeLessThan(0.25);
  });
  it("reads a photo from PNG bytes and refuses what is not a photo", () => {
    const p = generateCrackPhoto(0, "train");
    const r = detectCracksInPhoto({ image: encodePng({ width: p.width, height: p.height, channels: 3, data: p.image }), mmPerPixel: 0 });
    expect(r.format).toBe("png");
    expect([r.width, r.height]).toEqual([192, 192]);
    expect(r.mmPerPixel).toBe(CRACK_MM_PER_PIXEL);
    expect(() => detectCracksInPhoto({ image: new Uint8Array([1, 2, 3]), mmPerPixel: 0 })).toThrow(/neither PNG nor JPEG/);
    expect(() => detectCracksInPhoto({ image: encodePng({ width: 2, height: 2, channels: 1, data: new Float32Array(4) }), mmPerPixel: 1000 })).toThrow(/scale/);
  });
  it("reproduces the committed held-out figures photo for photo (first 12 photos re-run)", () => {
    const committed = JSON.parse(fs.readFileSync(COMMITTED_EVALUATION, "utf8")) as DetectorEvaluation;
    expect(committed.data.from).toBe(400);
    expect(committed.photos).toHaveLength(1000);
    const again = evaluateDetector(committed.data.from, 12);
    expect(again.photos).toEqual(committed.photos.slice(0, 12));
    expect(committed.params).toEqual(again.params);
  });
});
