// The committed baselines of the platform's own suites (metarank-local and the earlier
// metarank-local-v1) are reproducible: re-running one method on one task for the first few
// images gives exactly the committed per-image outcomes, the committed CSVs are the column
// means of those outcomes, and every committed result file passes the platform's own parser.
import fs from "node:fs";
import path from "node:path";
import { describe, it, expect, beforeAll } from "vitest";
import { initEvaluationBackend, serveTaskNet } from "../../sidecar/inference/evaluation/backend.ts";
import { getAlgorithm } from "../../sidecar/inference/attribution/index.ts";
import { evaluateIndices } from "../../sidecar/inference/evaluation/engine.ts";
import { accuracyCell, fractionCell } from "../../sidecar/inference/evaluation/resultFiles.ts";
import { pinnedCheckpoint, readSuite } from "../../sidecar/inference/evaluation/suite.ts";
import { taskCheckpoint } from "../../sidecar/inference/evaluation/taskCheckpoints.ts";
import { loadTask } from "../../sidecar/inference/evaluation/tasks.ts";
import { parseResultFile } from "../../sidecar/metascore/resultFile.ts";

interface ImagesJson {
  algorithm: string;
  params: Record<string, unknown>;
  backend: string;
  images: number;
  checkpoints: Record<string, { id: string; weightsSha256: string }>;
  tasks: Record<string, { morf: string[]; lerf: string[]; localisation?: Array<number | null> }>;
}
const CLASSIC = ["Deconvolution", "GradCAM", "GradientShap", "GuidedBackprop", "InputXGradient", "IntegratedGradients", "Saliency", "SmoothGrad"];

describe.each(["metarank-local", "metarank-local-v1"])("committed baseline of %s", (SUITE) => {
  const suite = readSuite(SUITE);
  const evaluation = suite.evaluation!;
  const readImages = (folder: string) => JSON.parse(fs.readFileSync(path.join(suite.dir, folder, "images.json"), "utf8")) as ImagesJson;

  it("lists the eight classic methods, each with a complete folder the parser accepts", () => {
    expect(evaluation.methods.map((m) => m.algorithm)).toEqual(expect.arrayContaining(CLASSIC));
    for (const m of evaluation.methods) {
      for (const protocol of ["morf", "lerf"] as const) {
        const file = path.join(suite.dir, m.folder, `${protocol}.csv`);
        const parsed = parseResultFile(fs.readFileSync(file), { fileName: file, tasks: suite.tasks, grid: suite.settings.grid });
        expect(parsed.ok, `${file}: ${JSON.stringify(parsed)}`).toBe(true);
      }
      const meta = JSON.parse(fs.readFileSync(path.join(suite.dir, m.folder, "method.json"), "utf8"));
      expect(meta).toMatchObject({ contributor: "Meta-Rank baseline", algorithm: m.algorithm });
    }
  });

  it("every CSV row is the column mean of the committed per-image outcomes", () => {
    for (const m of evaluation.methods) {
      const rec = readImages(m.folder);
      expect(rec).toMatchObject({ algorithm: m.algorithm, params: m.params, backend: evaluation.backend, images: evaluation.images });
      for (const protocol of ["morf", "lerf"] as const) {
        const lines = fs
          .readFileSync(path.join(suite.dir, m.folder, `${protocol}.csv`), "utf8")
          .trim()
          .split("\n");
        expect(lines[0]).toBe(["task", ...suite.settings.grid.map(fractionCell)].join(","));
        for (const line of lines.slice(1)) {
          const [task, ...cells] = line.split(",");
          const strings = rec.tasks[task][protocol];
          expect(strings).toHaveLength(evaluation.images);
          const means = suite.settings.grid.map((_, g) => strings.reduce((s, str) => s + Number(str[g]), 0) / strings.length);
          expect(cells).toEqual(means.map(accuracyCell));
        }
      }
      const locFile = path.join(suite.dir, m.folder, "localisation.json");
      // Tasks whose images have object masks (the generated sets) record localisation.
      const sceneTasks = suite.tasks.filter((t) => rec.tasks[t].localisation);
      if (sceneTasks.length > 0) {
        const loc = JSON.parse(fs.readFileSync(locFile, "utf8")) as Record<string, number | null>;
        expect(Object.keys(loc).sort()).toEqual([...sceneTasks].sort());
        for (const t of sceneTasks) {
          const vals = rec.tasks[t].localisation!.filter((v): v is number => v !== null);
          expect(loc[t]).toBeCloseTo(vals.reduce((a, b) => a + b, 0) / vals.length, 5);
        }
      }
    }
  });

  describe("re-running a slice", () => {
    beforeAll(async () => {
      await initEvaluationBackend(evaluation.backend);
    });

    // One cheap method on the first and the last task (one Fashion-MNIST and one scene
    // task when both are in the suite), the first 4 images: the same strings come back.
    const slices = [
      { algorithm: "Saliency", task: suite.tasks[0] },
      { algorithm: "GradCAM", task: suite.tasks[suite.tasks.length - 1] },
    ];
    it.each(slices)("$algorithm on $task, images 0–3", async ({ algorithm, task }) => {
      const m = evaluation.methods.find((x) => x.algorithm === algorithm)!;
      const rec = readImages(m.folder);
      // Same weights as the committed run, or the comparison below means nothing.
      const pinned = pinnedCheckpoint(suite, task);
      expect(taskCheckpoint(task, undefined, pinned), `checkpoint of ${task} changed since the baseline was computed; regenerate it`).toEqual(
        rec.checkpoints[task],
      );
      const committed = rec.tasks[task];
      const { net: loaded, split } = await loadTask(task, evaluation.images, pinned);
      // On the "onnxruntime" backend the net runs natively, as the committed run's did.
      const net = await serveTaskNet(loaded, evaluation.backend, 1);
      const results = await evaluateIndices(net, getAlgorithm(algorithm), m.params, suite.settings, split, [0, 1, 2, 3]);
      expect(results.map((r) => r.morf.join(""))).toEqual(committed.morf.slice(0, 4));
      expect(results.map((r) => r.lerf.join(""))).toEqual(committed.lerf.slice(0, 4));
      if (committed.localisation) {
        results.forEach((r, i) => {
          if (committed.localisation![i] === null) expect(r.localisation).toBeNull();
          else expect(r.localisation).toBeCloseTo(committed.localisation![i]!, 5);
        });
      }
    });
  });
});
