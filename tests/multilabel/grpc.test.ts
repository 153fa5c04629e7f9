// The MultiLabel service through a real sidecar process (tsx sidecar/main.ts, one pool worker):
// the committed multi-label ResNet is listed with its held-out mAP; Classify ranks five classes
// with sigmoid probabilities that agree with their logits; Explain runs Feature_Ablation and LIME
// for one class through the pool; bad input (unknown model or method, wrong size, too large or no
// picture, a class or top_k out of range) answers INVALID_ARGUMENT with a message saying what to
// change (the refusals it shares with the Segmentation service: tests/support/poolServiceGrpc.ts).
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { metarankV1 } from "../../proto/contract.ts";
import { encodePng } from "../../sidecar/data/png.ts";
import { MULTILABEL_CLASSES, multiLabelScene } from "../../sidecar/data/vocMultilabel.ts";
import { expectSharedRefusals, usePoolServiceSidecar } from "../support/poolServiceGrpc.ts";

const MODEL = "resnet-seg-scenes-multilabel";
// A job's time limit counts from submission, so it includes the worker's first start (tfjs
// runtime and checkpoint): seconds on a loaded 2-core machine. Generous here; the limit itself is
// tested in tests/inference/poolBounds.test.ts.
const sidecar = usePoolServiceSidecar(metarankV1("metarank/v1/multilabel.proto").MultiLabel, { SIDECAR_MS_PER_EVALUATION: "20000" });
const { call, invalid } = sidecar;

/** A held-out scene as the page sends it: PNG bytes of the model's input size. */
function scenePng(index: number): Buffer {
  return encodePng({ height: 32, width: 32, channels: 3, data: multiLabelScene("test", index).pixels });
}

describe("MultiLabel over gRPC", () => {
  it("lists the multi-label ResNet with its data, classes and held-out mAP", async () => {
    const r = await call("ListMultiLabelModels", {});
    const m = r.models.find((x: { id: string }) => x.id === MODEL);
    expect(m, JSON.stringify(r)).toBeDefined();
    expect(m.dataset).toBe("seg-scenes-multilabel");
    expect(m.arch).toBe("resnet");
    expect(m.classNames).toEqual([...MULTILABEL_CLASSES]);
    expect([m.inputHeight, m.inputWidth, m.inputChannels]).toEqual([32, 32, 3]);
    expect(m.meanAp).toBeGreaterThan(0);
    expect(m.perClassAp).toHaveLength(6);
    expect(m.minPixels).toBe(12);
  });

  it("Classify ranks five classes, highest first, probability = sigmoid(logit)", async () => {
    const r = await call("Classify", { modelId: MODEL, imagePng: scenePng(0) });
    expect(r.ranked).toHaveLength(5);
    for (let i = 0; i < 5; i++) {
      const c = r.ranked[i];
      expect(c.name).toBe(MULTILABEL_CLASSES[c.index]);
      expect(c.probability).toBeCloseTo(1 / (1 + Math.exp(-c.logit)), 6);
      if (i > 0) expect(c.logit).toBeLessThanOrEqual(r.ranked[i - 1].logit);
    }
    expect(new Set(r.ranked.map((c: { index: number }) => c.index)).size).toBe(5);
    const all = await call("Classify", { modelId: MODEL, imagePng: scenePng(0), topK: 6 });
    expect(all.ranked.slice(0, 5)).toEqual(r.ranked);
  });

  it("Explain gives one class's attribution by Feature_Ablation and by LIME, with its maps", async () => {
    const top = (await call("Classify", { modelId: MODEL, imagePng: scenePng(1) })).ranked[0];
    for (const algorithm of ["Feature_Ablation", "LIME"]) {
      const r = await call("Explain", { modelId: MODEL, imagePng: scenePng(1), algorithm, targetClass: top.index });
      expect(r.algorithm).toBe(algorithm);
      expect(r.method).toBe(algorithm === "LIME" ? "Lime" : "FeatureAblation");
      expect(JSON.parse(r.paramsJson)).toBeTypeOf("object");
      expect(r.targetClass).toBe(top.index);
      expect(r.targetLogit).toBeCloseTo(top.logit, 4);
      expect(r.ranked[0]).toEqual(top);
      expect(r.attribution.shape).toEqual([1, 32, 32, 3]);
      expect(r.attribution.data.some((v: number) => v !== 0)).toBe(true);
      for (const png of [r.heatmapPng, r.overlayPng]) {
        const img = PNG.sync.read(png);
        expect([img.width, img.height]).toEqual([32, 32]);
      }
    }
  });

  it("refuses what it cannot serve with INVALID_ARGUMENT and says what to change", async () => {
    await expectSharedRefusals(sidecar, "Classify", MODEL, "multi-label", scenePng(0));
    expect(await invalid("Classify", { modelId: MODEL, imagePng: scenePng(0), topK: 21 })).toMatch(/top_k must be from 1 to 20/);
    expect(await invalid("Explain", { modelId: MODEL, imagePng: scenePng(0), algorithm: "Saliency", targetClass: 0 })).toMatch(
      /choose Feature_Ablation or LIME/,
    );
    expect(await invalid("Explain", { modelId: MODEL, imagePng: scenePng(0), algorithm: "LIME", targetClass: 6 })).toMatch(/from 0 to 5/);
  });
});
