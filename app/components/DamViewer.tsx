// The /dam3d viewer (docs/crack-detection.md "The 3D dam viewer"): three.js in the browser only
// (loaded on mount, never on the server). It loads the dam's GLB with GLTFLoader, lays each panel's
// inspection photo on it as a texture, tints the panels where a crack was detected, and reports
// real loading progress (the GLB's bytes, then each photo). Orbit controls move the camera; a click
// (not a drag) on a panel selects it. Without WebGL it says so, and the page's still image and
// table remain.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { OrbitControls as OrbitControlsClass } from "three/examples/jsm/controls/OrbitControls.js";
import type { Object3D, PerspectiveCamera, Texture, WebGLRenderer } from "three";

/** three.js as loaded on mount (never on the server). */
type Three = typeof import("three");
type PanelMesh = InstanceType<Three["Mesh"]>;

export interface ViewerPanel {
  panel: number;
  thumbUrl: string | null;
  overlayUrl: string | null;
  isCrack: boolean;
}

export function DamViewer({
  modelUrl,
  panels,
  selected,
  onSelect,
  onProgress,
}: {
  modelUrl: string;
  panels: ViewerPanel[];
  selected: number | null;
  onSelect: (panel: number) => void;
  onProgress: (percent: number) => void;
}) {
  const { t } = useTranslation("inspection");
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "no-webgl" | "failed">("loading");
  // The latest callbacks and selection, read by the long-lived three.js handlers.
  const latest = useRef({ onSelect, onProgress, selected });
  useEffect(() => {
    latest.current = { onSelect, onProgress, selected };
  });
  const highlight = useRef<(k: number | null) => void>(() => {});

  useEffect(() => {
    let disposed = false;
    let frame = 0;
    let cleanup = () => {};
    (async () => {
      const [THREE, { GLTFLoader }, { OrbitControls }] = await Promise.all([
        import("three"),
        import("three/examples/jsm/loaders/GLTFLoader.js"),
        import("three/examples/jsm/controls/OrbitControls.js"),
      ]);
      const el = host.current;
      if (!el || disposed) return;
      const stage = createStage(THREE, OrbitControls, el);
      if (!stage) {
        setState("no-webgl");
        return;
      }
      const { renderer, scene, camera, controls } = stage;

      const total = panels.filter((p) => p.thumbUrl).length + panels.filter((p) => p.overlayUrl).length;
      let done = 0;
      const report = (modelPart: number) => latest.current.onProgress(Math.round(80 * modelPart + (total ? (20 * done) / total : 20)));
      const gltf = await new GLTFLoader()
        .loadAsync(modelUrl, (e) => {
          if (e.lengthComputable && e.total) report(e.loaded / e.total);
        })
        .catch(() => null);
      if (disposed) return;
      if (!gltf) {
        setState("failed");
        return;
      }
      report(1);
      scene.add(gltf.scene);
      const meshes = panelMeshes(THREE, gltf.scene);
      const loader = new THREE.TextureLoader();
      const loadTexture = (url: string) =>
        loader
          .loadAsync(url)
          .catch(() => null)
          .finally(() => {
            done++;
            report(1);
          });
      await Promise.all(panels.map((p) => dressPanel(THREE, meshes.get(p.panel), p, loadTexture)));
      if (disposed) return;
      highlight.current = panelHighlighter(THREE, meshes, panels);
      highlight.current(latest.current.selected);
      latest.current.onProgress(100);
      setState("ready");

      selectOnClick(THREE, renderer, camera, meshes, (k) => latest.current.onSelect(k));
      const resize = new ResizeObserver(() => {
        camera.aspect = el.clientWidth / Math.max(1, el.clientHeight);
        camera.updateProjectionMatrix();
        renderer.setSize(el.clientWidth, el.clientHeight);
      });
      resize.observe(el);
      const tick = () => {
        controls.update();
        renderer.render(scene, camera);
        frame = requestAnimationFrame(tick);
      };
      tick();
      renderer.domElement.setAttribute("data-loaded", "true");
      cleanup = () => {
        resize.disconnect();
        controls.dispose();
        renderer.dispose();
        renderer.domElement.remove();
      };
    })();
    return () => {
      disposed = true;
      cancelAnimationFrame(frame);
      cleanup();
    };
    // The scene is built once per model and panel set.
  }, [modelUrl, panels]);

  useEffect(() => highlight.current(selected), [selected]);

  return (
    <div className="dam-viewer">
      <div ref={host} className="dam-canvas-host" aria-label={t("dam.canvasLabel")} role="img" />
      {state === "no-webgl" ? <p className="notice notice-warn">{t("dam.noWebgl")}</p> : null}
      {state === "failed" ? <p className="notice notice-error">{t("dam.loadFailed")}</p> : null}
    </div>
  );
}

/** Renderer, lit scene, camera and orbit controls in `el`; null when the browser has no WebGL. */
function createStage(THREE: Three, OrbitControls: typeof OrbitControlsClass, el: HTMLDivElement) {
  let renderer: WebGLRenderer;
  try {
    renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  } catch {
    return null;
  }
  renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
  renderer.setSize(el.clientWidth, el.clientHeight);
  renderer.domElement.setAttribute("data-testid", "dam-canvas");
  el.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xdbe7f3);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x6b7280, 0.9));
  const sun = new THREE.DirectionalLight(0xffffff, 1.1);
  sun.position.set(-60, 90, 120);
  scene.add(sun);
  const camera = new THREE.PerspectiveCamera(45, el.clientWidth / el.clientHeight, 0.5, 2000);
  camera.position.set(-70, 45, 120);
  const controls = new OrbitControls(camera, renderer.domElement);
  controls.target.set(0, 14, 16);
  controls.enableDamping = true;
  controls.update();
  return { renderer, scene, camera, controls };
}

/** The GLB's panels by number (each panel mesh names its number in userData.panel). */
function panelMeshes(THREE: Three, root: Object3D): Map<number, PanelMesh> {
  const meshes = new Map<number, PanelMesh>();
  root.traverse((o) => {
    const k = (o.userData as { panel?: number }).panel;
    if (typeof k === "number" && o instanceof THREE.Mesh) meshes.set(k, o);
  });
  return meshes;
}

/** One panel's own material: tinted where a crack was detected, its photo as texture, the crack mask on top. */
async function dressPanel(THREE: Three, mesh: PanelMesh | undefined, p: ViewerPanel, loadTexture: (url: string) => Promise<Texture | null>) {
  if (!mesh) return;
  const material = (mesh.material as InstanceType<Three["MeshStandardMaterial"]>).clone();
  mesh.material = material;
  if (p.isCrack) {
    material.emissive = new THREE.Color(0xb91c1c);
    material.emissiveIntensity = 0.35;
  }
  if (p.thumbUrl) {
    const tex = await loadTexture(p.thumbUrl);
    if (tex) {
      tex.colorSpace = THREE.SRGBColorSpace;
      material.map = tex;
      material.color.set(0xffffff);
      material.needsUpdate = true;
    }
  }
  if (p.overlayUrl) {
    const mask = await loadTexture(p.overlayUrl);
    if (mask) {
      mask.colorSpace = THREE.SRGBColorSpace;
      const overlay = new THREE.Mesh(mesh.geometry, new THREE.MeshBasicMaterial({ map: mask, transparent: true, depthWrite: false }));
      overlay.position.z = 0.02;
      mesh.add(overlay);
    }
  }
}

/** Marks the selected panel (blue) over the crack tint (red). */
function panelHighlighter(THREE: Three, meshes: Map<number, PanelMesh>, panels: ViewerPanel[]) {
  return (k: number | null) => {
    for (const [panel, mesh] of meshes) {
      const m = mesh.material as InstanceType<Three["MeshStandardMaterial"]>;
      const crack = panels.find((p) => p.panel === panel)?.isCrack;
      m.emissive = new THREE.Color(panel === k ? 0x2563eb : crack ? 0xb91c1c : 0x000000);
      m.emissiveIntensity = panel === k ? 0.45 : crack ? 0.35 : 0;
    }
  };
}

/** A click, not a drag, selects the panel under the pointer. */
function selectOnClick(THREE: Three, renderer: WebGLRenderer, camera: PerspectiveCamera, meshes: Map<number, PanelMesh>, onSelect: (panel: number) => void) {
  const ray = new THREE.Raycaster();
  let downAt: { x: number; y: number } | null = null;
  const onDown = (e: PointerEvent) => (downAt = { x: e.clientX, y: e.clientY });
  const onUp = (e: PointerEvent) => {
    if (!downAt || Math.hypot(e.clientX - downAt.x, e.clientY - downAt.y) > 4) return;
    const r = renderer.domElement.getBoundingClientRect();
    ray.setFromCamera(new THREE.Vector2(((e.clientX - r.left) / r.width) * 2 - 1, -((e.clientY - r.top) / r.height) * 2 + 1), camera);
    const hit = ray.intersectObjects([...meshes.values()], false)[0];
    const k = hit ? (hit.object.userData as { panel?: number }).panel : undefined;
    if (typeof k === "number") onSelect(k);
  };
  renderer.domElement.addEventListener("pointerdown", onDown);
  renderer.domElement.addEventListener("pointerup", onUp);
}
