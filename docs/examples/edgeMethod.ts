// An example method module for `npm run -s evaluate -- --suite ID --method-module docs/examples/edgeMethod.ts --out DIR`
// (docs/evaluation.md "Evaluating your own method"). A method module exports one function with the
// platform's uniform attribution signature — (net, input, target, params) → { attribution } — as its
// default export (or as `attribute`), and may export `name`.
//
// The method: a smoothed saliency map. The gradient of the target class's score with respect to
// the input pixels (Simonyan et al. 2013), its absolute value, averaged over each pixel's 3×3
// neighbourhood: a single pixel's gradient is noisy, while the removal protocol (MoRF/LeRF) deletes
// whole patches, so spreading importance to neighbours ranks regions rather than speckles.
import * as tf from "@tensorflow/tfjs";
import type { Net } from "../../sidecar/inference/net.ts";

export const name = "SmoothedSaliency3x3";

/**
 * net: the task's model (net.forward(x) gives logits [batch, classes]); input: one image
 * [1, H, W, C]; target: the class to explain (the image's true class); params: the CLI's --params.
 * Returns the attribution with the input's shape; the platform sums channels into one map per image.
 */
export default function attribute(net: Net, input: tf.Tensor4D, target: number): { attribution: tf.Tensor4D } {
  const attribution = tf.tidy(() => {
    const score = (x: tf.Tensor) => tf.sum(tf.gather(net.forward(x as tf.Tensor4D), [target], 1));
    const gradient = tf.grad(score)(input) as tf.Tensor4D;
    // Average pooling with stride 1 and "same" padding is a 3×3 box filter per channel.
    return tf.avgPool(tf.abs(gradient) as tf.Tensor4D, 3, 1, "same");
  });
  return { attribution };
}
