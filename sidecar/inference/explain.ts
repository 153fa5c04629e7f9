// Predict and Explain on one image, in the calling thread: what each pool worker
// runs, and what the explain CLI runs directly.
import * as tf from "@tensorflow/tfjs";
import { getAlgorithm, ALGORITHMS } from "./attribution/index.ts";
import type { ParamSpec } from "./attribution/index.ts";
import { InferenceInputError } from "./errors.ts";
import { renderAttribution } from "./heatmap.ts";
import { toModelInput, type ImageInput } from "./imageInput.ts";
import { getServedNet } from "./models.ts";
import type { ZooNet } from "../zoo/zooNet.ts";

export interface PredictRequest {
  modelId: string;
  image: ImageInput;
}

export interface PredictResult {
  predictedClass: number;
  predictedLabel: string;
  probabilities: number[];
  logits: number[];
  classNames: string[];
}

export interface ExplainRequest extends PredictRequest {
  algorithm: string;
  params: Record<string, unknown>;
  /** Class to explain; undefined or negative: the predicted class. */
  target?: number | null;
  /** Skip the PNG renderings (the CLI and benchmarks do not need them). */
  noImages?: boolean;
}

export interface ExplainResult extends PredictResult {
  attribution: { shape: number[]; data: number[] };
  output: number[];
  baselineOutput: number[];
  hasBaseline: boolean;
  target: number;
  delta?: number;
  heatmapPng?: Uint8Array;
  overlayPng?: Uint8Array;
  elapsedMs: number;
}

export interface AlgorithmInfo {
  name: string;
  description: string;
  params: ParamSpec[];
  hasBaseline: boolean;
}

export function listAlgorithms(): AlgorithmInfo[] {
  return Object.values(ALGORITHMS).map((a) => ({ name: a.name, description: a.description, params: a.params, hasBaseline: a.hasBaseline }));
}

function inputTensor(net: ZooNet, image: ImageInput): { x: tf.Tensor4D; pixels: Float32Array } {
  const pixels = toModelInput(image, net.inputShape, net.id);
  return { x: tf.tensor4d(pixels, [1, ...net.inputShape]), pixels };
}

async function predictOn(net: ZooNet, x: tf.Tensor4D): Promise<PredictResult> {
  const raw = net.native ? await net.native.logits(x.dataSync() as Float32Array, 1) : null;
  const [logits, probs] = tf.tidy(() => {
    const l = raw ? tf.tensor2d(raw, [1, raw.length]) : net.forward(x);
    return [Array.from(l.dataSync()), Array.from(tf.softmax(l).dataSync())];
  });
  let best = 0;
  for (let i = 1; i < probs.length; i++) if (probs[i] > probs[best]) best = i;
  return { predictedClass: best, predictedLabel: net.classNames[best], probabilities: probs, logits, classNames: net.classNames };
}

export async function predict(req: PredictRequest): Promise<PredictResult> {
  const net = await getServedNet(req.modelId);
  const { x } = inputTensor(net, req.image);
  try {
    return await predictOn(net, x);
  } finally {
    x.dispose();
  }
}

export async function explain(req: ExplainRequest): Promise<ExplainResult> {
  const started = performance.now();
  const net = await getServedNet(req.modelId);
  // Resolve the algorithm before decoding, so an unknown name is reported first and cheaply.
  const algo = getAlgorithm(req.algorithm);
  const { x, pixels } = inputTensor(net, req.image);
  try {
    const pred = await predictOn(net, x);
    let target = pred.predictedClass;
    if (req.target != null && req.target >= 0) {
      if (!Number.isInteger(req.target) || req.target >= net.classNames.length) {
        throw new InferenceInputError(`target ${req.target} is not a class of ${net.id} (0..${net.classNames.length - 1}: ${net.classNames.join(", ")})`);
      }
      target = req.target;
    }
    const result = await algo.run(net, x, target, req.params);
    try {
      const attribution = { shape: result.attribution.shape, data: Array.from(result.attribution.dataSync()) };
      let baselineOutput: number[] = [];
      if (result.baseline) {
        // A baseline distribution (GradientShap) is summarised by its mean output, which is
        // what the method's expected-value completeness refers to.
        baselineOutput = tf.tidy(() => Array.from(tf.mean(net.forward(result.baseline!), 0).dataSync()));
      }
      const images = req.noImages
        ? {}
        : renderAttribution(attribution, { height: net.inputShape[0], width: net.inputShape[1], channels: net.inputShape[2], data: pixels });
      return {
        ...pred,
        attribution,
        output: pred.logits,
        baselineOutput,
        hasBaseline: algo.hasBaseline,
        target,
        delta: result.delta,
        ...images,
        elapsedMs: performance.now() - started,
      };
    } finally {
      result.attribution.dispose();
      if (result.baseline && result.baseline !== x) result.baseline.dispose();
    }
  } finally {
    x.dispose();
  }
}
