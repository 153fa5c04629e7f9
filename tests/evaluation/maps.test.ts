// Uploaded maps (docs/evaluation.md "Path 2: attribution maps from any framework"): the validation
// messages a researcher sees (wrong shape, count, dtype, NaN, a missing or unknown task), and that
// a method's own maps, given back to the engine — in this thread and through the pool — reproduce
// that method's per-image outcomes.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { getAlgorithm } from "../../sidecar/inference/attribution/index.ts";
import { evaluateIndices, evaluateIndicesWithMaps } from "../../sidecar/inference/evaluation/engine.ts";
import { MapsError, validateMaps, type TaskMapsFile } from "../../sidecar/inference/evaluation/maps.ts";
import { writeNpy } from "../../sidecar/inference/evaluation/npy.ts";
import { EvaluationPool } from "../../sidecar/inference/evaluation/pool.ts";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { GRID11, SIZE, keyPatchNet, mixedImages } from "./fixtures.ts";

const SUITE = { id: "toy", tasks: ["a_net", "b_net"], images: 4 };
const SHAPES = { a_net: [6, 5, 1], b_net: [6, 5, 3] } as const;

const ramp = (n: number) => Float32Array.from({ length: n }, (_, k) => (k % 17) - 8);
const npy = (shape: number[]) => writeNpy(ramp(shape.reduce((a, b) => a * b, 1)), shape);
const good = (): TaskMapsFile[] => [
  { task: "a_net", npy: npy([4, 6, 5]) },
  { task: "b_net", npy: npy([4, 6, 5, 3]) },
];

function message(files: TaskMapsFile[]): string {
  try {
    validateMaps(SUITE, SHAPES, files);
  } catch (err) {
    expect(err).toBeInstanceOf(MapsError);
    return (err as Error).message;
  }
  throw new Error("expected a MapsError");
}

describe("validating uploaded maps", () => {
  it("accepts N×H×W and N×H×W×C, summing channels into one map per image", () => {
    const maps = validateMaps(SUITE, SHAPES, good());
    expect(maps.a_net).toEqual(ramp(4 * 6 * 5));
    const raw = ramp(4 * 6 * 5 * 3);
    expect(maps.b_net).toHaveLength(4 * 6 * 5);
    for (const p of [0, 7, 119]) expect(maps.b_net[p]).toBe(raw[3 * p] + raw[3 * p + 1] + raw[3 * p + 2]);
  });

  it("names the task and the expected and actual shape, count and channels", () => {
    const [a, b] = good();
    expect(message([{ task: "a_net", npy: npy([4, 30]) }, b])).toBe(
      "a_net.npy: expected shape 4×6×5 or 4×6×5×1 (maps × height × width [× channels]), got 4×30 (2 dimensions)",
    );
    expect(message([{ task: "a_net", npy: npy([3, 6, 5]) }, b])).toBe(
      "a_net.npy: expected 4 maps (one per image of the suite's evaluation split, in the kit's image order), got 3 (shape 3×6×5)",
    );
    expect(message([a, { task: "b_net", npy: npy([4, 5, 6, 3]) }])).toBe(
      "b_net.npy: expected maps of 6×5 pixels (the task's input size), got 5×6 (shape 4×5×6×3)",
    );
    expect(message([a, { task: "b_net", npy: npy([4, 6, 5, 2]) }])).toBe(
      "b_net.npy: expected 3 channels (the task's input) or no channel axis, got 2 (shape 4×6×5×2)",
    );
  });

  it("says where the first NaN or infinity is, as a numpy index", () => {
    const [, b] = good();
    const data = ramp(4 * 6 * 5);
    data[2 * 30 + 3 * 5 + 4] = NaN;
    expect(message([{ task: "a_net", npy: writeNpy(data, [4, 6, 5]) }, b])).toBe("a_net.npy: maps must hold finite numbers; the first NaN is at [2, 3, 4]");
    data[0] = -Infinity;
    expect(message([{ task: "a_net", npy: writeNpy(data, [4, 6, 5]) }, b])).toMatch(/first infinity is at \[0, 0, 0\]$/);
  });

  it("a wrong dtype from numpy, a missing task, an unknown task, a task twice", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "maps-test-"));
    try {
      execFileSync("python3", ["-c", `import numpy as np; np.save(${JSON.stringify(dir)} + "/a.npy", np.zeros((4, 6, 5)))`]);
      const [, b] = good();
      expect(message([{ task: "a_net", npy: new Uint8Array(fs.readFileSync(path.join(dir, "a.npy"))) }, b])).toBe(
        "a_net.npy: expected float32 or float16, got float64 ('<f8'); convert with maps.astype(numpy.float32)",
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const [a, b] = good();
    expect(message([a])).toBe("no maps for task b_net: suite toy is scored on all its tasks, one <task>.npy each (a_net, b_net)");
    expect(message([])).toMatch(/^no maps for tasks a_net, b_net:/);
    expect(message([a, b, { task: "c_net", npy: npy([4, 6, 5]) }])).toBe(
      'maps for task "c_net", which suite toy does not have (its tasks: a_net, b_net); name each file <task>.npy',
    );
    expect(message([a, a, b])).toBe("task a_net has maps twice; give one a_net.npy");
  });
});

describe("a method's own maps, given back, reproduce the method", () => {
  const settings = { patchSize: 2, filler: [0], grid: GRID11 };
  const N = 9;
  const loaderModule = new URL("./fixtures.ts", import.meta.url).href;

  beforeAll(async () => {
    await initBackend("cpu");
  });

  it("Saliency's maps → .npy → validated maps → engine and pool: identical per-image MoRF/LeRF", async () => {
    const net = keyPatchNet();
    const split = mixedImages(N);
    const indices = Array.from({ length: N }, (_, i) => i);
    const method = await evaluateIndicesWithMaps(net, { kind: "method", algorithm: getAlgorithm("Saliency"), params: {} }, settings, split, indices);
    // The record of evaluateIndices (the registry path as before the split) is the same.
    expect(method.map((m) => m.result)).toEqual(await evaluateIndices(net, getAlgorithm("Saliency"), {}, settings, split, indices));
    const stacked = new Float32Array(N * SIZE * SIZE);
    method.forEach((m, i) => stacked.set(m.map, i * SIZE * SIZE));
    const suite = { id: "keypatch", tasks: ["keypatch_mixed"], images: N };
    const maps = validateMaps(suite, { keypatch_mixed: [SIZE, SIZE, 1] }, [{ task: "keypatch_mixed", npy: writeNpy(stacked, [N, SIZE, SIZE]) }]);
    const given = await evaluateIndicesWithMaps(
      net,
      { kind: "given", map: (i) => maps.keypatch_mixed.subarray(i * SIZE * SIZE, (i + 1) * SIZE * SIZE) },
      settings,
      split,
      indices,
    );
    expect(given.map((g) => g.result)).toEqual(method.map((m) => m.result));
    // Not vacuous: the outcomes differ between images, and other maps give other outcomes.
    expect(new Set(given.map((g) => g.result.morf.join(""))).size).toBeGreaterThan(1);
    const flipped = await evaluateIndicesWithMaps(
      net,
      { kind: "given", map: (i) => maps.keypatch_mixed.subarray(i * SIZE * SIZE, (i + 1) * SIZE * SIZE).map((v) => -v) },
      settings,
      split,
      indices,
    );
    expect(flipped.map((g) => g.result.morf)).not.toEqual(given.map((g) => g.result.morf));

    const pool = new EvaluationPool({ workers: 2, backend: "cpu", loaderModule });
    try {
      const viaPool = await pool.runWithMaps({
        taskId: "keypatch_mixed",
        algorithm: "",
        params: {},
        settings,
        images: N,
        maps: maps.keypatch_mixed,
        returnMaps: true,
      });
      expect(viaPool.map((r) => r.result)).toEqual(method.map((m) => m.result));
      expect(viaPool.map((r) => Array.from(r.map!))).toEqual(method.map((m) => Array.from(m.map)));
      // The registry path through the pool is unchanged.
      expect(await pool.run({ taskId: "keypatch_mixed", algorithm: "Saliency", params: {}, settings, images: N })).toEqual(method.map((m) => m.result));
    } finally {
      await pool.close();
    }
  });
});
