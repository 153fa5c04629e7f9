// Attribution for segmentation, as in Captum's segmentation tutorial
// (https://captum.ai/tutorials/Segmentation_Interpret): a segmenter gives a logit per
// class per pixel, while every attribution method explains one scalar per class. The
// wrapper turns the segmenter into such a "classifier": output c is the sum of the
// class-c logits over the pixels the model predicted as c *on the original image*
// (the selection is fixed before any perturbation, as the tutorial's out_max, so an
// ablated input is scored over the same pixels). Feature_Ablation's feature mask is the
// predicted segments themselves (one feature per predicted class), ablated to 0.
import * as tf from "@tensorflow/tfjs";
import type { ForwardOptions, Net } from "../net.ts";
import { maskFrom, type FeatureMask } from "../attribution/featureMask.ts";

/** What the wrapper needs of a segmenter: per-pixel logits [N, H, W, K] and the Net's descriptive fields. */
export interface PixelClassifier {
  id: string;
  inputShape: [number, number, number];
  classNames: string[];
  layers: string[];
  defaultCamLayer?: string;
  forward(x: tf.Tensor4D, opts?: ForwardOptions): tf.Tensor4D;
  trainableVariables(): tf.Variable[];
}

/**
 * The segmenter as a Net whose output [N, K] is Σ_{pixels p with selection[p] = c} logits[n, p, c].
 * `selection`: the predicted class per pixel (H × W), from the unperturbed input.
 */
export interface ClassSumNet extends Net {
  /** Releases the wrapper's own tensor (the selection); the segmenter is left alone. */
  dispose(): void;
}

export function classSumNet(seg: PixelClassifier, selection: ArrayLike<number>): ClassSumNet {
  const [h, w] = seg.inputShape;
  const k = seg.classNames.length;
  if (selection.length !== h * w) throw new RangeError(`the selection has ${selection.length} entries; ${seg.id} needs ${h * w} (one per pixel)`);
  const onehot = new Float32Array(h * w * k);
  for (let p = 0; p < h * w; p++) onehot[p * k + selection[p]] = 1;
  const select = tf.keep(tf.tensor4d(onehot, [1, h, w, k]));
  return {
    id: `${seg.id}#class-sum`,
    inputShape: seg.inputShape,
    classNames: seg.classNames,
    layers: seg.layers,
    defaultCamLayer: seg.defaultCamLayer,
    forward: (x, opts) => tf.tidy(() => tf.sum(tf.mul(seg.forward(x, opts), select), [1, 2]) as tf.Tensor2D),
    trainableVariables: () => seg.trainableVariables(),
    dispose: () => select.dispose(),
  };
}

/** Feature_Ablation's mask: each predicted segment (all pixels of one predicted class, all channels) is one feature. */
export function segmentMask(selection: ArrayLike<number>, inputShape: [number, number, number]): FeatureMask {
  const [h, w, c] = inputShape;
  return maskFrom(selection, h, w, c);
}

/** Per-pixel argmax class of a segmenter's logits for one image [1, H, W, C]. */
export function predictedSegments(seg: PixelClassifier, x: tf.Tensor4D): Uint8Array {
  return tf.tidy(() => Uint8Array.from(tf.argMax(seg.forward(x), 3).dataSync()));
}
