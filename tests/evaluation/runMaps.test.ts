// Evaluation.RunMaps end to end (docs/evaluation.md "Path 2: attribution maps from any framework"):
// maps written by Debian's python3-numpy with docs/examples/save_maps.py from a kit's images go to
// a real sidecar process; it streams progress (every image, to the total) and one result whose
// files are the platform's MoRF/LeRF of those maps. Bad uploads are refused INVALID_ARGUMENT with
// the validation message.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeNpy } from "../../sidecar/inference/evaluation/npy.ts";
import { ROOT, SPLIT, SUITE_ID, TASKS, readZip, runMaps, startSidecar, writeKitImages, writeTestSuite, type Sidecar } from "./mapsSidecar.ts";

let dir: string;
let sidecar: Sidecar;
let maps: Record<string, Buffer>;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "runmaps-test-"));
  writeTestSuite(dir);
  // A shipped suite too, metarank-local-v1 (its suite.json alone: the sidecar evaluates on its installed checkpoints).
  fs.mkdirSync(path.join(dir, "suites/metarank-local-v1"));
  fs.copyFileSync(path.join(ROOT, "seeds/suites/metarank-local-v1/suite.json"), path.join(dir, "suites/metarank-local-v1/suite.json"));
  writeKitImages(path.join(dir, "kit"));
  // As a researcher runs it: python3 + numpy only.
  execFileSync("python3", [path.join(ROOT, "docs/examples/save_maps.py"), path.join(dir, "kit"), path.join(dir, "maps.zip")]);
  maps = await readZip(path.join(dir, "maps.zip"));
  sidecar = await startSidecar(path.join(dir, "suites"));
}, 120_000);

afterAll(async () => {
  await sidecar?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const request = (files: Record<string, Uint8Array>, methodName = "Sobel edges") => ({
  suiteId: SUITE_ID,
  methodName,
  maps: Object.entries(files).map(([name, npy]) => ({ task: name.replace(/\.npy$/, ""), npy })),
});

describe("RunMaps", () => {
  it("save_maps.py's numpy maps: progress for every image, then the result files", async () => {
    expect(Object.keys(maps).sort()).toEqual(TASKS.map((t) => `${t}.npy`).sort());
    const { events, error } = await runMaps(sidecar.client, request(maps));
    expect(error).toBeNull();
    const progress = events.filter((e) => e.progress).map((e) => e.progress!);
    const results = events.filter((e) => e.result).map((e) => e.result!);
    expect(results).toHaveLength(1);
    expect(events.at(-1)!.result).toBeDefined();
    const total = TASKS.length * SPLIT;
    expect(progress.every((p) => p.imagesTotal === total && p.taskCount === TASKS.length)).toBe(true);
    const done = progress.map((p) => p.imagesDone);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    for (let k = 1; k <= total; k++) expect(done).toContain(k);
    expect(progress.at(-1)).toMatchObject({ imagesDone: total, task: TASKS[1], taskNumber: 2 });

    const r = results[0];
    expect(r).toMatchObject({ tasks: TASKS, imagesPerTask: SPLIT, paramsJson: "{}", backend: "wasm" });
    expect(r.seconds).toBeGreaterThan(0);
    for (const csv of [r.morfCsv, r.lerfCsv]) {
      const lines = csv.trim().split("\n");
      expect(lines[0]).toBe("task,0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1");
      expect(lines.slice(1).map((l: string) => l.split(",")[0])).toEqual(TASKS);
      for (const l of lines.slice(1)) for (const v of l.split(",").slice(1).map(Number)) expect(v * SPLIT).toBeCloseTo(Math.round(v * SPLIT), 4);
    }
    // Nothing removed (fraction 0) and everything removed (1) do not depend on the order: MoRF = LeRF there.
    const rows = (csv: string) =>
      csv
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.split(",").slice(1).map(Number));
    const [morf, lerf] = [rows(r.morfCsv), rows(r.lerfCsv)];
    for (let t = 0; t < TASKS.length; t++) {
      expect(morf[t][0]).toBe(lerf[t][0]);
      expect(morf[t][10]).toBe(lerf[t][10]);
    }
    // The order does matter in between: edges first and edges last give different curves.
    expect(morf).not.toEqual(lerf);
    const images = JSON.parse(r.imagesJson);
    expect(images).toMatchObject({ suite: SUITE_ID, source: "maps", method: "Sobel edges", images: SPLIT });
    for (const t of TASKS) {
      expect(images.mapsSha256[t]).toBe(crypto.createHash("sha256").update(maps[`${t}.npy`]).digest("hex"));
      expect(images.tasks[t].morf).toHaveLength(SPLIT);
    }
    expect(r.localisation.map((l: { task: string }) => l.task)).toEqual(["scenes_resnet"]);
  }, 120_000);

  it("the whole of metarank-local-v1 (6 tasks × 100 images): the platform's accuracies before and after removing everything", async () => {
    const local = JSON.parse(fs.readFileSync(path.join(ROOT, "seeds/suites/metarank-local-v1/suite.json"), "utf8"));
    const kit = path.join(dir, "full-kit");
    writeKitImages(kit, local.tasks, local.evaluation.images);
    execFileSync("python3", [path.join(ROOT, "docs/examples/save_maps.py"), kit, path.join(dir, "full.zip")]);
    const full = await readZip(path.join(dir, "full.zip"));
    const t0 = performance.now();
    const { events, error } = await runMaps(sidecar.client, {
      suiteId: "metarank-local-v1",
      methodName: "Sobel edges",
      maps: local.tasks.map((task: string) => ({ task, npy: full[`${task}.npy`] })),
    });
    console.info(
      `RunMaps, metarank-local-v1 (${local.tasks.length} tasks × ${local.evaluation.images} images): ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    expect(error).toBeNull();
    const result = events.at(-1)!.result!;
    expect(events.filter((e) => e.progress).at(-1)!.progress!.imagesDone).toBe(local.tasks.length * local.evaluation.images);
    // At fraction 0 nothing is removed and at 1 everything is: those columns are the models' own
    // (independent of any map), so they equal the committed Saliency baseline's.
    const cols = (csv: string) =>
      csv
        .trim()
        .split("\n")
        .map((l) =>
          l
            .split(",")
            .filter((_, k) => k <= 1 || k === 11)
            .join(","),
        );
    const baseline = fs.readFileSync(path.join(ROOT, "seeds/suites/metarank-local-v1/saliency/morf.csv"), "utf8");
    expect(cols(result.morfCsv)).toEqual(cols(baseline));
    expect(cols(result.lerfCsv)).toEqual(cols(fs.readFileSync(path.join(ROOT, "seeds/suites/metarank-local-v1/saliency/lerf.csv"), "utf8")));
    expect(result.morfCsv).not.toBe(baseline);
  }, 180_000);

  it("refuses bad maps with the validation message, before any thread starts", async () => {
    const bad = async (req: object) => {
      const { events, error } = await runMaps(sidecar.client, req);
      expect(events).toEqual([]);
      expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
      return error!.details;
    };
    const fashion = maps["fashionmnist_resnet.npy"];
    expect(await bad(request({ "fashionmnist_resnet.npy": fashion }))).toMatch(/^no maps for task scenes_resnet: suite maps-test is scored on all its tasks/);
    expect(await bad(request({ ...maps, "fashionmnist_resnet.npy": writeNpy(new Float32Array(5 * 28 * 28), [5, 28, 28]) }))).toBe(
      "fashionmnist_resnet.npy: expected 6 maps (one per image of the suite's evaluation split, in the kit's image order), got 5 (shape 5×28×28)",
    );
    expect(await bad(request({ ...maps, "scenes_resnet.npy": fashion }))).toBe(
      "scenes_resnet.npy: expected maps of 32×32 pixels (the task's input size), got 28×28 (shape 6×28×28)",
    );
    expect(await bad(request({ ...maps, "other_task.npy": fashion }))).toMatch(/^maps for task "other_task", which suite maps-test does not have/);
    expect(await bad(request(maps, " "))).toMatch(/^method_name is required/);
    expect(await bad({ ...request(maps), suiteId: "nope" })).toMatch(/^unknown suite "nope"/);
  }, 60_000);
});
