// The Segmentation service through a real sidecar process (tsx sidecar/main.ts, one pool worker):
// the committed segmenter is listed with its held-out mean IoU; Segment returns a mask that agrees
// with its class list and picture; Explain runs both methods on a held-out scene through the pool;
// bad input (unknown model or method, wrong size, a class not in the prediction) answers
// INVALID_ARGUMENT with a message saying what to change.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metarankV1 } from "../../proto/contract.ts";
import { ROOT, freePort } from "../support/stack.ts";
import { TEST_CALL_KEY, presentKey } from "../support/callKey.ts";
import { encodePng } from "../../sidecar/data/png.ts";
import { SEG_SCENES_DEFAULT_SEED, SEG_SPLITS, renderSegScene } from "../../sidecar/data/segScenes.ts";

const MODEL = "fcn-resnet-seg-scenes";
let sidecar: ChildProcess;
let client: grpc.Client & Record<string, Function>;
let output = "";

function call<Res = any>(method: string, request: unknown): Promise<Res> {
  return new Promise((resolve, reject) => {
    client[method](request, { deadline: new Date(Date.now() + 90_000) }, (err: grpc.ServiceError | null, res: Res) => (err ? reject(err) : resolve(res)));
  });
}

async function invalid(method: string, request: unknown): Promise<string> {
  const err = (await call(method, request).then(
    () => null,
    (e) => e,
  )) as grpc.ServiceError | null;
  expect(err, `${method} should have failed`).not.toBeNull();
  expect(err!.code).toBe(grpc.status.INVALID_ARGUMENT);
  return err!.details;
}

/** A held-out scene as the page sends it: PNG bytes of the model's input size. */
function scenePng(index: number): Buffer {
  const s = renderSegScene(SEG_SCENES_DEFAULT_SEED, SEG_SPLITS.test, index);
  return encodePng({ height: 32, width: 32, channels: 3, data: s.pixels });
}

beforeAll(async () => {
  const port = await freePort();
  sidecar = spawn(path.join(ROOT, "node_modules/.bin/tsx"), ["sidecar/main.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      SIDECAR_PORT: String(port),
      SIDECAR_HOST: "127.0.0.1",
      SIDECAR_CALL_KEY: TEST_CALL_KEY,
      LOG_LEVEL: "warn",
      SIDECAR_WORKERS: "1",
      TENSOR_BACKEND: "wasm",
      APP_URL: "",
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  sidecar.stdout!.on("data", (d) => (output += d));
  sidecar.stderr!.on("data", (d) => (output += d));
  const Segmentation = metarankV1("metarank/v1/segmentation.proto").Segmentation;
  client = new Segmentation(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), { interceptors: [presentKey()] }) as unknown as typeof client;
  await new Promise<void>((resolve, reject) =>
    client.waitForReady(new Date(Date.now() + 90_000), (err) => (err ? reject(new Error(`sidecar did not start: ${err.message}\n${output}`)) : resolve())),
  );
});

afterAll(async () => {
  client?.close();
  if (sidecar?.pid && sidecar.exitCode === null) {
    const exited = new Promise((resolve) => sidecar.once("exit", resolve));
    process.kill(-sidecar.pid, "SIGTERM");
    await exited;
  }
});

describe("Segmentation over gRPC", () => {
  let present: number[] = [];

  it("lists the committed segmenter with its held-out mean IoU", async () => {
    const { models, problems } = await call("ListSegmenters", {});
    expect(problems).toEqual([]);
    const m = models.find((x: any) => x.id === MODEL);
    expect(m).toMatchObject({
      arch: "fcn-resnet",
      dataset: "seg-scenes",
      inputHeight: 32,
      inputWidth: 32,
      inputChannels: 3,
      camLayer: "layer4",
      testSize: 1000,
    });
    expect(m.classNames[0]).toBe("background");
    expect(m.classNames).toHaveLength(7);
    expect(m.perClassIou).toHaveLength(7);
    expect(m.meanIou).toBeGreaterThan(0.4);
  });

  it("Segment returns a mask, the classes it holds and the picture of it", async () => {
    const r = await call("Segment", { modelId: MODEL, imagePng: scenePng(0) });
    expect(r.height).toBe(32);
    expect(r.mask).toHaveLength(32 * 32);
    const counts = new Map<number, number>();
    for (const c of r.mask) counts.set(c, (counts.get(c) ?? 0) + 1);
    // The class list is exactly the mask's non-background classes with their pixel counts.
    expect(r.classes.map((c: any) => [c.id, c.pixels])).toEqual([...counts].filter(([c]) => c > 0).sort((a, b) => a[0] - b[0]));
    expect(r.classes.length).toBeGreaterThan(0);
    present = r.classes.map((c: any) => c.id);
    const png = PNG.sync.read(Buffer.from(r.segmentationPng));
    expect([png.width, png.height]).toEqual([32, 32]);
    // Each pixel of the picture has its class's legend colour.
    for (const p of [0, 100, 517, 1023]) {
      const hex = `#${[0, 1, 2].map((k) => png.data[p * 4 + k].toString(16).padStart(2, "0")).join("")}`;
      expect(hex).toBe(r.palette[r.mask[p]]);
    }
  });

  it("Explain runs Feature_Ablation over the predicted segments and LayerGradCAM on layer4 on the pool", async () => {
    const target = present[0];
    const fa = await call("Explain", { modelId: MODEL, imagePng: scenePng(0), algorithm: "Feature_Ablation", targetClass: target });
    expect(fa.targetClass).toBe(target);
    expect(fa.attribution.shape).toEqual([1, 32, 32, 3]);
    // Every pixel of a segment carries that segment's drop (the segment is one feature).
    const byId = new Map<number, number>(fa.segmentAttributions.map((s: any) => [s.id, s.value]));
    const mask: number[] = fa.segmentation.mask;
    for (let p = 0; p < 1024; p += 37) expect(fa.attribution.data[p * 3]).toBeCloseTo(byId.get(mask[p])!, 4);
    // Ablating the target's own segment lowers its score (the summed logits lose their pixels' evidence).
    expect(byId.get(target)!).toBeGreaterThan(0);
    expect(fa.targetScore).toBeGreaterThan(0);
    expect(PNG.sync.read(Buffer.from(fa.heatmapPng)).width).toBe(32);
    const cam = await call("Explain", { modelId: MODEL, imagePng: scenePng(0), algorithm: "LayerGradCAM", targetClass: target });
    expect(cam.attribution.shape).toEqual([1, 4, 4, 1]);
    expect(cam.targetScore).toBeCloseTo(fa.targetScore, 3);
    expect(cam.overlayPng.length).toBeGreaterThan(0);
  });

  it("refuses bad input with INVALID_ARGUMENT and says what to change", async () => {
    expect(await invalid("Segment", { modelId: "nope", imagePng: scenePng(0) })).toMatch(
      /unknown segmentation model "nope"; available: .*fcn-resnet-seg-scenes/,
    );
    const big = new PNG({ width: 40, height: 40 });
    expect(await invalid("Segment", { modelId: MODEL, imagePng: PNG.sync.write(big) })).toMatch(/40×40 pixels but model .* takes 32×32/);
    expect(await invalid("Explain", { modelId: MODEL, imagePng: scenePng(0), algorithm: "Occlusion", targetClass: 1 })).toMatch(
      /choose Feature_Ablation or LayerGradCAM/,
    );
    expect(await invalid("Explain", { modelId: MODEL, imagePng: scenePng(0), algorithm: "LayerGradCAM", targetClass: 0 })).toMatch(
      /from 1 to 6 \(0 is the background\)/,
    );
    const absent = [1, 2, 3, 4, 5, 6].find((c) => !present.includes(c))!;
    expect(await invalid("Explain", { modelId: MODEL, imagePng: scenePng(0), algorithm: "LayerGradCAM", targetClass: absent })).toMatch(
      new RegExp(`class ${absent} is not in this image's segmentation`),
    );
    expect(await invalid("Segment", { modelId: MODEL, imagePng: Buffer.alloc(3 * 1024 * 1024, 1) })).toMatch(/at most 2097152 are accepted/);
    // Still answering afterwards.
    expect((await call("Segment", { modelId: MODEL, imagePng: scenePng(1) })).mask).toHaveLength(1024);
  });
});
