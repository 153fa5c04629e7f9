// An imported model through a real sidecar process (tsx sidecar/main.ts, its worker pool), the way
// the web app reaches it: the zoo's vgg-scenes exported to ONNX and imported into a throwaway
// IMPORTED_MODEL_DIR is listed by ListModels beside the zoo's checkpoints (arch "onnx", the
// --dataset id, no accuracy measured), and Predict/Explain on it answer what they answer for the
// zoo's own vgg-scenes on the same picture (tolerance as tests/onnx/onnxImport.test.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metarankV1 } from "../../proto/contract.ts";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { readManifest } from "../../sidecar/zoo/checkpoint.ts";
import { exportCheckpoint } from "../../sidecar/zoo/onnx/export.ts";
import { importOnnxModel } from "../../sidecar/zoo/onnx/importOnnx.ts";
import { startTestSidecar, type TestSidecar } from "../support/sidecar.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const scenesPng = fs.readFileSync(path.join(root, "tests/fixtures/data/samples/scenes-0.png"));
const ZOO = "vgg-scenes";
const IMPORTED = "vgg-scenes-onnx";

let dir: string;
let sidecar: TestSidecar<typeof client> | undefined;
let client: grpc.Client & Record<string, Function>;

function call<Res = any>(method: string, request: unknown): Promise<Res> {
  return new Promise((resolve, reject) => {
    client[method](request, { deadline: new Date(Date.now() + 120_000) }, (err: grpc.ServiceError | null, res: Res) => (err ? reject(err) : resolve(res)));
  });
}

beforeAll(async () => {
  await initBackend("wasm");
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnx-serve-"));
  importOnnxModel(exportCheckpoint(ZOO), { id: IMPORTED, dataset: "scenes", classNames: readManifest(ZOO).classNames, dir, sourceName: `${ZOO}.onnx` });
  sidecar = await startTestSidecar<typeof client>(metarankV1("metarank/v1/inference.proto").Inference, {
    // A generous time limit per job: the first job on a worker loads the runtime and the model, which a starved CI machine makes slow.
    env: { IMPORTED_MODEL_DIR: dir, SIDECAR_MS_PER_EVALUATION: "30000" },
    client: { "grpc.max_receive_message_length": 64 << 20 },
  });
  client = sidecar.client;
});

afterAll(async () => {
  await sidecar?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("an imported ONNX model on the Inference service", () => {
  it("is listed beside the zoo's checkpoints with its dataset id and no accuracy", async () => {
    const { models, problems } = await call("ListModels", {});
    expect(problems).toEqual([]);
    const m = models.find((x: any) => x.id === IMPORTED);
    expect(m).toMatchObject({ arch: "onnx", dataset: "scenes", inputHeight: 32, inputWidth: 32, inputChannels: 3, defaultCamLayer: "block3" });
    expect(m.testSize ?? 0).toBe(0);
    expect(models.some((x: any) => x.id === ZOO)).toBe(true);
  });

  it("predicts and explains (GuidedBackprop, LayerGradCam) as the zoo's own network does", async () => {
    const zoo = await call("Predict", { modelId: ZOO, imagePng: scenesPng });
    const imported = await call("Predict", { modelId: IMPORTED, imagePng: scenesPng });
    expect(imported.predictedClass).toBe(zoo.predictedClass);
    for (let k = 0; k < zoo.logits.length; k++)
      expect(Math.abs(imported.logits[k] - zoo.logits[k])).toBeLessThanOrEqual(1e-4 * Math.max(1, Math.abs(zoo.logits[k])));
    for (const algorithm of ["GuidedBackprop", "LayerGradCam"]) {
      const a = await call("Explain", { modelId: ZOO, algorithm, params: {}, imagePng: scenesPng, target: -1 });
      const b = await call("Explain", { modelId: IMPORTED, algorithm, params: {}, imagePng: scenesPng, target: -1 });
      expect(b.attribution.shape).toEqual(a.attribution.shape);
      const scale = Math.max(...a.attribution.data.map(Math.abs));
      expect(scale).toBeGreaterThan(0);
      const diff = Math.max(...a.attribution.data.map((v: number, i: number) => Math.abs(v - b.attribution.data[i])));
      expect(diff, algorithm).toBeLessThanOrEqual(1e-4 * scale);
      expect(b.heatmapPng.length).toBeGreaterThan(0);
    }
  });

  it("answers an unknown id with the imported models among the available ones", async () => {
    const err = (await call("Predict", { modelId: "no-such-model", imagePng: scenesPng }).catch((e) => e)) as grpc.ServiceError;
    expect(err.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(err.details).toContain(IMPORTED);
  });
});
