// A suite pins each task's checkpoint (suite.json evaluation.checkpoints): two suites share
// task ids with different networks (metarank-local and metarank-local-v1), so the pin, not the
// task id, decides which weights a run uses; a pin must name one of the suite's tasks, and a
// pinned checkpoint of another architecture or dataset is refused like an unpinned one.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SuiteConfigError, pinnedCheckpoint, readSuite } from "../../sidecar/inference/evaluation/suite.ts";
import { TaskUnavailableError, checkpointCandidates, suiteCheckpoints, taskAvailability } from "../../sidecar/inference/evaluation/taskCheckpoints.ts";
import { loadTaskNet } from "../../sidecar/inference/evaluation/tasks.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pins-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function suiteWith(checkpoints: unknown): string {
  const dir = fs.mkdtempSync(path.join(tmp, "s-"));
  const json = {
    id: "pin-test",
    tasks: ["fashionmnist_resnet", "scenes_vgg"],
    grid: [0, 0.5, 1],
    evaluation: { split: "test", images: 2, backend: "wasm", methods: [], checkpoints },
  };
  fs.writeFileSync(path.join(dir, "suite.json"), JSON.stringify(json));
  return dir;
}

describe("checkpoint pins", () => {
  it("the pin alone is tried when there is one; otherwise the task id, then <arch>-<dataset>", () => {
    expect(checkpointCandidates("fashionmnist_resnet")).toEqual(["fashionmnist_resnet", "resnet-fashion-mnist"]);
    expect(checkpointCandidates("textures_vgg")).toEqual(["textures_vgg", "vgg-textured-shapes"]);
    expect(checkpointCandidates("fashionmnist_resnet", "resnet-fashion-mnist-v2")).toEqual(["resnet-fashion-mnist-v2"]);
  });

  it("refuses a pin for a task the suite does not have, and a pin that is not a checkpoint id", () => {
    expect(() => readSuite(suiteWith({ imagenet_vgg19: "vgg-fashion-mnist" }))).toThrow(SuiteConfigError);
    expect(() => readSuite(suiteWith({ imagenet_vgg19: "vgg-fashion-mnist" }))).toThrow(/not one of the suite's tasks/);
    expect(() => readSuite(suiteWith({ scenes_vgg: "../../etc/passwd" }))).toThrow(/must be a checkpoint id/);
    expect(() => readSuite(suiteWith(["vgg-scenes"]))).toThrow(/must be an object/);
    expect(pinnedCheckpoint(readSuite(suiteWith({ scenes_vgg: "vgg-scenes" })), "scenes_vgg")).toBe("vgg-scenes");
  });

  it("a pinned checkpoint of another architecture is refused by the loader and reported unavailable", () => {
    expect(() => loadTaskNet("fashionmnist_resnet", undefined, "vgg-fashion-mnist")).toThrow(TaskUnavailableError);
    expect(() => loadTaskNet("fashionmnist_resnet", undefined, "vgg-fashion-mnist")).toThrow(/is vgg on fashion-mnist/);
    const a = taskAvailability("fashionmnist_resnet", undefined, "no-such-checkpoint");
    expect(a.available).toBe(false);
    expect(a.problem).toMatch(/no-such-checkpoint/);
  });

  it("the two local suites give the same task ids the networks their pins name, each the one its committed results name", () => {
    const v1 = readSuite("metarank-local-v1");
    const v2 = readSuite("metarank-local");
    const shared = v1.tasks.filter((t) => v2.tasks.includes(t));
    expect(shared.length).toBe(6);
    const a = suiteCheckpoints(v1, shared);
    const b = suiteCheckpoints(v2, shared);
    let differ = 0;
    for (const t of shared) {
      expect(a[t].id).toBe(pinnedCheckpoint(v1, t));
      expect(b[t].id).toBe(pinnedCheckpoint(v2, t));
      if (a[t].id !== b[t].id) {
        differ++;
        expect(a[t].weightsSha256).not.toBe(b[t].weightsSha256);
      }
    }
    // Every one of the six was retrained for metarank-local (sidecar/zoo/README.md).
    expect(differ).toBe(6);
    for (const [s, folder] of [
      [v1, "saliency"],
      [v2, "saliency"],
    ] as const) {
      const rec = JSON.parse(fs.readFileSync(path.join(s.dir, folder, "images.json"), "utf8")) as { checkpoints: Record<string, unknown> };
      expect(rec.checkpoints).toEqual(suiteCheckpoints(s, s.tasks));
    }
  });
});
