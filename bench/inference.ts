// Inference figures on the committed checkpoints (prints, never asserts):
//   forward images/s (batch 64, this thread), Saliency and IntegratedGradients
//   (n_steps 50) latency per image, and Explain throughput through the worker pool
//   with 1 worker vs 2 workers.
// Run: npx tsx bench/inference.ts [--models id,id] [--requests N]
import * as tf from "@tensorflow/tfjs";
import { parseArgs } from "node:util";
import { initBackend } from "../sidecar/inference/runtime/backend.ts";
import { explain } from "../sidecar/inference/explain.ts";
import { getNet, listModels } from "../sidecar/inference/models.ts";
import { InferencePool } from "../sidecar/inference/pool.ts";
import type { RawTensor } from "../sidecar/inference/imageInput.ts";

const { values } = parseArgs({ options: { models: { type: "string" }, requests: { type: "string", default: "8" } } });
const requests = Number(values.requests);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function randomImage(shape: [number, number, number], seed: number): RawTensor {
  const n = shape[0] * shape[1] * shape[2];
  let x = seed;
  const data = Array.from({ length: n }, () => (x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32);
  return { shape, data };
}

async function timeIt(fn: () => Promise<unknown> | unknown, reps: number): Promise<number[]> {
  await fn(); // warm-up: kernels compiled, weights on the backend
  const out: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

const backend = await initBackend();
const all = listModels().models;
const models = values.models ? all.filter((m) => values.models!.split(",").includes(m.id)) : all;
console.log(`backend ${backend.name}; ${models.length} models; ${requests} requests per pool run\n`);
console.log("model                      fwd img/s  saliency ms  IG(50) ms  pool1 IG req/s  pool2 IG req/s  speed-up");

for (const m of models) {
  const net = getNet(m.id);
  const shape: [number, number, number] = [m.inputHeight, m.inputWidth, m.inputChannels];
  const batch = tf.randomUniform([64, ...shape]) as tf.Tensor4D;
  const fwd = await timeIt(() => tf.tidy(() => net.forward(batch).dataSync()), 3);
  batch.dispose();
  const image = { tensor: randomImage(shape, 1) };
  const sal = await timeIt(() => explain({ modelId: m.id, image, algorithm: "Saliency", params: {}, noImages: true }), 5);
  const ig = await timeIt(() => explain({ modelId: m.id, image, algorithm: "IntegratedGradients", params: { n_steps: 50 }, noImages: true }), 3);

  const poolRate: number[] = [];
  for (const workers of [1, 2]) {
    const pool = new InferencePool({ workers });
    await pool.warm([m.id]);
    // Two rounds of warm-up per worker: the first IG in a fresh thread also pays for
    // kernel set-up and JIT, which would otherwise be charged to the 1-worker figure.
    for (let round = 0; round < 2; round++) {
      await Promise.all(
        Array.from({ length: workers }, () =>
          pool.explain({ modelId: m.id, image, algorithm: "IntegratedGradients", params: { n_steps: 50 }, noImages: true }),
        ),
      );
    }
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: requests }, (_, i) =>
        pool.explain({
          modelId: m.id,
          image: { tensor: randomImage(shape, i + 2) },
          algorithm: "IntegratedGradients",
          params: { n_steps: 50 },
          noImages: true,
        }),
      ),
    );
    poolRate.push(requests / ((performance.now() - t0) / 1000));
    await pool.close();
  }
  console.log(
    `${m.id.padEnd(26)} ${(64000 / median(fwd)).toFixed(0).padStart(9)} ${median(sal).toFixed(1).padStart(12)} ${median(ig).toFixed(0).padStart(10)} ${poolRate[0].toFixed(2).padStart(15)} ${poolRate[1].toFixed(2).padStart(15)} ${(poolRate[1] / poolRate[0]).toFixed(2).padStart(8)}×`,
  );
}
console.log("\n(pool figures include message passing and are wall-clock: on a machine shared with other work they vary from run to run)");
