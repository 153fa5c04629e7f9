// Path 1 of docs/evaluation.md "Evaluating your own method":
// `npm run -s evaluate -- --method-module docs/examples/edgeMethod.ts` writes the result files and
// maps.zip; uploading that maps.zip through RunMaps (path 2) to a real sidecar gives back the very
// same files — the platform verifies a method's numbers from its maps. A module without a function
// is refused with a message saying what to export.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readNpy } from "../../sidecar/inference/evaluation/npy.ts";
import { ROOT, SPLIT, SUITE_ID, TASKS, readZip, runMaps, startSidecar, writeTestSuite } from "./mapsSidecar.ts";

const run = promisify(execFile);
let dir: string;
let suiteDir: string;

function evaluate(...args: string[]) {
  return run(path.join(ROOT, "node_modules/.bin/tsx"), ["sidecar/inference/evaluation/cli.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, TENSOR_BACKEND: "wasm" },
  });
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "method-module-test-"));
  suiteDir = writeTestSuite(dir);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("evaluate --method-module", () => {
  it("the example module: csvs and maps.zip, and RunMaps on that maps.zip reproduces the csvs", async () => {
    const out = path.join(dir, "out");
    const t0 = performance.now();
    const { stdout, stderr } = await evaluate("--suite", suiteDir, "--method-module", "docs/examples/edgeMethod.ts", "--workers", "2", "--out", out);
    const seconds = (performance.now() - t0) / 1000;
    console.info(`example module: ${TASKS.length} tasks × ${SPLIT} images in ${seconds.toFixed(1)} s (process included)`);
    expect(
      stdout
        .trim()
        .split("\n")
        .map((f) => path.basename(f)),
    ).toEqual(["morf.csv", "lerf.csv", "localisation.json", "images.json", "maps.zip"]);
    expect(stderr).toContain(`SmoothedSaliency3x3: ${TASKS.length} task(s) × ${SPLIT} images`);
    const record = JSON.parse(fs.readFileSync(path.join(out, "images.json"), "utf8"));
    expect(record).toMatchObject({ suite: SUITE_ID, algorithm: "SmoothedSaliency3x3", images: SPLIT });

    const zip = await readZip(path.join(out, "maps.zip"));
    expect(Object.keys(zip)).toEqual(TASKS.map((t) => `${t}.npy`));
    const fashion = readNpy(new Uint8Array(zip["fashionmnist_resnet.npy"]));
    expect(fashion.header).toMatchObject({ descr: "<f4", shape: [SPLIT, 28, 28] });
    expect(readNpy(new Uint8Array(zip["scenes_resnet.npy"])).header.shape).toEqual([SPLIT, 32, 32]);
    // A smoothed |gradient| is non-negative and not constant.
    expect(Math.min(...fashion.data)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...fashion.data)).toBeGreaterThan(0);

    const sidecar = await startSidecar(path.dirname(suiteDir));
    try {
      const { events, error } = await runMaps(sidecar.client, {
        suiteId: SUITE_ID,
        methodName: "SmoothedSaliency3x3",
        maps: TASKS.map((task) => ({ task, npy: zip[`${task}.npy`] })),
      });
      expect(error).toBeNull();
      const result = events.at(-1)!.result!;
      expect(result.morfCsv).toBe(fs.readFileSync(path.join(out, "morf.csv"), "utf8"));
      expect(result.lerfCsv).toBe(fs.readFileSync(path.join(out, "lerf.csv"), "utf8"));
      // Image by image too, not only the averages.
      expect(JSON.parse(result.imagesJson).tasks).toEqual(record.tasks);
    } finally {
      await sidecar.stop();
    }
  }, 120_000);

  it("a module that exports no function is refused, saying what to export", async () => {
    const bad = path.join(dir, "notAMethod.ts");
    fs.writeFileSync(bad, "export const name = 'nothing';\n");
    const err = (await evaluate("--suite", suiteDir, "--method-module", bad, "--limit", "1", "--out", path.join(dir, "bad")).catch((e) => e)) as {
      code: number;
      stderr: string;
    };
    expect(err.code).toBe(1);
    expect(err.stderr).toContain('exports no function: give it a default export or a named export "attribute"');
    expect(fs.existsSync(path.join(dir, "bad", "morf.csv"))).toBe(false);
  }, 60_000);
});
