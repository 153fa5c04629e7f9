// Builds the 3D model of the /dam3d viewer (docs/crack-detection.md "The 3D dam viewer"): a
// concrete gravity dam, written as GLB by three.js's own GLTFExporter. `make dam-model` runs it;
// the result is committed as public/models/dam.glb and tests/inspection/damModel.test.ts checks
// that the committed file is exactly what this script writes today.
//
// The dam: a gravity section (vertical upstream face, crest, sloping downstream face) extruded
// along the dam's axis, on a foundation block, with the reservoir upstream. The downstream face
// carries DAM_PANELS.rows × DAM_PANELS.cols inspection panels, thin quads named "panel-<k>"
// (k = 0 … n−1 row by row from the crest, left to right as seen from downstream), each the area one
// inspection photo covers: the viewer maps a detection run's k-th photo onto panel k.
// Textures are generated here (concrete, foundation rock) as DataTextures; Node has no canvas,
// so the few browser APIs the exporter calls to encode them (OffscreenCanvas, ImageData,
// FileReader) are provided below over pngjs and Node's Blob.
import fs from "node:fs";
import path from "node:path";
import { PNG } from "pngjs";
import * as THREE from "three";
import { GLTFExporter } from "three/examples/jsm/exporters/GLTFExporter.js";
import { Rng } from "../sidecar/data/prng.ts";

export const DAM_PANELS = { rows: 4, cols: 9 } as const;
/** Metres. */
export const DAM_SIZE = { length: 120, height: 40, crest: 6, base: 34 } as const;
export const DAM_MODEL_FILE = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "public", "models", "dam.glb");

// ---------------------------------------------------------------------------------------------
// The browser APIs GLTFExporter uses to encode textures and assemble the GLB, for Node.

class NodeImageData {
  constructor(
    readonly data: Uint8ClampedArray,
    readonly width: number,
    readonly height: number,
  ) {}
}

class NodeOffscreenCanvas {
  private pixels: Uint8ClampedArray | null = null;
  constructor(
    public width: number,
    public height: number,
  ) {}
  getContext() {
    return {
      putImageData: (img: NodeImageData) => {
        this.pixels = new Uint8ClampedArray(img.data);
      },
      // Textures here are DataTextures (putImageData); nothing is drawn.
      drawImage: () => {
        throw new Error("drawImage is not available when building the dam model");
      },
    };
  }
  async convertToBlob(): Promise<Blob> {
    const png = new PNG({ width: this.width, height: this.height });
    if (this.pixels) png.data = Buffer.from(this.pixels.buffer, this.pixels.byteOffset, this.pixels.byteLength);
    return new Blob([PNG.sync.write(png)], { type: "image/png" });
  }
}

class NodeFileReader {
  result: ArrayBuffer | string | null = null;
  onloadend: (() => void) | null = null;
  readAsArrayBuffer(blob: Blob) {
    void blob.arrayBuffer().then((buf) => {
      this.result = buf;
      this.onloadend?.();
    });
  }
  readAsDataURL(blob: Blob) {
    void blob.arrayBuffer().then((buf) => {
      this.result = `data:${blob.type || "application/octet-stream"};base64,${Buffer.from(buf).toString("base64")}`;
      this.onloadend?.();
    });
  }
}

function installBrowserShims() {
  const g = globalThis as Record<string, unknown>;
  g.OffscreenCanvas ??= NodeOffscreenCanvas;
  g.ImageData ??= NodeImageData;
  g.FileReader ??= NodeFileReader;
}

// ---------------------------------------------------------------------------------------------
// Textures.

/** A grey concrete (or rock) texture: smooth noise at three scales plus grain, deterministic. */
function surfaceTexture(seed: number, size: number, base: [number, number, number], contrast: number): THREE.DataTexture {
  const rng = new Rng(seed);
  const grid = (cell: number) => {
    const n = Math.ceil(size / cell) + 1;
    const g = Float32Array.from({ length: n * n }, () => rng.float() * 2 - 1);
    return (x: number, y: number) => {
      const gx = x / cell,
        gy = y / cell,
        x0 = Math.floor(gx),
        y0 = Math.floor(gy),
        tx = gx - x0,
        ty = gy - y0;
      // Wraps, so the texture tiles without seams.
      const at = (i: number, j: number) => g[((j % (n - 1)) * n + (i % (n - 1))) | 0];
      const sx = tx * tx * (3 - 2 * tx),
        sy = ty * ty * (3 - 2 * ty);
      return (at(x0, y0) * (1 - sx) + at(x0 + 1, y0) * sx) * (1 - sy) + (at(x0, y0 + 1) * (1 - sx) + at(x0 + 1, y0 + 1) * sx) * sy;
    };
  };
  const octaves = [grid(size / 2), grid(size / 8), grid(size / 32)];
  const data = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const v = contrast * (0.5 * octaves[0](x, y) + 0.3 * octaves[1](x, y) + 0.2 * octaves[2](x, y)) + 0.04 * (rng.float() - 0.5);
      const i = (y * size + x) * 4;
      for (let c = 0; c < 3; c++) data[i + c] = Math.round(255 * Math.max(0, Math.min(1, base[c] + v)));
      data[i + 3] = 255;
    }
  const tex = new THREE.DataTexture(data, size, size, THREE.RGBAFormat);
  tex.wrapS = tex.wrapT = THREE.RepeatWrapping;
  tex.needsUpdate = true;
  return tex;
}

// ---------------------------------------------------------------------------------------------
// The scene.

export function damScene(): THREE.Scene {
  const { length: L, height: H, crest: C, base: B } = DAM_SIZE;
  const scene = new THREE.Scene();
  scene.name = "gravity-dam";
  // The facts the viewer's info panel shows, carried in the file (glTF "extras").
  scene.userData = { lengthM: L, heightM: H, crestM: C, baseM: B, panelRows: DAM_PANELS.rows, panelCols: DAM_PANELS.cols };

  // Section in the (z, y) plane: z = 0 is the upstream face, z grows downstream.
  const section = new THREE.Shape();
  section.moveTo(0, 0);
  section.lineTo(0, H);
  section.lineTo(C, H);
  section.lineTo(C, H * 0.85);
  section.lineTo(B, 0);
  section.closePath();
  const bodyGeometry = new THREE.ExtrudeGeometry(section, { depth: L, bevelEnabled: false });
  // The shape's (x, y) become (z, y) and the extrusion runs along x, centred on the origin.
  bodyGeometry.rotateY(-Math.PI / 2);
  bodyGeometry.translate(L / 2, 0, 0);
  const concrete = surfaceTexture(11, 256, [0.66, 0.65, 0.62], 0.12);
  concrete.repeat.set(6, 3);
  const body = new THREE.Mesh(bodyGeometry, new THREE.MeshStandardMaterial({ name: "concrete", map: concrete, roughness: 0.9 }));
  body.name = "dam-body";
  scene.add(body);

  const rock = surfaceTexture(23, 256, [0.45, 0.41, 0.36], 0.18);
  rock.repeat.set(8, 4);
  const foundation = new THREE.Mesh(new THREE.BoxGeometry(L + 40, 6, B + 60), new THREE.MeshStandardMaterial({ name: "rock", map: rock, roughness: 1 }));
  foundation.position.set(0, -3, B / 2 - 10);
  foundation.name = "foundation";
  scene.add(foundation);

  const water = new THREE.Mesh(
    new THREE.BoxGeometry(L, H * 0.8, 40),
    new THREE.MeshStandardMaterial({ name: "water", color: 0x2f6f9f, transparent: true, opacity: 0.75, roughness: 0.2 }),
  );
  water.position.set(0, (H * 0.8) / 2, -20.2);
  water.name = "reservoir";
  scene.add(water);

  // Inspection panels on the sloping downstream face, from the top of the slope (y = 0.85 H) to the toe.
  const top = new THREE.Vector3(0, H * 0.85, C),
    toe = new THREE.Vector3(0, 0, B);
  const down = toe.clone().sub(top);
  const slopeLength = down.length();
  down.normalize();
  const normal = new THREE.Vector3(0, down.z, -down.y).normalize(); // outward, downstream and up
  if (normal.z < 0) normal.negate();
  const panelW = L / DAM_PANELS.cols,
    panelH = slopeLength / DAM_PANELS.rows;
  const panelMaterial = new THREE.MeshStandardMaterial({ name: "panel", color: 0xd6d3cc, roughness: 0.85 });
  for (let r = 0; r < DAM_PANELS.rows; r++)
    for (let c = 0; c < DAM_PANELS.cols; c++) {
      const k = r * DAM_PANELS.cols + c;
      const geometry = new THREE.PlaneGeometry(panelW * 0.94, panelH * 0.94);
      const panel = new THREE.Mesh(geometry, panelMaterial);
      // Plane faces +z; turn it to lie on the slope facing outward.
      panel.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), normal);
      const centre = top
        .clone()
        .addScaledVector(down, (r + 0.5) * panelH)
        .addScaledVector(normal, 0.05);
      // Seen from downstream (looking toward −z), left is +x.
      centre.x = L / 2 - (c + 0.5) * panelW;
      panel.position.copy(centre);
      panel.name = `panel-${k}`;
      panel.userData = { panel: k, row: r, column: c };
      scene.add(panel);
    }
  return scene;
}

/** The GLB bytes of the dam. */
export async function buildDamModel(): Promise<Buffer> {
  installBrowserShims();
  const scene = damScene();
  const exporter = new GLTFExporter();
  const result = await exporter.parseAsync(scene, { binary: true, maxTextureSize: 1024 });
  return Buffer.from(result as ArrayBuffer);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const out = process.argv[2] ?? DAM_MODEL_FILE;
  const bytes = await buildDamModel();
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, bytes);
  console.log(`wrote ${out} (${bytes.length} bytes)`);
}
