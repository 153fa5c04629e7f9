// Classify and Explain on one image for the MultiLabel service, in the calling thread (what a
// pool worker runs). Classify: every class's logit read through a sigmoid (each class its own
// probability, multiLabel.ts), the k highest ranked. Explain: the attribution of ONE class, its
// logit as the target (the pre-sigmoid score, as Captum explains a classifier's output), by the
// VOC demo's two methods (docs/product.md "Multi-label"), both from the attribution engine's registry (attribution/index.ts):
// Feature_Ablation over 4×4-pixel squares and LIME over its default 4×4 grid of superpixels.
// The maps are drawn as the classification heatmaps are (heatmap.ts). The catalogue, the network
// cache, the method check and the input and maps are the dense-prediction features' shared ones
// (densePrediction/catalogue.ts).
import * as tf from "@tensorflow/tfjs";
import { listManifests } from "../../zoo/checkpoint.ts";
import { MULTILABEL_TASK, loadMultiLabelNet, multiLabelCheckpointDir, topClasses, type MultiLabelManifest, type RankedClass } from "../../zoo/multiLabel.ts";
import type { ZooNet } from "../../zoo/zooNet.ts";
import { getAlgorithm } from "../attribution/index.ts";
import { servedNative } from "../models.ts";
import { InferenceInputError } from "../errors.ts";
import type { ImageInput } from "../imageInput.ts";
import type { Net } from "../net.ts";
import * as dense from "../densePrediction/catalogue.ts";

/** The names of the VOC demo's two methods (its ResNet18 model with Feature_Ablation and LIME). */
export const MULTILABEL_ALGORITHMS = ["Feature_Ablation", "LIME"] as const;
export type MultiLabelAlgorithm = (typeof MULTILABEL_ALGORITHMS)[number];

/**
 * The registry method and parameters behind each name. Feature_Ablation: 64 squares of 4×4
 * pixels at a 32×32 input (65 forward passes), ablated to 0. LIME: Captum's defaults (Lasso
 * α 0.01, cosine kernel of width 1) over the registry's 4×4 grid, with 100 samples instead of
 * Captum's 50 so the 16-feature surrogate is fitted on more samples than it has features × 5.
 */
export const METHOD_OF: Record<MultiLabelAlgorithm, { name: string; params: Record<string, string | number> }> = {
  Feature_Ablation: { name: "FeatureAblation", params: { feature_mask: "grid", superpixel_size: 4, baseline_value: 0 } },
  LIME: { name: "Lime", params: { n_samples: 100, baseline_value: 0, seed: 0 } },
};

/** Most classes a Classify answer ranks (VOC has 20). */
export const MAX_TOP_K = 20;

export interface MultiLabelModelInfo extends dense.DenseModelBase {
  arch: string;
  meanAP: number;
  perClassAP: number[];
  trainSize: number;
  /** The labelling rule of generated data (visible pixels per label); 0 when the data had its own labels. */
  minPixels: number;
}

export function multiLabelModelInfo(m: MultiLabelManifest): MultiLabelModelInfo {
  return {
    ...dense.denseModelBase(m),
    arch: m.arch,
    meanAP: m.meanAP,
    perClassAP: m.perClassAP,
    trainSize: m.trainSize,
    minPixels: m.minPixels ?? 0,
  };
}

/** The multi-label catalogue (manifests only, no weights read). */
export function listMultiLabelModels(dir = multiLabelCheckpointDir()): { models: MultiLabelModelInfo[]; problems: string[] } {
  return dense.catalogueOf(listManifests(dir), MULTILABEL_TASK, multiLabelModelInfo, { dir, kind: "multi-label classifier" });
}

/** The loaded network for an id (once per worker thread); an unknown id names the available ones. */
export const getMultiLabelNet: (id: string) => ZooNet = dense.cachedNetLoader(
  loadMultiLabelNet,
  () => listMultiLabelModels().models.map((m) => m.id),
  "multi-label",
  "train-multilabel",
);

export interface ClassifyRequest {
  modelId: string;
  image: ImageInput;
  topK: number;
}

export interface ClassifyResult {
  /** The topK classes, highest logit first, with sigmoid probabilities. */
  ranked: RankedClass[];
  classNames: string[];
  elapsedMs: number;
}

export interface MultiLabelExplainRequest extends ClassifyRequest {
  algorithm: string;
  /** The class to explain (index into the model's classes). */
  targetClass: number;
}

export interface MultiLabelExplainResult extends ClassifyResult {
  algorithm: MultiLabelAlgorithm;
  /** The registry method and the parameters it ran with. */
  method: string;
  params: Record<string, string | number>;
  targetClass: number;
  targetLogit: number;
  targetProbability: number;
  attribution: { shape: number[]; data: number[] };
  heatmapPng: Uint8Array;
  overlayPng: Uint8Array;
}

export type MultiLabelJob = ({ op: "classify" } & ClassifyRequest) | ({ op: "explain" } & MultiLabelExplainRequest);

function checkTopK(k: number): number {
  if (!Number.isInteger(k) || k < 1 || k > MAX_TOP_K) throw new InferenceInputError(`top_k must be a whole number from 1 to ${MAX_TOP_K}; got ${k}`);
  return k;
}

async function rank(net: Net, x: tf.Tensor4D, topK: number): Promise<{ logits: Float32Array; ranked: RankedClass[] }> {
  const logits = net.native ? await net.native.logits(x.dataSync() as Float32Array, x.shape[0]) : tf.tidy(() => net.forward(x).dataSync() as Float32Array);
  return { logits, ranked: topClasses(logits, net.classNames, topK) };
}

export async function classifyWith(net: Net, req: Omit<ClassifyRequest, "modelId">): Promise<ClassifyResult> {
  const started = performance.now();
  const topK = checkTopK(req.topK);
  return dense.withModelInput(net, req.image, async (x) => ({
    ranked: (await rank(net, x, topK)).ranked,
    classNames: net.classNames,
    elapsedMs: performance.now() - started,
  }));
}

export function checkMultiLabelAlgorithm(name: string): MultiLabelAlgorithm {
  return dense.checkedAlgorithm(MULTILABEL_ALGORITHMS, "multi-label", name, (message) => new InferenceInputError(message));
}

export async function explainClassWith(net: Net, req: Omit<MultiLabelExplainRequest, "modelId">): Promise<MultiLabelExplainResult> {
  const started = performance.now();
  const algorithm = checkMultiLabelAlgorithm(req.algorithm);
  const topK = checkTopK(req.topK);
  const target = req.targetClass;
  if (!Number.isInteger(target) || target < 0 || target >= net.classNames.length)
    throw new InferenceInputError(`target_class must be a class index of ${net.id} from 0 to ${net.classNames.length - 1}; got ${target}`);
  return dense.withModelInput(net, req.image, async (x, pixels): Promise<MultiLabelExplainResult> => {
    const { logits, ranked } = await rank(net, x, topK);
    const method = METHOD_OF[algorithm];
    const result = await getAlgorithm(method.name).run(net, x, target, method.params);
    try {
      const { attribution, heatmapPng, overlayPng } = dense.attributionMaps(result.attribution, net, pixels);
      return {
        ranked,
        classNames: net.classNames,
        algorithm,
        method: method.name,
        params: method.params,
        targetClass: target,
        targetLogit: logits[target],
        targetProbability: topClasses(logits, net.classNames, net.classNames.length).find((r) => r.index === target)!.probability,
        attribution,
        heatmapPng,
        overlayPng,
        elapsedMs: performance.now() - started,
      };
    } finally {
      tf.dispose([result.attribution, result.baseline ?? []].flat());
    }
  });
}

/** The network on the native runtime (models.ts servedNative: the zoo exporter's graph of its ResNet). */
export function servedMultiLabelNet(id: string): Promise<ZooNet> {
  return servedNative(getMultiLabelNet(id));
}

/** What a pool worker runs for a MultiLabel request. */
export async function multiLabelJob(job: MultiLabelJob): Promise<ClassifyResult | MultiLabelExplainResult> {
  const net = await servedMultiLabelNet(job.modelId);
  return job.op === "classify" ? classifyWith(net, job) : explainClassWith(net, job);
}
