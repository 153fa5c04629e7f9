// The MultiLabel service through a real sidecar process (tsx sidecar/main.ts, one pool worker):
// the committed multi-label ResNet is listed with its held-out mAP; Classify ranks five classes
// with sigmoid probabilities that agree with their logits; Explain runs Feature_Ablation and LIME
// for one class through the pool; bad input (unknown model or method, wrong size, a class or
// top_k out of range) answers INVALID_ARGUMENT with a message saying what to change.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metarankV1 } from "../../proto/contract.ts";
import { ROOT, freePort } from "../support/stack.ts";
import { TEST_CALL_KEY, presentKey } from "../support/callKey.ts";
import { encodePng } from "../../sidecar/data/png.ts";
import { MULTILABEL_CLASSES, multiLabelScene } from "../../sidecar/data/vocMultilabel.ts";

const MODEL = "resnet-seg-scenes-multilabel";
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
  return encodePng({ height: 32, width: 32, channels: 3, data: multiLabelScene("test", index).pixels });
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
      // A job's time limit counts from submission, so it includes the worker's first start
      // (tfjs runtime and checkpoint): seconds on a loaded 2-core machine. Generous here; the
      // limit itself is tested in tests/inference/poolBounds.test.ts.
      SIDECAR_MS_PER_EVALUATION: "20000",
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  sidecar.stdout!.on("data", (d) => (output += d));
  sidecar.stderr!.on("data", (d) => (output += d));
  const MultiLabel = metarankV1("metarank/v1/multilabel.proto").MultiLabel;
  client = new MultiLabel(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), { interceptors: [presentKey()] }) as unknown as typeof client;
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
    expect(await invalid("Classify", { modelId: "nope", imagePng: scenePng(0) })).toMatch(
      /unknown multi-label model "nope"; available: .*resnet-seg-scenes-multilabel/,
    );
    expect(await invalid("Classify", { modelId: MODEL, imagePng: scenePng(0), topK: 21 })).toMatch(/top_k must be from 1 to 20/);
    expect(await invalid("Explain", { modelId: MODEL, imagePng: scenePng(0), algorithm: "Saliency", targetClass: 0 })).toMatch(
      /choose Feature_Ablation or LIME/,
    );
    expect(await invalid("Explain", { modelId: MODEL, imagePng: scenePng(0), algorithm: "LIME", targetClass: 6 })).toMatch(/from 0 to 5/);
    const big = encodePng({ height: 40, width: 40, channels: 3, data: new Float32Array(40 * 40 * 3) });
    expect(await invalid("Classify", { modelId: MODEL, imagePng: big })).toMatch(/40×40 pixels but model .* takes 32×32/);
    expect(await invalid("Classify", { modelId: MODEL, imagePng: Buffer.from("not an image") })).toMatch(/neither PNG nor JPEG/);
  });
});
