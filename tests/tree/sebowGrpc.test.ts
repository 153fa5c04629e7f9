// The SeBoW service through a real sidecar process (tests/support/sidecar.ts): the committed scenes
// model is listed with its accuracies; the pool is the test split with ground truth and is the
// same for the same seed; Explain runs both variants with DI and SPI on the worker pool, and its
// numbers agree with each other (probabilities sum to 1, the followed child is the most probable,
// the SPI grid is complete); bad requests answer INVALID_ARGUMENT with what to change.
import * as grpc from "@grpc/grpc-js";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metarankV1 } from "../../proto/contract.ts";
import { startTestSidecar, type TestSidecar } from "../support/sidecar.ts";
import { SCENES_DEFAULT_SEED, renderScene } from "../../sidecar/data/scenes.ts";
import { grpcCalls } from "../support/poolServiceGrpc.ts";

const MODEL = "sebow-scenes";
type Client = grpc.Client & Record<string, Function>;
let sc: TestSidecar<Client>;

const { call, invalid } = grpcCalls(() => sc.client, 120_000);

beforeAll(async () => {
  sc = await startTestSidecar<Client>(metarankV1("metarank/v1/sebow.proto").SeBoW);
}, 120_000);

afterAll(async () => {
  await sc?.stop();
});

const sum = (v: number[]) => v.reduce((a, b) => a + b, 0);

describe("SeBoW over gRPC", () => {
  it("lists the committed scenes model with its three accuracies", async () => {
    const { models, problems } = await call("ListModels", {});
    expect(problems).toEqual([]);
    const m = models.find((x: any) => x.id === MODEL);
    expect(m).toMatchObject({ dataset: "scenes", inputHeight: 32, inputWidth: 32, testSize: 1000 });
    expect(m.classNames).toEqual(["circle", "square", "triangle", "cross", "ring", "star"]);
    for (const k of ["searchSpaceAccuracy", "treeAccuracy", "cnnAccuracy"]) expect(m[k]).toBeGreaterThan(1 / 6);
    expect(m.leaves).toBeGreaterThanOrEqual(2);
  });

  it("pools test images with their ground truth, the same for the same seed", async () => {
    const a = await call("Pool", { modelId: MODEL, count: 12, seed: 3 });
    const b = await call("Pool", { modelId: MODEL, count: 12, seed: 3 });
    expect(a.images).toHaveLength(12);
    expect(a.images.map((i: any) => i.sampleId)).toEqual(b.images.map((i: any) => i.sampleId));
    const first = a.images[0];
    const index = Number(first.sampleId.slice("test:".length));
    expect(first.label).toBe(renderScene(SCENES_DEFAULT_SEED, 1, index).label);
    const png = PNG.sync.read(Buffer.from(first.png));
    expect([png.width, png.height]).toEqual([32, 32]);
  });

  for (const variant of ["SearchSpaceModel", "NeuralDecisionTree"])
    it(`explains ${variant} by DI and SPI`, async () => {
      const di = await call("Explain", { modelId: MODEL, variant, algorithm: "DI", sampleId: "test:5" });
      expect(di.groundTruth).toBe(renderScene(SCENES_DEFAULT_SEED, 1, 5).label);
      expect(sum(di.classProbabilities)).toBeCloseTo(1, 4);
      expect(di.probability).toBeCloseTo(Math.max(...di.classProbabilities), 6);
      expect(di.decisions.length).toBeGreaterThan(0);
      for (const d of di.decisions) {
        expect(sum(d.probabilities)).toBeCloseTo(1, 4);
        expect(d.probabilities[d.chosen]).toBe(Math.max(...d.probabilities));
        expect(d.reach).toBeGreaterThan(0);
        expect(PNG.sync.read(Buffer.from(d.saliencyPng)).width).toBe(32);
      }
      expect(sum(di.leafDistribution)).toBeCloseTo(1, 4);
      expect(di.classNames[di.pathPredicted]).toBeTruthy();

      const spi = await call("Explain", { modelId: MODEL, variant, algorithm: "SPI", sampleId: "test:5" });
      // The same image and model: the same prediction whatever explains it.
      expect(spi.predicted).toBe(di.predicted);
      expect(spi.probability).toBeCloseTo(di.probability, 6);
      expect([spi.patchRows, spi.patchCols]).toEqual([4, 4]);
      expect(spi.patchImportance).toHaveLength(16);
      expect(spi.patchChangesPath).toHaveLength(16);
      // Hiding a patch cannot raise the predicted class above 1 or push it below 0.
      for (const v of spi.patchImportance) expect(v).toBeLessThanOrEqual(spi.probability + 1e-6);
      expect(PNG.sync.read(Buffer.from(spi.overlayPng)).height).toBe(32);
    });

  it("refuses unknown models, variants, algorithms and samples with what to change", async () => {
    expect(await invalid("Explain", { modelId: "nope", variant: "SearchSpaceModel", algorithm: "DI", sampleId: "test:1" })).toMatch(
      /unknown SeBoW model.*sebow-scenes/,
    );
    expect(await invalid("Explain", { modelId: MODEL, variant: "ResNet", algorithm: "DI", sampleId: "test:1" })).toMatch(
      /SearchSpaceModel or NeuralDecisionTree/,
    );
    expect(await invalid("Explain", { modelId: MODEL, variant: "SearchSpaceModel", algorithm: "IG", sampleId: "test:1" })).toMatch(/DI or SPI/);
    expect(await invalid("Explain", { modelId: MODEL, variant: "SearchSpaceModel", algorithm: "DI", sampleId: "test:99999" })).toMatch(/outside 0\.\.999/);
    expect(await invalid("Explain", { modelId: MODEL, variant: "SearchSpaceModel", algorithm: "DI" })).toMatch(/sample_id/);
    expect(await invalid("Pool", { modelId: MODEL, count: 500, seed: 1 })).toMatch(/count must be 1–48/);
  });
});
