// A hand-built net whose decision depends on one known patch, its images, and a task
// loader (the pool's workers import this module in place of sidecar tasks.ts).
import * as tf from "@tensorflow/tfjs";
import type { Net } from "../../sidecar/inference/net.ts";
import type { SplitData } from "../../sidecar/inference/evaluation/engine.ts";
import type { LoadedTask } from "../../sidecar/inference/evaluation/tasks.ts";
import { relu as reluWithMode } from "../../sidecar/zoo/relu.ts";

export const GRID11 = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
export const SIZE = 20; // patch 2 → 100 patches, so every grid step removes exactly 10
export const KEY = { y: 6, x: 14 }; // top-left pixel of the decisive patch (patch 3·10 + 7 = 37)

/**
 * Class 0 ("bright key") when the mean of the key patch exceeds 0.5, else class 1.
 * The rest of the image feeds class 1 through a tiny weight so gradients elsewhere are
 * non-zero but far smaller than the key patch's.
 */
export function keyPatchNet(): Net {
  return {
    id: "key-patch",
    inputShape: [SIZE, SIZE, 1],
    classNames: ["bright key", "dark key"],
    layers: ["key"],
    defaultCamLayer: "key",
    forward(x, opts = {}) {
      return tf.tidy(() => {
        let key = tf.slice(x, [0, KEY.y, KEY.x, 0], [-1, 2, 2, 1]) as tf.Tensor4D;
        if (opts.tap?.layer === "key") key = (opts.tap.fn(key) as tf.Tensor4D | undefined) ?? key;
        const k = tf.mean(key, [1, 2, 3]);
        // + 1e-4 so a blank image (both logits otherwise 0) is class 1, not a tie.
        const rest = tf.add(tf.mul(tf.mean(x, [1, 2, 3]), 1e-3), 1e-4);
        const l0 = reluWithMode(tf.sub(k, 0.5), opts.relu ?? "normal");
        return tf.stack([l0, rest], 1) as tf.Tensor2D;
      });
    },
    trainableVariables: () => [],
  };
}

export function brightImages(n: number): SplitData {
  // A soft ramp (not constant) so InputXGradient has non-zero inputs everywhere.
  const images = new Float32Array(n * SIZE * SIZE);
  for (let i = 0; i < images.length; i++) images[i] = 0.6 + 0.4 * ((i % (SIZE * SIZE)) / (SIZE * SIZE));
  const masks = new Uint8Array(n * SIZE * SIZE);
  for (let i = 0; i < n; i++) for (let dy = 0; dy < 2; dy++) for (let dx = 0; dx < 2; dx++) masks[i * SIZE * SIZE + (KEY.y + dy) * SIZE + KEY.x + dx] = 1;
  return { height: SIZE, width: SIZE, channels: 1, size: n, images, labels: new Int32Array(n), masks };
}

/** Like brightImages, but every third image has a dark key patch and label 1, and the ramp varies per image. */
export function mixedImages(n: number): SplitData {
  const split = brightImages(n);
  const px = SIZE * SIZE;
  for (let i = 0; i < n; i++) {
    for (let p = 0; p < px; p++) split.images[i * px + p] = 0.55 + 0.45 * (((p * (i + 3)) % px) / px);
    if (i % 3 === 2) {
      split.labels[i] = 1;
      for (let dy = 0; dy < 2; dy++) for (let dx = 0; dx < 2; dx++) split.images[i * px + (KEY.y + dy) * SIZE + KEY.x + dx] = 0.1;
    }
  }
  return split;
}

/** Task "keypatch_bright" or "keypatch_mixed": the key-patch net on the first `images` images. */
export async function loadTask(taskId: string, images: number): Promise<LoadedTask> {
  if (taskId === "keypatch_bright") return { id: taskId, net: keyPatchNet(), split: brightImages(images) };
  if (taskId === "keypatch_mixed") return { id: taskId, net: keyPatchNet(), split: mixedImages(images) };
  throw new Error(`fixture has no task ${taskId}`);
}
