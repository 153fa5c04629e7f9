// Which crack detector measures better: the classical ridge-filter detector against a small
// segmentation network trained here on the same generated photos, both measured with the same
// crack measurements on the same held-out photos (docs/crack-detection.md, "Which detector").
//   npm run -s crack-compare -- [--train 240] [--epochs 6] [--from 400] [--count 300]
// The network is a fully convolutional net on the grey photo (3×3, 3×3 and 5×5 convolutions of
// 16 channels, an 11-pixel receptive field, then a 1×1 to one crack logit a pixel; tfjs has no
// gradient for dilated convolutions, so the field is grown by the kernels), trained with
// class-weighted binary cross-entropy on train photos 1000… (never shown in the gallery, never
// used to tune the ridge filter). It writes sidecar/inspection/results/comparison.json.
import fs from "node:fs";
import path from "node:path";
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../inference/runtime/backend.ts";
import { CRACK_MM_PER_PIXEL, CRACK_PHOTO_SIZE, generateCrackPhoto } from "../data/cracks.ts";
import { DETECTOR_NAME, detectCracks, toGrey, DEFAULT_DETECTOR } from "./detector.ts";
import { measureCrack, centreLineLength, removeCorners } from "./measure.ts";
import { connectedComponents, thin } from "./morphology.ts";
import { Rng } from "../data/prng.ts";

const S = CRACK_PHOTO_SIZE;

/** The grey photo, each image centred on its own mean (lighting differs from photo to photo). */
function input(index: number, split: "train" | "test"): { x: Float32Array; mask: Uint8Array; photo: ReturnType<typeof generateCrackPhoto> } {
  const photo = generateCrackPhoto(index, split);
  const grey = toGrey(photo.image, S, S, 3);
  let mean = 0;
  for (const v of grey) mean += v;
  mean /= grey.length;
  const x = new Float32Array(grey.length);
  for (let i = 0; i < grey.length; i++) x[i] = (grey[i] - mean) * 4;
  return { x, mask: photo.mask, photo };
}

function network(): tf.LayersModel {
  const m = tf.sequential();
  m.add(
    tf.layers.conv2d({
      inputShape: [null, null, 1],
      filters: 16,
      kernelSize: 3,
      padding: "same",
      activation: "relu",
      kernelInitializer: tf.initializers.heNormal({ seed: 1 }),
    }),
  );
  m.add(tf.layers.conv2d({ filters: 16, kernelSize: 3, padding: "same", activation: "relu", kernelInitializer: tf.initializers.heNormal({ seed: 2 }) }));
  m.add(tf.layers.conv2d({ filters: 16, kernelSize: 5, padding: "same", activation: "relu", kernelInitializer: tf.initializers.heNormal({ seed: 3 }) }));
  m.add(tf.layers.conv2d({ filters: 1, kernelSize: 1, padding: "same", kernelInitializer: tf.initializers.glorotNormal({ seed: 4 }) }));
  return m;
}

/** Crack pixels are about 3 % of a photo: weight them so the net does not learn "never a crack". */
const POS_WEIGHT = 10;
function loss(yTrue: tf.Tensor, logits: tf.Tensor): tf.Scalar {
  return tf.tidy(() => {
    const w = tf.add(1, tf.mul(yTrue, POS_WEIGHT - 1));
    return tf.losses.sigmoidCrossEntropy(yTrue, logits, w, 0, tf.Reduction.MEAN) as tf.Scalar;
  });
}

/** The network's mask, then the same clean-up and measurements as the ridge filter's. */
function netDetect(model: tf.LayersModel, x: Float32Array) {
  const prob = tf.tidy(() => tf.sigmoid(model.predict(tf.tensor4d(x, [1, S, S, 1])) as tf.Tensor).dataSync() as Float32Array);
  const raw = new Uint8Array(S * S);
  for (let i = 0; i < raw.length; i++) raw[i] = prob[i] > 0.5 ? 1 : 0;
  const { labels, sizes } = connectedComponents(raw, S, S);
  const skeleton = removeCorners(thin(raw, S, S), S, S);
  const keep = new Uint8Array(sizes.length);
  for (let label = 1; label < sizes.length; label++) {
    const own = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) own[i] = labels[i] === label && skeleton[i] ? 1 : 0;
    if (centreLineLength(own, S, S) >= DEFAULT_DETECTOR.minLengthPx) keep[label] = 1;
  }
  const mask = new Uint8Array(raw.length);
  let any = false;
  for (let i = 0; i < raw.length; i++)
    if (keep[labels[i]]) {
      mask[i] = 1;
      any = true;
    }
  if (!any) return { hasCrack: false, lengthMm: 0, maxWidthMm: 0, meanWidthMm: 0 };
  const m = measureCrack(mask, S, S, CRACK_MM_PER_PIXEL);
  return { hasCrack: true, lengthMm: m.lengthMm, maxWidthMm: m.maxWidthMm, meanWidthMm: m.meanWidthMm };
}

interface Scores {
  precision: number;
  recall: number;
  lengthMae: number;
  meanWidthMaeMm: number;
  maxWidthMaeMm: number;
  msPerPhoto: number;
}

function score(
  results: { truth: ReturnType<typeof generateCrackPhoto>["truth"]; found: { hasCrack: boolean; lengthMm: number; maxWidthMm: number; meanWidthMm: number } }[],
  ms: number,
): Scores {
  let tp = 0,
    fp = 0,
    fn = 0;
  const len: number[] = [],
    mean: number[] = [],
    max: number[] = [];
  for (const { truth, found } of results) {
    if (truth.hasCrack && found.hasCrack) {
      tp++;
      len.push(Math.abs(found.lengthMm / truth.lengthMm - 1));
      mean.push(Math.abs(found.meanWidthMm - truth.meanWidthMm));
      max.push(Math.abs(found.maxWidthMm - truth.maxWidthMm));
    } else if (found.hasCrack) fp++;
    else if (truth.hasCrack) fn++;
  }
  const avg = (a: number[]) => (a.length ? a.reduce((s, v) => s + v, 0) / a.length : 0);
  const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
  return {
    precision: r4(tp / Math.max(1, tp + fp)),
    recall: r4(tp / Math.max(1, tp + fn)),
    lengthMae: r4(avg(len)),
    meanWidthMaeMm: r4(avg(mean)),
    maxWidthMaeMm: r4(avg(max)),
    msPerPhoto: Math.round(ms * 10) / 10,
  };
}

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};

await initBackend("wasm");
const trainCount = arg("train", 240),
  epochs = arg("epochs", 6),
  from = arg("from", 400),
  count = arg("count", 300);
const batch = 8;
/** Training crops: the net is fully convolutional, so it learns on 96-pixel crops (4× cheaper) and runs on whole photos. */
const CROP = 96;
const model = network();
const optimizer = tf.train.adam(3e-3);
const trainSet = Array.from({ length: trainCount }, (_, k) => input(1000 + k, "train"));
const rng = new Rng(20261124);
/** A crop of photo p, centred on a crack pixel two times in three when the photo has one. */
function crop(p: (typeof trainSet)[number], xs: Float32Array, ys: Float32Array, at: number) {
  const cracks: number[] = [];
  for (let i = 0; i < p.mask.length; i += 7) if (p.mask[i]) cracks.push(i);
  let cx = rng.int(0, S - CROP),
    cy = rng.int(0, S - CROP);
  if (cracks.length && rng.float() < 2 / 3) {
    const c = cracks[rng.int(0, cracks.length - 1)];
    cx = Math.max(0, Math.min(S - CROP, (c % S) - CROP / 2));
    cy = Math.max(0, Math.min(S - CROP, Math.floor(c / S) - CROP / 2));
  }
  for (let y = 0; y < CROP; y++)
    for (let x = 0; x < CROP; x++) {
      xs[at + y * CROP + x] = p.x[(cy + y) * S + cx + x];
      ys[at + y * CROP + x] = p.mask[(cy + y) * S + cx + x];
    }
}
const started = performance.now();
const stepsPerEpoch = Math.floor(trainSet.length / batch);
for (let epoch = 0; epoch < epochs; epoch++) {
  let total = 0;
  for (let step = 0; step < stepsPerEpoch; step++) {
    const xs = new Float32Array(batch * CROP * CROP),
      ys = new Float32Array(batch * CROP * CROP);
    for (let k = 0; k < batch; k++) crop(trainSet[rng.int(0, trainSet.length - 1)], xs, ys, k * CROP * CROP);
    const x = tf.tensor4d(xs, [batch, CROP, CROP, 1]),
      y = tf.tensor4d(ys, [batch, CROP, CROP, 1]);
    const l = optimizer.minimize(() => loss(y, model.apply(x) as tf.Tensor), true) as tf.Scalar;
    total += (await l.data())[0];
    tf.dispose([x, y, l]);
  }
  console.error(`epoch ${epoch + 1}/${epochs}: loss ${(total / stepsPerEpoch).toFixed(4)} (${Math.round((performance.now() - started) / 1000)} s)`);
}
const trainSeconds = Math.round((performance.now() - started) / 1000);

const net: { truth: ReturnType<typeof generateCrackPhoto>["truth"]; found: ReturnType<typeof netDetect> }[] = [];
const ridge: typeof net = [];
let netMs = 0,
  ridgeMs = 0;
for (let i = from; i < from + count; i++) {
  const { x, photo } = input(i, "test");
  let t0 = performance.now();
  net.push({ truth: photo.truth, found: netDetect(model, x) });
  netMs += performance.now() - t0;
  t0 = performance.now();
  ridge.push({ truth: photo.truth, found: detectCracks({ data: photo.image, width: S, height: S, channels: 3 }, CRACK_MM_PER_PIXEL) });
  ridgeMs += performance.now() - t0;
}
const result = {
  data: `test photos ${from}–${from + count - 1} (held out from both); the network trained on train photos 1000–${1000 + trainCount - 1}`,
  network: {
    trainCrop: CROP,
    layers: "conv3x3×16, conv3x3×16, conv5x5×16, conv1x1 (ReLU), on the mean-centred grey photo",
    trainPhotos: trainCount,
    epochs,
    batch,
    optimizer: "Adam 3e-3",
    positiveWeight: POS_WEIGHT,
    trainSeconds,
  },
  ridge: { name: DETECTOR_NAME, ...score(ridge, ridgeMs / count) },
  segmenter: { name: "fcn-16", ...score(net, netMs / count) },
};
const out = path.resolve(path.dirname(new URL(import.meta.url).pathname), "results", "comparison.json");
fs.writeFileSync(out, JSON.stringify(result, null, 1) + "\n");
console.log(JSON.stringify(result, null, 1));
