// The concept page's ground truth (docs/concepts.md): on inception-textured-shapes, whose classes
// are textures, TCAV gives the striped class's own texture a significant score near 1 and a
// random concept no significant score; the run reproduces the committed figures exactly.
import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { GROUND_TRUTH_FILE, groundTruthFor, type GroundTruthRow } from "../../sidecar/concepts/groundTruth.ts";

beforeAll(async () => {
  await initBackend("wasm");
});

describe("TCAV on a model whose class is a texture", () => {
  it("finds the class's texture (score ≥ 0.8 at every layer, significant at the first two) and no random concept", async () => {
    const rows = await groundTruthFor("striped", ["striped"]);
    const own = rows.filter((r) => r.concept === "striped");
    const random = rows.filter((r) => r.concept === "random");
    expect(own).toHaveLength(4);
    for (const r of own) expect(r.mean).toBeGreaterThanOrEqual(0.8);
    expect(own.filter((r) => ["mixed1", "mixed2"].includes(r.layer)).every((r) => r.significant)).toBe(true);
    for (const r of random) expect(r.significant).toBe(false);
    // The committed run (npm run -s tcav-ground-truth) holds the same numbers for these rows.
    const committed = JSON.parse(fs.readFileSync(GROUND_TRUTH_FILE, "utf8")) as { rows: GroundTruthRow[] };
    for (const r of [...own, ...random]) {
      const c = committed.rows.find((x) => x.className === "striped" && x.concept === r.concept && x.layer === r.layer)!;
      expect(r.mean).toBeCloseTo(c.mean, 3);
      expect(r.pValue).toBeCloseTo(c.pValue, 3);
    }
  }, 120_000);
});
