// What the maps tests share: a small suite folder on the real tasks (two tasks, a split of a few
// images, so RunMaps — which needs every image of the split — stays quick), a kit-like folder of
// its images (tasks/<task>/images.npy, as the suite kit lays them out), a real sidecar process
// serving that folder, and a RunMaps call that collects the stream's events.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import yauzl from "yauzl";
import { metarankV1 } from "../../proto/contract.ts";
import { writeNpy } from "../../sidecar/inference/evaluation/npy.ts";
import { splitTaskId } from "../../sidecar/inference/evaluation/taskCheckpoints.ts";
import { evaluationImages } from "../../sidecar/inference/evaluation/tasks.ts";
import { startTestSidecar } from "../support/sidecar.ts";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const SUITE_ID = "maps-test";
export const TASKS = ["fashionmnist_resnet", "scenes_resnet"];
export const SPLIT = 6;

/** `<dir>/suites/maps-test/suite.json`: metarank-local-v1's settings on two tasks and a 6-image split. */
export function writeTestSuite(dir: string): string {
  const local = JSON.parse(fs.readFileSync(path.join(ROOT, "seeds/suites/metarank-local-v1/suite.json"), "utf8")) as Record<string, unknown>;
  const suiteDir = path.join(dir, "suites", SUITE_ID);
  fs.mkdirSync(suiteDir, { recursive: true });
  const suite = {
    id: SUITE_ID,
    name: "Maps test suite",
    description: "Two tasks of metarank-local-v1 on the first 6 images (tests of the maps path).",
    tasks: TASKS,
    patchSize: local.patchSize,
    filler: local.filler,
    grid: local.grid,
    evaluation: { split: "test", images: SPLIT, backend: "wasm", methods: [] },
  };
  fs.writeFileSync(path.join(suiteDir, "suite.json"), JSON.stringify(suite, null, 1));
  return suiteDir;
}

/** The kit's layout for the images a researcher computes maps from: tasks/<task>/images.npy, N×H×W×C float32. */
export function writeKitImages(kitDir: string, tasks: readonly string[] = TASKS, images = SPLIT): void {
  for (const task of tasks) {
    const split = evaluationImages(splitTaskId(task).dataset, images);
    fs.mkdirSync(path.join(kitDir, "tasks", task), { recursive: true });
    fs.writeFileSync(path.join(kitDir, "tasks", task, "images.npy"), writeNpy(split.images, [images, split.height, split.width, split.channels]));
  }
}

/** Every entry of a zip file, by name. */
export function readZip(file: string): Promise<Record<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const out: Record<string, Buffer> = {};
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => {
            out[entry.fileName] = Buffer.concat(chunks);
            zip.readEntry();
          });
        });
      });
      zip.on("end", () => resolve(out));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}

export interface Sidecar {
  client: grpc.Client & Record<string, Function>;
  stop(): Promise<void>;
}

/** A real sidecar process (tsx sidecar/main.ts) evaluating the suites under `suitesDir`. */
export function startSidecar(suitesDir: string, env: Record<string, string> = {}): Promise<Sidecar> {
  return startTestSidecar<Sidecar["client"]>(metarankV1("metarank/v1/evaluation.proto").Evaluation, {
    env: { EVALUATION_WORKERS: "2", EVALUATION_SUITES_DIR: suitesDir, ...env },
    client: { "grpc.max_send_message_length": 256 << 20 },
  });
}

export interface StreamOutcome {
  events: Array<{ progress?: Record<string, any>; result?: Record<string, any> }>;
  error: grpc.ServiceError | null;
}

/** Calls RunMaps and collects every event until the stream ends or fails. */
export function runMaps(client: Sidecar["client"], request: object): Promise<StreamOutcome> {
  return new Promise((resolve) => {
    const events: StreamOutcome["events"] = [];
    const call = client.RunMaps(request, { deadline: new Date(Date.now() + 300_000) }) as grpc.ClientReadableStream<any>;
    call.on("data", (e) => events.push(e));
    call.on("error", (error: grpc.ServiceError) => resolve({ events, error }));
    call.on("end", () => resolve({ events, error: null }));
  });
}
