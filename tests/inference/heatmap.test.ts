// Attribution pictures: what the per-pixel map is for input-shaped and layer-shaped
// attributions, and that both PNGs come out at the input's size.
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { attributionMap, normaliseMap, renderAttribution } from "../../sidecar/inference/heatmap.ts";

describe("heatmap", () => {
  it("sums |attribution| over channels for an input-shaped attribution", () => {
    const map = attributionMap({ shape: [1, 1, 2, 3], data: [1, -2, 3, 0, 0, -0.5] }, 1, 2);
    expect(Array.from(map)).toEqual([6, 0.5]);
  });

  it("keeps the positive part of a layer map and upsamples it bilinearly", () => {
    const map = attributionMap({ shape: [1, 2, 2, 1], data: [1, -1, 0, 3] }, 4, 4);
    expect(map.length).toBe(16);
    expect(map[0]).toBeCloseTo(1); // corner takes the corner cell
    expect(map[15]).toBeCloseTo(3);
    expect(map[3]).toBeCloseTo(0); // the negative cell is clipped to 0
    expect(map[5]).toBeGreaterThan(0.5); // interior mixes neighbours
    expect(map[5]).toBeLessThan(3);
  });

  it("normalises by the 99th percentile and handles an all-zero map", () => {
    const n = normaliseMap(Float32Array.from({ length: 200 }, (_, i) => (i === 199 ? 1000 : i % 10)));
    expect(Math.max(...n)).toBe(1);
    expect(n[9]).toBeCloseTo(1);
    expect(Array.from(normaliseMap(new Float32Array(4)))).toEqual([0, 0, 0, 0]);
  });

  it("renders heatmap and overlay PNGs at the input size, brighter where attribution is larger", () => {
    const input = { height: 4, width: 4, channels: 1, data: new Float32Array(16).fill(0.5) };
    const data = new Array(16).fill(0);
    data[5] = 1;
    const { heatmapPng, overlayPng } = renderAttribution({ shape: [1, 4, 4, 1], data }, input);
    const heat = PNG.sync.read(heatmapPng);
    const over = PNG.sync.read(overlayPng);
    expect([heat.width, heat.height, over.width, over.height]).toEqual([4, 4, 4, 4]);
    const lum = (png: PNG, p: number) => png.data[p * 4] + png.data[p * 4 + 1] + png.data[p * 4 + 2];
    expect(lum(heat, 5)).toBeGreaterThan(lum(heat, 0) + 300);
    expect(lum(over, 5)).not.toBe(lum(over, 0));
  });
});
