// Wall time of Evaluation.RunMaps on a whole suite (docs/evaluation.md "Path 2: attribution maps
// from any framework"): the kit's images of every task written as tasks/<task>/images.npy, maps
// computed from them by docs/examples/save_maps.py (python3 + numpy, as a researcher would), then
// one RunMaps call to a real sidecar process, timed from the request to the result (validation,
// thread start, task loading and both protocols on every image of the split included; the sidecar's
// own start-up excluded).
//   npx tsx bench/runMaps.ts [--suite metarank-local] [--workers 2]
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { writeNpy } from "../sidecar/inference/evaluation/npy.ts";
import { SUITES_DIR, readSuite } from "../sidecar/inference/evaluation/suite.ts";
import { splitTaskId } from "../sidecar/inference/evaluation/taskCheckpoints.ts";
import { evaluationImages } from "../sidecar/inference/evaluation/tasks.ts";
import { ROOT, readZip, runMaps, startSidecar } from "../tests/evaluation/mapsSidecar.ts";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const suite = readSuite(arg("suite", "metarank-local"));
const workers = arg("workers", "2");
const images = suite.evaluation?.images ?? 100;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-runmaps-"));
try {
  for (const task of suite.tasks) {
    const split = evaluationImages(splitTaskId(task).dataset, images);
    fs.mkdirSync(path.join(dir, "kit/tasks", task), { recursive: true });
    fs.writeFileSync(path.join(dir, "kit/tasks", task, "images.npy"), writeNpy(split.images, [images, split.height, split.width, split.channels]));
  }
  execFileSync("python3", [path.join(ROOT, "docs/examples/save_maps.py"), path.join(dir, "kit"), path.join(dir, "maps.zip")], { stdio: "ignore" });
  const zip = await readZip(path.join(dir, "maps.zip"));
  const bytes = Object.values(zip).reduce((a, b) => a + b.length, 0);
  const sidecar = await startSidecar(path.dirname(suite.dir) === SUITES_DIR ? SUITES_DIR : path.dirname(suite.dir), { EVALUATION_WORKERS: workers });
  try {
    console.log(
      `RunMaps bench: suite ${suite.id}, ${suite.tasks.length} tasks × ${images} images, ${(bytes / 1e6).toFixed(2)} MB of maps, ${workers} evaluation threads`,
    );
    const started = performance.now();
    const { events, error } = await runMaps(sidecar.client, {
      suiteId: suite.id,
      methodName: "Sobel edges (save_maps.py)",
      maps: suite.tasks.map((task) => ({ task, npy: zip[`${task}.npy`] })),
    });
    const seconds = (performance.now() - started) / 1000;
    if (error) throw new Error(`RunMaps failed: ${error.details}`);
    const result = events.at(-1)?.result;
    console.log(
      `RunMaps: ${seconds.toFixed(1)} s wall (engine ${Number(result?.seconds).toFixed(1)} s), ${events.length - 1} progress events, backend ${result?.backend}`,
    );
    console.log(result?.morfCsv);
  } finally {
    await sidecar.stop();
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
