// The Segmentation service through a real sidecar process (tsx sidecar/main.ts, one pool worker):
// the committed segmenter is listed with its held-out mean IoU; Segment returns a mask that agrees
// with its class list and picture; Explain runs both methods on a held-out scene through the pool;
// bad input (unknown model or method, wrong size, too large or no picture, a class not in the
// prediction) answers INVALID_ARGUMENT with a message saying what to change (the refusals it
// shares with the MultiLabel service: tests/support/poolServiceGrpc.ts).
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { metarankV1 } from "../../proto/contract.ts";
import { encodePng } from "../../sidecar/data/png.ts";
import { SEG_SCENES_DEFAULT_SEED, SEG_SPLITS, renderSegScene } from "../../sidecar/data/segScenes.ts";
import { expectSharedRefusals, usePoolServiceSidecar } from "../support/poolServiceGrpc.ts";

const MODEL = "fcn-resnet-seg-scenes";
const sidecar = usePoolServiceSidecar(metarankV1("metarank/v1/segmentation.proto").Segmentation);
const { call, invalid } = sidecar;

/** A held-out scene as the page sends it: PNG bytes of the model's input size. */
function scenePng(index: number): Buffer {
  const s = renderSegScene(SEG_SCENES_DEFAULT_SEED, SEG_SPLITS.test, index);
  return encodePng({ height: 32, width: 32, channels: 3, data: s.pixels });
}

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
    await expectSharedRefusals(sidecar, "Segment", MODEL, "segmentation", scenePng(0));
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
    // Still answering afterwards.
    expect((await call("Segment", { modelId: MODEL, imagePng: scenePng(1) })).mask).toHaveLength(1024);
  });
});
