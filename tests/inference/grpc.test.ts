// Round trip through a real sidecar process: spawn `tsx sidecar/main.ts` on a free
// port and call every Inference RPC the way the web app does (its own proto loader).
// Bad input answers INVALID_ARGUMENT with an actionable message, and the sidecar
// keeps answering afterwards.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metarankV1 } from "../../proto/contract.ts";
import { startTestSidecar, type TestSidecar } from "../support/sidecar.ts";
import { grpcCalls } from "../support/poolServiceGrpc.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SAMPLES = path.join(root, "tests/fixtures/data/samples");
const fashionPng = fs.readFileSync(path.join(SAMPLES, "fashion-mnist-0.png"));
const scenesPng = fs.readFileSync(path.join(SAMPLES, "scenes-0.png"));
const MODEL = "resnet-fashion-mnist";

let sidecar: TestSidecar<typeof client> | undefined;
let client: grpc.Client & Record<string, Function>;

const { call, invalid } = grpcCalls(() => client, 60_000);

beforeAll(async () => {
  sidecar = await startTestSidecar<typeof client>(metarankV1("metarank/v1/inference.proto").Inference, {
    client: { "grpc.max_receive_message_length": 64 << 20 },
  });
  client = sidecar.client;
});

afterAll(() => sidecar?.stop());

describe("Inference over gRPC", () => {
  it("lists the committed models and the algorithms with their parameters", async () => {
    const { models } = await call("ListModels", {});
    const m = models.find((x: any) => x.id === MODEL);
    expect(m).toMatchObject({ arch: "resnet", dataset: "fashion-mnist", inputHeight: 28, inputWidth: 28, inputChannels: 1 });
    expect(m.classNames).toHaveLength(10);
    expect(m.testAccuracy).toBeGreaterThan(0.85);
    expect(m.layers).toContain(m.defaultCamLayer);
    const { algorithms } = await call("ListAlgorithms", {});
    const ig = algorithms.find((a: any) => a.name === "IntegratedGradients");
    expect(ig.hasBaseline).toBe(true);
    expect(ig.params.find((p: any) => p.name === "n_steps")).toMatchObject({ type: "int", defaultValue: "50", min: 1 });
  });

  it("predicts a PNG and a raw tensor alike", async () => {
    const p = await call("Predict", { modelId: MODEL, imagePng: fashionPng });
    expect(p.predictedLabel).toBe("Ankle boot");
    expect(p.probabilities).toHaveLength(10);
    const img = PNG.sync.read(fashionPng);
    const data = Array.from({ length: 784 }, (_, i) => img.data[i * 4] / 255);
    const t = await call("Predict", { modelId: MODEL, imageTensor: { shape: [28, 28, 1], data } });
    expect(t.predictedClass).toBe(p.predictedClass);
    for (let i = 0; i < 10; i++) expect(t.probabilities[i]).toBeCloseTo(p.probabilities[i], 4);
  });

  it("explains with IG: attribution, outputs at input and baseline, delta, heatmap and overlay PNGs", async () => {
    const r = await call("Explain", { modelId: MODEL, algorithm: "IntegratedGradients", params: { n_steps: "16" }, imagePng: fashionPng, target: -1 });
    expect(r.attribution.shape).toEqual([1, 28, 28, 1]);
    expect(r.attribution.data).toHaveLength(784);
    expect(r.target).toBe(9);
    expect(r.predictedClass).toBe(9);
    expect(r.output).toHaveLength(10);
    expect(r.baselineOutput).toHaveLength(10);
    expect(r.hasBaseline).toBe(true);
    const sum = r.attribution.data.reduce((a: number, b: number) => a + b, 0);
    expect(r.delta).toBeCloseTo(sum - (r.output[9] - r.baselineOutput[9]), 2);
    for (const png of [r.heatmapPng, r.overlayPng]) {
      const decoded = PNG.sync.read(png);
      expect([decoded.width, decoded.height]).toEqual([28, 28]);
    }
  });

  it("explains a chosen target with a method without baseline, params as JSON", async () => {
    const r = await call("Explain", { modelId: MODEL, algorithm: "Saliency", paramsJson: '{"abs": false}', imagePng: fashionPng, target: 3 });
    expect(r.target).toBe(3);
    expect(r.hasBaseline).toBe(false);
    expect(r.baselineOutput).toEqual([]);
    expect(r.attribution.data.some((v: number) => v < 0)).toBe(true); // abs=false kept signs
  });

  it("answers bad input with INVALID_ARGUMENT and a message saying what to change, then still serves", async () => {
    expect(await invalid("Explain", { modelId: "nope", algorithm: "Saliency", imagePng: fashionPng })).toMatch(/unknown model "nope"; available models:/);
    expect(await invalid("Explain", { modelId: MODEL, algorithm: "Magic", imagePng: fashionPng })).toMatch(/unknown attribution method "Magic"/);
    expect(await invalid("Explain", { modelId: MODEL, algorithm: "Saliency", imagePng: scenesPng })).toMatch(
      /32×32 pixels but model resnet-fashion-mnist takes 28×28/,
    );
    expect(await invalid("Predict", { modelId: MODEL, imagePng: Buffer.from("GIF89a not a png") })).toMatch(/neither PNG nor JPEG/);
    expect(await invalid("Predict", { modelId: MODEL })).toMatch(/no image/);
    expect(await invalid("Predict", { modelId: MODEL, imageTensor: { shape: [28, 28, 3], data: [] } })).toMatch(/takes \[28, 28, 1\]/);
    expect(await invalid("Explain", { modelId: MODEL, algorithm: "IntegratedGradients", params: { n_steps: "0" }, imagePng: fashionPng })).toMatch(
      /n_steps.*between 1 and/,
    );
    expect(await invalid("Explain", { modelId: MODEL, algorithm: "IntegratedGradients", params: { colour: "red" }, imagePng: fashionPng })).toMatch(
      /no parameter "colour"/,
    );
    expect(await invalid("Explain", { modelId: MODEL, algorithm: "Saliency", imagePng: fashionPng, target: 10 })).toMatch(/target 10 is not a class/);
    expect(await invalid("Explain", { modelId: MODEL, algorithm: "Saliency", imagePng: fashionPng, paramsJson: "[1" })).toMatch(
      /params_json is not valid JSON/,
    );
    const after = await call("Predict", { modelId: MODEL, imagePng: fashionPng });
    expect(after.predictedClass).toBe(9);
  });

  it("reports the device: a CPU host says so", async () => {
    const r = await call("ReportGpu", {});
    expect(r.gpuIndex).toBe(-1);
    expect(r.cpuOnly).toBe(true);
    expect(r.device).toBe("cpu (wasm)");
    expect(r.workers).toBe(1);
    expect(r.maxCompute).toBe(1);
  });
});
