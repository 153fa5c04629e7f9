// A slice of the default board's regeneration on both evaluation backends (prints, never
// asserts): every baseline method × task of the suite on the first N images of each task, with
// the pool the CLI uses (2 workers), once on tfjs wasm (what the committed board was computed on)
// and once on onnxruntime (evaluation/backend.ts). Prints each method's seconds on each side, the
// ratio, how many images' removal curves differ between the two, and the whole board's time
// extrapolated from the slice (per image, after each pool's loading of the task nets).
//   npx tsx bench/regeneration.ts [--suite metarank-local] [--images 50] [--workers 2] [--methods Saliency,Lime]
import os from "node:os";
import { parseArgs } from "node:util";
import { ONNXRUNTIME } from "../sidecar/inference/evaluation/backend.ts";
import type { ImageResult } from "../sidecar/inference/evaluation/engine.ts";
import { EvaluationPool } from "../sidecar/inference/evaluation/pool.ts";
import { pinnedCheckpoint, readSuite } from "../sidecar/inference/evaluation/suite.ts";

const { values } = parseArgs({
  options: {
    suite: { type: "string", default: "metarank-local" },
    images: { type: "string", default: "50" },
    workers: { type: "string", default: "2" },
    methods: { type: "string" },
  },
});
const suite = readSuite(values.suite!);
const evaluation = suite.evaluation!;
const N = Number(values.images);
const workers = Number(values.workers);
const methods = evaluation.methods.filter((m) => !values.methods || values.methods.split(",").includes(m.algorithm));
const indices = Array.from({ length: N }, (_, i) => i);

interface Side {
  seconds: Map<string, number>;
  loading: number;
  results: Map<string, ImageResult[]>;
}

async function side(backend: string): Promise<Side> {
  const pool = new EvaluationPool({ workers, backend });
  const out: Side = { seconds: new Map(), loading: 0, results: new Map() };
  try {
    // Each thread loads every task once (the CLI's pool keeps them for the whole board): timed apart.
    let t = performance.now();
    for (const task of suite.tasks) {
      const job = {
        taskId: task,
        checkpoint: pinnedCheckpoint(suite, task),
        algorithm: "Saliency",
        params: {},
        settings: suite.settings,
        images: evaluation.images,
      };
      await pool.run({ ...job, indices: Array.from({ length: workers }, (_, i) => i) });
    }
    out.loading = (performance.now() - t) / 1000;
    for (const m of methods) {
      t = performance.now();
      for (const task of suite.tasks) {
        const job = {
          taskId: task,
          checkpoint: pinnedCheckpoint(suite, task),
          algorithm: m.algorithm,
          params: m.params,
          settings: suite.settings,
          images: evaluation.images,
        };
        out.results.set(`${m.algorithm}/${task}`, await pool.run({ ...job, indices }));
      }
      out.seconds.set(m.algorithm, (performance.now() - t) / 1000);
    }
  } finally {
    await pool.close();
  }
  return out;
}

console.log(
  `regeneration slice: suite ${suite.id}, ${methods.length} methods × ${suite.tasks.length} tasks × ${N} images, ${workers} workers, ${os.availableParallelism()} cores, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
const wasm = await side(evaluation.backend === ONNXRUNTIME ? "wasm" : evaluation.backend);
const native = await side(ONNXRUNTIME);
console.log("method".padEnd(22), "wasm s".padStart(9), "onnxruntime s".padStart(14), "ratio".padStart(7), "images differing".padStart(18));
let totalWasm = 0;
let totalNative = 0;
for (const m of methods) {
  const a = wasm.seconds.get(m.algorithm)!;
  const b = native.seconds.get(m.algorithm)!;
  totalWasm += a;
  totalNative += b;
  let differ = 0;
  for (const task of suite.tasks) {
    const ra = wasm.results.get(`${m.algorithm}/${task}`)!;
    const rb = native.results.get(`${m.algorithm}/${task}`)!;
    ra.forEach((r, i) => (differ += r.morf.join("") + r.lerf.join("") === rb[i].morf.join("") + rb[i].lerf.join("") ? 0 : 1));
  }
  console.log(
    m.algorithm.padEnd(22),
    a.toFixed(1).padStart(9),
    b.toFixed(1).padStart(14),
    `${(a / b).toFixed(1)}×`.padStart(7),
    `${differ}/${N * suite.tasks.length}`.padStart(18),
  );
}
const scale = evaluation.images / N;
console.log(
  "all".padEnd(22),
  totalWasm.toFixed(1).padStart(9),
  totalNative.toFixed(1).padStart(14),
  `${(totalWasm / totalNative).toFixed(1)}×`.padStart(7),
  `(loading the tasks: wasm ${wasm.loading.toFixed(1)} s, onnxruntime ${native.loading.toFixed(1)} s)`,
);
console.log(
  `whole board (${evaluation.images} images a task), extrapolated: wasm ${Math.round(totalWasm * scale + wasm.loading)} s, onnxruntime ${Math.round(totalNative * scale + native.loading)} s`,
);
