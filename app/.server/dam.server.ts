// The 3D dam viewer's data (docs/crack-detection.md "The 3D dam viewer"): the model's facts, read
// from the committed GLB itself (public/models/dam.glb, built by scripts/buildDam.ts), and a
// detection run's photos mapped onto the dam's inspection panels (the run's k-th photo on panel k),
// with the abnormalities (photos where a crack was detected) counted from the detections.
import fs from "node:fs/promises";
import path from "node:path";
import type { Viewer } from "./datasets.server.ts";
import { NotFoundError } from "./domainErrors.server.ts";
import { findVisibleRun, listRuns, runDetections, runViewOf, type DetectionRow, type RunView } from "./inspection.server.ts";

export const DAM_MODEL_URL = "/models/dam.glb";
const DAM_MODEL_FILE = () => path.resolve(process.env.DAM_MODEL_FILE ?? "public/models/dam.glb");

export interface DamModelFacts {
  name: string;
  url: string;
  bytes: number;
  meshes: number;
  materials: number;
  /** Textures inside the GLB (the concrete and the rock). */
  textures: number;
  panels: number;
  panelRows: number;
  panelCols: number;
  lengthM: number;
  heightM: number;
  crestM: number;
  baseM: number;
}

interface GltfJson {
  scene?: number;
  scenes?: { extras?: Record<string, number> }[];
  nodes?: { name?: string; extras?: { panel?: number } }[];
  meshes?: unknown[];
  materials?: unknown[];
  textures?: unknown[];
}

let cached: { mtimeMs: number; facts: DamModelFacts } | null = null;

/** The GLB's JSON chunk (GLB 2.0: 12-byte header, then the JSON chunk's length and type). */
function glbJson(bytes: Buffer): GltfJson {
  if (bytes.length < 20 || bytes.readUInt32LE(0) !== 0x46546c67) throw new Error("the dam model is not a GLB file");
  const length = bytes.readUInt32LE(12);
  if (bytes.readUInt32LE(16) !== 0x4e4f534a) throw new Error("the dam model's first chunk is not JSON");
  return JSON.parse(bytes.subarray(20, 20 + length).toString("utf8")) as GltfJson;
}

/** The model's facts, or null when the file is missing (the page then says how to build it). */
export async function damModelFacts(): Promise<DamModelFacts | null> {
  const file = DAM_MODEL_FILE();
  const stat = await fs.stat(file).catch(() => null);
  if (!stat) return null;
  if (cached && cached.mtimeMs === stat.mtimeMs) return cached.facts;
  const json = glbJson(await fs.readFile(file));
  const extras = json.scenes?.[json.scene ?? 0]?.extras ?? {};
  const facts: DamModelFacts = {
    name: "Gravity dam (generated)",
    url: DAM_MODEL_URL,
    bytes: stat.size,
    meshes: json.meshes?.length ?? 0,
    materials: json.materials?.length ?? 0,
    textures: json.textures?.length ?? 0,
    panels: json.nodes?.filter((n) => typeof n.extras?.panel === "number").length ?? 0,
    panelRows: Number(extras.panelRows) || 0,
    panelCols: Number(extras.panelCols) || 0,
    lengthM: Number(extras.lengthM) || 0,
    heightM: Number(extras.heightM) || 0,
    crestM: Number(extras.crestM) || 0,
    baseM: Number(extras.baseM) || 0,
  };
  cached = { mtimeMs: stat.mtimeMs, facts };
  return facts;
}

export interface PanelView {
  panel: number;
  row: number;
  column: number;
  detection: DetectionRow | null;
}

export interface DamView {
  model: DamModelFacts | null;
  runs: RunView[];
  run: RunView | null;
  panels: PanelView[];
  /** Panels whose photo shows a detected crack. */
  abnormalities: number;
  /** Photos laid on panels as textures. */
  photoTextures: number;
  /** Photos of the run beyond the panels (not shown on the model). */
  unplaced: number;
}

/**
 * The viewer's data for the run asked for (404 when the viewer may not see it), or by default
 * the newest completed run the viewer may see (what getResults answers), else the newest with detections.
 */
export async function damView(viewer: Viewer, runId: string | null): Promise<DamView> {
  const model = await damModelFacts();
  const runs = await listRuns(viewer);
  let run: RunView | null;
  if (runId) {
    const found = await findVisibleRun(runId, viewer);
    if (!found) throw new NotFoundError("Not Found");
    run = runViewOf(found, viewer);
  } else run = runs.find((r) => r.state === "completed" && r.photosDone > 0) ?? runs.find((r) => r.photosDone > 0) ?? null;
  const count = model?.panels ?? 0;
  const detections = run && count ? await runDetections(run.id, count) : [];
  const cols = model?.panelCols || 1;
  const panels: PanelView[] = Array.from({ length: count }, (_, k) => ({
    panel: k,
    row: Math.floor(k / cols),
    column: k % cols,
    detection: detections[k] ?? null,
  }));
  return {
    model,
    runs,
    run,
    panels,
    abnormalities: panels.filter((p) => p.detection?.isCrack).length,
    photoTextures: panels.filter((p) => p.detection).length,
    unplaced: run ? Math.max(0, run.photosDone - count) : 0,
  };
}
