// Images per second of MoRF/LeRF evaluation (attribution + both protocols' 2 × 11 masked
// forward passes per image) with 1 and 2 worker threads, on one task of a suite.
//   npx tsx bench/evaluation.ts [--suite metarank-local] [--task fashionmnist_resnet] [--method Saliency] [--images 32]
// Worker start-up and task loading are excluded: each pool first runs one warm-up image.
import { EvaluationPool } from "../sidecar/inference/evaluation/pool.ts";
import { readSuite } from "../sidecar/inference/evaluation/suite.ts";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const suite = readSuite(arg("suite", "metarank-local"));
const task = arg("task", suite.tasks[0]);
const method = arg("method", "Saliency");
const images = Number(arg("images", "32"));
const backend = arg("backend", suite.evaluation?.backend ?? "auto");
const params = suite.evaluation?.methods.find((m) => m.algorithm === method)?.params ?? {};

console.log(`evaluation bench: suite ${suite.id}, task ${task}, ${method}, ${images} images, backend ${backend}`);
const rates: Record<number, number> = {};
for (const workers of [1, 2]) {
  const pool = new EvaluationPool({ workers, backend });
  try {
    const job = { taskId: task, algorithm: method, params, settings: suite.settings, images };
    // Warm-up on every worker: thread start, runtime init, task loading, kernel compilation.
    await pool.run({ ...job, indices: Array.from({ length: workers }, (_, i) => i) });
    const started = process.hrtime.bigint();
    await pool.run(job);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    rates[workers] = images / seconds;
    console.log(`${workers} worker(s): ${images} images in ${seconds.toFixed(2)} s = ${rates[workers].toFixed(2)} images/s`);
  } finally {
    await pool.close();
  }
}
console.log(`speed-up with 2 workers: ${(rates[2] / rates[1]).toFixed(2)}×`);
