// The /dam3d model (docs/crack-detection.md "The 3D dam viewer"): the committed GLB is exactly what
// scripts/buildDam.ts writes today (three.js's GLTFExporter, deterministic), and it holds what the
// viewer relies on: one node per inspection panel named panel-<k> with its index, and the dam's
// facts in the scene's extras.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { DAM_MODEL_FILE, DAM_PANELS, DAM_SIZE, buildDamModel } from "../../scripts/buildDam.ts";

function glbJson(bytes: Buffer) {
  expect(bytes.readUInt32LE(0)).toBe(0x46546c67); // "glTF"
  expect(bytes.readUInt32LE(4)).toBe(2);
  const length = bytes.readUInt32LE(12);
  return JSON.parse(bytes.subarray(20, 20 + length).toString("utf8")) as {
    nodes: { name: string; extras?: { panel?: number } }[];
    textures: unknown[];
    images: unknown[];
    scenes: { extras: Record<string, number> }[];
  };
}

describe("the dam model", () => {
  it("is what `make dam-model` writes today, byte for byte", async () => {
    const built = await buildDamModel();
    expect(built.equals(fs.readFileSync(DAM_MODEL_FILE)), "public/models/dam.glb is stale: run make dam-model and commit it").toBe(true);
  });
  it("has one named node per panel, two textures, and the dam's facts", () => {
    const json = glbJson(fs.readFileSync(DAM_MODEL_FILE));
    const panels = json.nodes.filter((n) => typeof n.extras?.panel === "number");
    expect(panels).toHaveLength(DAM_PANELS.rows * DAM_PANELS.cols);
    expect(panels.map((n) => n.name)).toEqual(panels.map((_, k) => `panel-${k}`));
    expect(json.textures).toHaveLength(2);
    expect(json.images).toHaveLength(2);
    expect(json.scenes[0].extras).toMatchObject({ lengthM: DAM_SIZE.length, heightM: DAM_SIZE.height, panelRows: DAM_PANELS.rows, panelCols: DAM_PANELS.cols });
  });
});
