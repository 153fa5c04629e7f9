// What the dense-prediction benches (bench/segmentation.ts, bench/multilabel.ts) measure alike:
// a network's forward images/s on a batch of 64 in this thread, and a demo page's two steps (the
// first result, then one explanation of it) timed through the real app, database (SQLite) and
// sidecar, each picture asked twice so the second answer comes from the inference cache. Each
// bench keeps its model, its methods and how its page is asked. Prints, never asserts.
import { parseArgs } from "node:util";
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../sidecar/inference/runtime/backend.ts";
import { startStack } from "../tests/support/stack.ts";
import { userClient } from "../tests/support/accounts.ts";
import type { Client } from "../tests/support/client.ts";

/** The bench's --pictures (5 unless given) and the tfjs backend this thread runs on. */
export async function benchStart() {
  const { values } = parseArgs({ options: { pictures: { type: "string", default: "5" } } });
  return { pictures: Number(values.pictures), backend: await initBackend() };
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Images per second of `forward` over 64 images of 32×32×3 (once to warm up, then the median of three). */
export function forwardImagesPerSecond(forward: (x: tf.Tensor4D) => tf.Tensor, images: Float32Array): number {
  const batch = tf.tensor4d(images, [64, 32, 32, 3]);
  tf.tidy(() => forward(batch).dataSync());
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    tf.tidy(() => forward(batch).dataSync());
    times.push(performance.now() - t0);
  }
  batch.dispose();
  return (64 / median(times)) * 1000;
}

/** A demo page's two steps on one picture: `first` posts the first step and answers the page it leads to; `explain` posts one explanation offered there (null: nothing to explain). */
export interface DemoSteps {
  names: [string, string];
  first: (user: Client, picture: string) => Promise<string>;
  explain: (user: Client, picture: string, page: string) => Promise<unknown> | null;
}

/**
 * Starts the stack on SQLite with `env` (its seeded pictures), then times each step on the pictures
 * `pictureIds` finds (first answer, then the cached one) and prints the medians under `title`.
 */
export async function timeDemoPage(
  env: Record<string, string>,
  title: string,
  pictureIds: (user: Client) => Promise<string[]>,
  steps: DemoSteps,
): Promise<void> {
  const stack = await startStack({ db: "sqlite", env });
  try {
    const user = await userClient(stack.baseUrl, "bench");
    const ids = await pictureIds(user);
    const rows: Record<string, { first: number[]; cached: number[] }> = {};
    for (const name of steps.names) rows[name] = { first: [], cached: [] };
    for (const picture of ids) {
      for (const round of ["first", "cached"] as const) {
        const t0 = performance.now();
        const page = await steps.first(user, picture);
        rows[steps.names[0]][round].push(performance.now() - t0);
        const t1 = performance.now();
        const explained = steps.explain(user, picture, page);
        if (!explained) continue;
        await explained;
        rows[steps.names[1]][round].push(performance.now() - t1);
      }
    }
    console.log(`\n${title} (SQLite, one sidecar worker, ${ids.length} pictures; POST + the page it redirects to):`);
    for (const [step, r] of Object.entries(rows))
      console.log(`${step.padEnd(8)} first median ${median(r.first).toFixed(0)} ms, cached median ${median(r.cached).toFixed(0)} ms`);
  } finally {
    await stack.stop();
  }
}
