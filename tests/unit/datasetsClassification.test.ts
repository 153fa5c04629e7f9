// App-side pieces of the classification demo that need no sidecar: the ResNet18 slot binding
// and the model input (heatmaps are drawn by the sidecar: tests/inference/heatmap.test.ts).
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { modelInput, modelOptions, type TrainedModel } from "../../app/.server/classification.server.ts";

const model = (over: Partial<TrainedModel>): TrainedModel => ({
  id: "x",
  dataset: "fashion-mnist",
  arch: "resnet",
  inputHeight: 28,
  inputWidth: 28,
  inputChannels: 1,
  classNames: [],
  testAccuracy: 0.9,
  trainedAt: "2026-11-21T00:00:00Z",
  ...over,
});
const MODELS = [
  model({ id: "fashion-mnist-resnet", dataset: "fashion-mnist" }),
  model({ id: "fashion-mnist-vgg", dataset: "fashion-mnist", arch: "vgg" }),
  model({ id: "scenes-resnet", dataset: "scenes", inputHeight: 32, inputWidth: 32, inputChannels: 3 }),
];

describe("ResNet18 slot", () => {
  it("binds to the ResNet-style model trained on the dataset's data", () => {
    expect(modelOptions(MODELS, "fashion-mnist")).toEqual([{ value: "fashion-mnist-resnet", label: "ResNet18" }]);
    expect(modelOptions(MODELS, "scenes")).toEqual([{ value: "scenes-resnet", label: "ResNet18" }]);
  });
  it("takes the most accurate of several ResNet-18-style models of the same data, never the ResNet-50-style one", () => {
    const more = [
      ...MODELS,
      model({ id: "fashion-mnist-resnet-v2", testAccuracy: 0.92 }),
      model({ id: "fashion-mnist-resnet-old", testAccuracy: 0.8 }),
      model({ id: "resnet50-scenes", dataset: "scenes", arch: "resnet50", testAccuracy: 0.99 }),
    ];
    expect(modelOptions(more, "fashion-mnist")).toEqual([{ value: "fashion-mnist-resnet-v2", label: "ResNet18" }]);
    expect(modelOptions(more, "scenes")).toEqual([{ value: "scenes-resnet", label: "ResNet18" }]);
    expect(modelOptions(more, null).map((o) => o.value)).toEqual(["fashion-mnist-resnet-v2", "scenes-resnet"]);
  });
  it("offers every ResNet-style model, named by its data, for pictures of unknown kind", () => {
    expect(modelOptions(MODELS, null).map((o) => o.value)).toEqual(["fashion-mnist-resnet", "scenes-resnet"]);
    // A message ref, translated where the option is shown ("ResNet18 (trained on Fashion-MNIST)").
    expect(modelOptions(MODELS, null)[0].label).toBe('demo:modelTrainedOn|{"data":"Fashion-MNIST"}');
    expect(modelOptions([], "scenes")).toEqual([]);
    // Known data without a model trained on it: nothing, rather than a model of other data.
    expect(modelOptions(MODELS.slice(0, 2), "scenes")).toEqual([]);
  });
});

describe("model input", () => {
  it("resizes any picture to the model's height, width and channels", async () => {
    const jpg = fs.readFileSync(path.join(__dirname, "../fixtures/images/red.jpg"));
    // The PNG's own header (not a decoder's conversion) says how many channels were sent.
    const grey = await sharp(await modelInput(jpg, MODELS[0])).metadata();
    expect([grey.width, grey.height, grey.channels]).toEqual([28, 28, 1]);
    const rgb = await sharp(await modelInput(jpg, MODELS[2])).metadata();
    expect([rgb.width, rgb.height, rgb.channels]).toEqual([32, 32, 3]);
  });
});
