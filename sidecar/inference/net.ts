// The one network abstraction every part of the attribution engine shares.
// Networks are plain functions over tfjs variables (not tf.LayersModel) so that
// attribution methods can change how ReLU back-propagates (GuidedBackprop,
// Deconvolution) and read or replace an inner layer's activation (LayerGradCam)
// without rebuilding the model.
import type * as tf from "@tensorflow/tfjs";
import type { NativeModel } from "../engine/nativeModel.ts";

export type ReluMode = "normal" | "guided" | "deconv";

export interface LayerTap {
  /** Name of a layer listed in Net.layers. */
  layer: string;
  /** Sees the layer's output; a returned tensor replaces it for the rest of the forward pass. */
  fn: (activation: tf.Tensor) => tf.Tensor | void;
}

export interface ForwardOptions {
  /** How every ReLU of the net back-propagates. Forward values never change. */
  relu?: ReluMode;
  tap?: LayerTap;
  /** Training mode (batch-norm batch statistics, dropout). Attribution always uses false. */
  training?: boolean;
}

export interface Net {
  id: string;
  /** Input as NHWC: [height, width, channels]. */
  inputShape: [number, number, number];
  classNames: string[];
  /** Tap-able layers, in forward order. The last convolutional one is the default for GradCAM. */
  layers: string[];
  defaultCamLayer?: string;
  /** Logits [N, classes] for an NHWC batch. */
  forward(x: tf.Tensor4D, opts?: ForwardOptions): tf.Tensor2D;
  /** Trainable weights (what an optimizer updates and a checkpoint stores). */
  trainableVariables(): tf.Variable[];
  /** The same network on onnxruntime (sidecar/engine), where the sidecar serves it natively. */
  native?: NativeModel;
  /** true when gradients run on `native`; otherwise why they stay on tfjs (the operator that keeps them there). */
  nativeGradients?: true | string;
}
