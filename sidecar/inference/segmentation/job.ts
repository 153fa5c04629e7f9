// Segment and Explain on one image, in the calling thread (what each pool worker runs
// for the Segmentation service). Segment: the per-pixel prediction, the classes it
// contains and the segmentation picture (a colour per class). Explain: the attribution
// of one predicted class with the class-sum wrapper (classSum.ts), by Feature_Ablation
// over the predicted segments or LayerGradCAM on the backbone's last stage, rendered
// as the classification heatmaps are (heatmap.ts). The catalogue, the network cache, the
// method check and the input and maps are the dense-prediction features' shared ones
// (densePrediction/catalogue.ts).
import fs from "node:fs";
import path from "node:path";
import * as tf from "@tensorflow/tfjs";
import { encodePng } from "../../data/png.ts";
import { listManifests } from "../../zoo/checkpoint.ts";
import { loadSegmenter, segCheckpointDir, type Segmenter, type SegmenterManifest } from "../../zoo/segmenter.ts";
// Operators' ONNX segmenters (docs/onnx-import.md) are served beside the zoo's.
import { importedSegmentationDir, loadImportedSegmenter } from "../../zoo/onnx/graphNet.ts";
import { featureAblation } from "../attribution/featureAblation.ts";
import { layerGradCam } from "../attribution/layerGradCam.ts";
import { InferenceInputError } from "../errors.ts";
import type { ImageInput } from "../imageInput.ts";
import * as dense from "../densePrediction/catalogue.ts";
import { classSumNet, predictedSegments, segmentMask, type PixelClassifier } from "./classSum.ts";

/** The page's names of the two methods (docs/product.md "Segmentation"). */
export const SEG_ALGORITHMS = ["Feature_Ablation", "LayerGradCAM"] as const;
export type SegAlgorithm = (typeof SEG_ALGORITHMS)[number];

/** Class colours (Pascal VOC's palette order): background black, then six distinct hues. */
export const SEG_PALETTE: Array<[number, number, number]> = [
  [0, 0, 0],
  [128, 0, 0],
  [0, 128, 0],
  [128, 128, 0],
  [0, 0, 128],
  [128, 0, 128],
  [0, 128, 128],
  [128, 128, 128],
  [64, 0, 0],
  [192, 0, 0],
  [64, 128, 0],
];

export function classColour(c: number): string {
  const [r, g, b] = SEG_PALETTE[c % SEG_PALETTE.length];
  return `#${[r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}

export interface SegModelInfo extends dense.DenseModelBase {
  arch: string;
  meanIoU: number;
  perClassIoU: number[];
  camLayer: string;
}

export function segModelInfo(m: SegmenterManifest): SegModelInfo {
  return { ...dense.denseModelBase(m), arch: m.segArch, meanIoU: m.meanIoU, perClassIoU: m.perClassIoU, camLayer: m.defaultCamLayer };
}

/** The segmentation catalogue (manifests only, no weights read). */
export function listSegModels(dir = segCheckpointDir(), importedDir = importedSegmentationDir()): { models: SegModelInfo[]; problems: string[] } {
  const zoo = listManifests(dir);
  const imported = fs.existsSync(importedDir) ? listManifests(importedDir) : { manifests: [], problems: [] };
  const manifests = [...zoo.manifests, ...imported.manifests.filter((m) => !zoo.manifests.some((z) => z.id === m.id))];
  return dense.catalogueOf({ manifests, problems: [...zoo.problems, ...imported.problems] }, "segmentation", segModelInfo, {
    dir,
    kind: "segmentation network",
  });
}

/** A zoo segmenter, or an operator's imported one where the zoo has no checkpoint of that id. */
function loadAnySegmenter(id: string): Segmenter {
  const importedDir = importedSegmentationDir();
  const imported = !fs.existsSync(path.join(segCheckpointDir(), `${id}.json`)) && fs.existsSync(path.join(importedDir, `${id}.json`));
  // An imported segmenter has every field the job reads of a Segmenter (graphNet.ts ImportedSegmenter); its manifest's segArch is "onnx".
  return imported ? (loadImportedSegmenter(id, importedDir) as unknown as Segmenter) : loadSegmenter(id);
}

/** The loaded segmenter for an id (once per worker thread); an unknown id names the available ones. */
export const getSegmenter: (id: string) => Segmenter = dense.cachedNetLoader(
  loadAnySegmenter,
  () => listSegModels().models.map((m) => m.id),
  "segmentation",
  "train-segmenter",
);

export interface SegmentRequest {
  modelId: string;
  image: ImageInput;
}

export interface SegmentClass {
  id: number;
  name: string;
  pixels: number;
  colour: string;
}

export interface SegmentResult {
  height: number;
  width: number;
  /** Predicted class per pixel, row-major. */
  mask: number[];
  /** The classes the prediction contains (background excluded), by id. */
  classes: SegmentClass[];
  classNames: string[];
  /** Every class's colour, in class order (the legend). */
  palette: string[];
  segmentationPng: Uint8Array;
  elapsedMs: number;
}

export interface SegExplainRequest extends SegmentRequest {
  algorithm: string;
  /** The class to explain: must be present in the prediction. */
  targetClass: number;
}

export interface SegExplainResult extends SegmentResult {
  algorithm: SegAlgorithm;
  targetClass: number;
  /** The wrapper's output for the target on the input: Σ of its logits over its predicted pixels. */
  targetScore: number;
  attribution: { shape: number[]; data: number[] };
  /** Feature_Ablation only: the drop of the target score when each present segment is ablated, by class id. */
  segmentAttributions: Array<{ id: number; value: number }>;
  heatmapPng: Uint8Array;
  overlayPng: Uint8Array;
}

function segmentationPicture(mask: ArrayLike<number>, h: number, w: number): Uint8Array {
  const data = new Float32Array(h * w * 3);
  for (let p = 0; p < h * w; p++) {
    const col = SEG_PALETTE[mask[p] % SEG_PALETTE.length];
    for (let k = 0; k < 3; k++) data[p * 3 + k] = col[k] / 255;
  }
  return encodePng({ height: h, width: w, channels: 3, data });
}

function describe(seg: PixelClassifier, mask: Uint8Array, started: number): SegmentResult {
  const [h, w] = seg.inputShape;
  const counts = new Array<number>(seg.classNames.length).fill(0);
  for (const c of mask) counts[c]++;
  const classes = counts.flatMap((n, id) => (id > 0 && n > 0 ? [{ id, name: seg.classNames[id], pixels: n, colour: classColour(id) }] : []));
  return {
    height: h,
    width: w,
    mask: Array.from(mask),
    classes,
    classNames: seg.classNames,
    palette: seg.classNames.map((_, i) => classColour(i)),
    segmentationPng: segmentationPicture(mask, h, w),
    elapsedMs: performance.now() - started,
  };
}

export function segmentWith(seg: PixelClassifier, image: ImageInput): SegmentResult {
  const started = performance.now();
  return dense.withModelInput(seg, image, (x) => describe(seg, predictedSegments(seg, x), started));
}

export function segment(req: SegmentRequest): SegmentResult {
  return segmentWith(getSegmenter(req.modelId), req.image);
}

export function checkSegAlgorithm(name: string): SegAlgorithm {
  return dense.checkedAlgorithm(SEG_ALGORITHMS, "segmentation", name, (message) => new InferenceInputError(message));
}

export async function explainSegmentWith(seg: PixelClassifier, req: Omit<SegExplainRequest, "modelId">): Promise<SegExplainResult> {
  const started = performance.now();
  const algorithm = checkSegAlgorithm(req.algorithm);
  return dense.withModelInput(seg, req.image, async (x, pixels): Promise<SegExplainResult> => {
    const selection = predictedSegments(seg, x);
    const base = describe(seg, selection, started);
    const target = req.targetClass;
    if (!base.classes.some((c) => c.id === target)) {
      const present = base.classes.map((c) => `${c.id} (${c.name})`).join(", ") || "none: the whole image is background";
      throw new InferenceInputError(`class ${target} is not in this image's segmentation; explain one of the predicted classes: ${present}`);
    }
    const net = classSumNet(seg, selection);
    try {
      const targetScore = tf.tidy(() => net.forward(x).dataSync()[target]);
      let attr: tf.Tensor;
      let segmentAttributions: Array<{ id: number; value: number }> = [];
      if (algorithm === "Feature_Ablation") {
        attr = await featureAblation(net, x, target, { featureMask: segmentMask(selection, seg.inputShape), baselines: 0, perturbationsPerEval: 8 });
        const data = attr.dataSync();
        const c = seg.inputShape[2];
        // Every element of a segment carries the segment's attribution: read it at the segment's first pixel.
        segmentAttributions = [0, ...base.classes.map((k) => k.id)].flatMap((id) => {
          const p = selection.indexOf(id);
          return p >= 0 ? [{ id, value: data[p * c] }] : [];
        });
      } else {
        attr = await layerGradCam(net, x, target, seg.defaultCamLayer ?? seg.layers[seg.layers.length - 1]);
      }
      try {
        const { attribution, heatmapPng, overlayPng } = dense.attributionMaps(attr, seg, pixels);
        return {
          ...base,
          algorithm,
          targetClass: target,
          targetScore,
          attribution,
          segmentAttributions,
          heatmapPng,
          overlayPng,
          elapsedMs: performance.now() - started,
        };
      } finally {
        attr.dispose();
      }
    } finally {
      net.dispose();
    }
  });
}

export function explainSegment(req: SegExplainRequest): Promise<SegExplainResult> {
  return explainSegmentWith(getSegmenter(req.modelId), req);
}
