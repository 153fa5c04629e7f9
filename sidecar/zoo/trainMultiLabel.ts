// Training command of the multi-label classifier (multiLabel.ts, the /voc demo's model):
//   npm run train-multilabel -- [--train-size N] [--epochs N] [--budget-minutes M] [--patience P]
//                               [--batch B] [--lr LR] [--width W] [--val-size N] [--test-size N]
//                               [--id ID] [--out DIR] [--dtype float16|float32]
// The zoo's `resnet` (ResNet-18 layout) with one logit per class, trained on the multi-label
// scenes (sidecar/data/vocMultilabel.ts) with binary cross-entropy on sigmoid outputs; Adam with
// the zoo's cosine-decayed rate and batch norm (as train.ts); left-right mirroring (it never
// changes which shapes are present). The epoch loop, validation, best-weights keeping, patience
// and time budget are the segmentation trainer's, shared through trainLoop.ts. The kept network
// is folded and rounded exactly as served, then scored on the held-out test split (mean and
// per-class average precision), and written to checkpoints/multilabel/ (trainLoop.ts
// writeKeptCheckpoint, as the segmenter).
// --init-from <segmenter id> starts the ResNet body from the segmentation network's (same layout
// and weight names, resnetBody in architectures.ts; trained on the same scenes' pixel masks), as
// VOC classifiers start from a pretrained backbone: its weights are folded (no batch norm), so
// the whole network is then fine-tuned as plain convolutions with biases (FoldedTrainOps).
// --init-from <multi-label checkpoint id> goes on training one (body and classifier) the same way.
import fs from "node:fs";
import path from "node:path";
import * as tf from "@tensorflow/tfjs";
import { Rng } from "../data/prng.ts";
import { MULTILABEL_CLASSES, MULTILABEL_DATASET_ID, MULTILABEL_MIN_PIXELS, generateMultiLabelScenes, type MultiLabelDataset } from "../data/vocMultilabel.ts";
import { readCheckpoint } from "./checkpoint.ts";
import { roundToHalf } from "./half.ts";
import { resnet } from "./architectures.ts";
import { TrainOps, foldBatchNorm, heNormal, type ConvOptions, type Ops, type WeightMap } from "./layers.ts";
import { conv2dSameTrainable } from "./convGrad.ts";
import { relu } from "./relu.ts";
import { segCheckpointDir } from "./segmenter.ts";
import { MULTILABEL_TASK, logitsOf, meanAveragePrecision, multiLabelCheckpointDir, type MultiLabelManifest } from "./multiLabel.ts";
import * as loop from "./trainLoop.ts";

export interface MultiLabelTrainOptions extends loop.TrainerOptions {
  /** A segmentation checkpoint whose ResNet body starts the network (fine-tuning without batch norm). */
  initFrom?: string;
}

/**
 * Layers over folded weights (`<conv>/kernel` + `<conv>/bias`, as InferOps reads them), all
 * trainable, missing ones created with He initialisation: fine-tuning a network whose body comes
 * from a folded checkpoint. Convolutions go through convGrad.ts, as TrainOps's do, so the filter
 * gradient is computed by forward convolutions on the wasm backend.
 */
class FoldedTrainOps implements Ops {
  readonly tapNames: string[] = [];
  constructor(
    private weights: WeightMap,
    private rng: Rng,
  ) {}
  private variable(name: string, make: () => tf.Tensor): tf.Variable {
    let v = this.weights.get(name);
    if (!v) {
      v = tf.tidy(() => tf.variable(make(), true));
      this.weights.set(name, v);
    }
    return v;
  }
  conv(name: string, x: tf.Tensor4D, filters: number, opts: ConvOptions = {}): tf.Tensor4D {
    const k = opts.kernel ?? 3;
    const w = this.variable(`${name}/kernel`, () => heNormal(this.rng, [k, k, x.shape[3], filters], k * k * x.shape[3]));
    const b = this.variable(`${name}/bias`, () => tf.zeros([filters]));
    return tf.add(conv2dSameTrainable(x, w as tf.Tensor4D, opts.stride ?? 1), b);
  }
  dense(name: string, x: tf.Tensor2D, units: number): tf.Tensor2D {
    const w = this.variable(`${name}/kernel`, () => heNormal(this.rng, [x.shape[1], units], x.shape[1]));
    const b = this.variable(`${name}/bias`, () => tf.zeros([units]));
    return tf.add(tf.matMul(x, w), b);
  }
  relu<T extends tf.Tensor>(x: T): T {
    return relu(x);
  }
  tap(name: string, x: tf.Tensor4D): tf.Tensor4D {
    this.tapNames.push(name);
    return x;
  }
}

/** A batch of images (each mirrored left-right with probability ½ when rng is given) and its 0/1 targets. */
function batchOf(ds: MultiLabelDataset, idx: ArrayLike<number>, rng: Rng | null): { x: tf.Tensor4D; y: tf.Tensor2D } {
  const { height: h, width: w } = ds;
  const C = ds.classNames.length;
  const n = h * w * 3;
  const buf = new Float32Array(idx.length * n);
  const targets = new Float32Array(idx.length * C);
  for (let b = 0; b < idx.length; b++) {
    const flip = rng !== null && rng.float() < 0.5;
    const src = idx[b] * n;
    if (flip) {
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) for (let c = 0; c < 3; c++) buf[b * n + (y * w + x) * 3 + c] = ds.images[src + (y * w + (w - 1 - x)) * 3 + c];
    } else buf.set(ds.images.subarray(src, src + n), b * n);
    for (let c = 0; c < C; c++) targets[b * C + c] = ds.targets[idx[b] * C + c];
  }
  return { x: tf.tensor4d(buf, [idx.length, h, w, 3]), y: tf.tensor2d(targets, [idx.length, C]) };
}

export async function trainMultiLabel(opts: MultiLabelTrainOptions): Promise<MultiLabelManifest> {
  const { log, backend, startedAt: t0, train, val, test } = await loop.trainerStart(opts, generateMultiLabelScenes);
  const C = MULTILABEL_CLASSES.length;
  log(
    `training resnet (multi-label, sigmoid + BCE) on ${MULTILABEL_DATASET_ID} (${train.size} train / ${val.size} val / ${test.size} test, 32×32×3, ${C} classes) on ${backend.name}`,
  );

  const rng = new Rng(opts.seed);
  const weights: WeightMap = new Map();
  const stats: WeightMap = new Map();
  if (opts.initFrom) {
    // A segmenter's body, or a multi-label checkpoint (its body and classifier) to train on from.
    const fromSeg = fs.existsSync(path.join(segCheckpointDir(), `${opts.initFrom}.json`));
    const { manifest: seg, arrays } = readCheckpoint(opts.initFrom, fromSeg ? segCheckpointDir() : multiLabelCheckpointDir());
    if (seg.archConfig.width !== opts.config.width || seg.archConfig.stemStride !== opts.config.stemStride)
      throw new Error(
        `--init-from ${opts.initFrom}: its body has width ${seg.archConfig.width}, stem stride ${seg.archConfig.stemStride}; pass the same --width`,
      );
    for (const a of arrays)
      if (/^(stem|layer\d)/.test(a.name) || (!fromSeg && a.name.startsWith("fc/"))) weights.set(a.name, tf.variable(tf.tensor(a.data, a.shape), true));
    log(`body initialised from ${opts.initFrom} (${weights.size} arrays, ${seg.dataset}); fine-tuning without batch norm`);
  }
  const makeOps = (training: boolean): Ops & { tapNames: string[] } =>
    opts.initFrom ? new FoldedTrainOps(weights, rng) : new TrainOps(weights, stats, rng, training);
  const tapNames = tf.tidy(() => {
    const ops = makeOps(false);
    resnet.forward(ops, tf.zeros([1, 32, 32, 3]) as tf.Tensor4D, C, opts.config);
    return ops.tapNames;
  });
  log(`${[...weights.values()].reduce((s, v) => s + v.size, 0)} parameters, layers: ${tapNames.join(", ")}`);

  const vars = [...weights.values()];
  type Folded = ReturnType<typeof foldBatchNorm>;
  const folded = (): Folded =>
    (opts.initFrom ? [...weights].map(([name, v]) => ({ name, shape: v.shape, data: Float32Array.from(v.dataSync()) })) : foldBatchNorm(weights, stats)).map(
      (a) => (opts.dtype === "float16" ? { ...a, data: roundToHalf(a.data) } : a),
    );
  const scoreFolded = (arrays: Folded, ds: MultiLabelDataset) =>
    loop.withServedWeights(arrays, (ops) =>
      meanAveragePrecision(
        logitsOf((x) => resnet.forward(ops, x, C, opts.config), ds.images, ds.size, [32, 32, 3]),
        ds.targets,
        C,
      ),
    );

  const { run, optimizer } = loop.trainValidated(opts, {
    startedAt: t0,
    log,
    scoreName: "val mAP",
    train,
    rng,
    vars,
    batchOf: (ds, idx) => batchOf(ds, idx, rng),
    makeOps: () => makeOps(true),
    loss: (ops, x, y) => tf.losses.sigmoidCrossEntropy(y, resnet.forward(ops, x, C, opts.config)) as tf.Scalar,
    fold: folded,
    validate: (arrays) => scoreFolded(arrays, val).mean,
  });

  const result = scoreFolded(run.best.keep, test);
  log(`test mAP ${(result.mean * 100).toFixed(2)} % on ${test.size} held-out images`);
  const perClass = loop.perClassScores("AP", MULTILABEL_CLASSES, result.perClass, log);
  return loop.writeScenesResnet<MultiLabelManifest>(opts, {
    run,
    startedAt: t0,
    dataset: MULTILABEL_DATASET_ID,
    classNames: [...MULTILABEL_CLASSES],
    // For a multi-label classifier: the held-out mean average precision.
    testAccuracy: result.mean,
    testSize: test.size,
    tail: {
      backend: backend.name,
      layers: tapNames,
      defaultCamLayer: resnet.defaultCamLayer,
      task: MULTILABEL_TASK,
      meanAP: loop.round4(result.mean),
      perClassAP: perClass,
      valMeanAP: loop.round4(run.best.score),
      minPixels: MULTILABEL_MIN_PIXELS,
      command: opts.command,
    },
    dispose: [...weights.values(), ...stats.values(), optimizer],
    log,
  });
}

async function main() {
  const { options, values } = loop.trainerArgs(
    { script: "train-multilabel", epochs: 10, id: "resnet-seg-scenes-multilabel", dtype: "float16", out: multiLabelCheckpointDir },
    { "init-from": { type: "string" } },
  );
  await trainMultiLabel({ ...options, initFrom: values["init-from"] as string | undefined });
}

loop.trainerCommand("sidecar/zoo/trainMultiLabel.ts", "train-multilabel", main);
