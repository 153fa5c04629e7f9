// LayerGradCam (Selvaraju et al. 2017), as captum.attr.LayerGradCam: the layer's
// gradients averaged over its spatial positions weight its channels,
//   map = Σ_c mean_{h,w}(∂F/∂A_c) · A_c        (kept as [N, h, w, 1] for NHWC layers)
// with ReLU applied only when relu_attributions is set (Captum's default: not applied).
// For a 2-D layer [N, F] the gradient itself is the weight: Σ_f ∂F/∂A_f · A_f → [N, 1].
// gradCam() upsamples the map to the input size (Captum's LayerAttribution.interpolate).
import * as tf from "@tensorflow/tfjs";
import type { Net } from "../net.ts";
import { layerGradients, type Targets } from "./gradients.ts";
import { bool, str, type AttributionSpec } from "./spec.ts";
import { AttributionParamError, type ParamSpec } from "./types.ts";

export interface LayerGradCamOptions {
  reluAttributions?: boolean;
  batchSize?: number;
}

export async function layerGradCam(net: Net, inputs: tf.Tensor4D, target: Targets, layer: string, opts: LayerGradCamOptions = {}): Promise<tf.Tensor> {
  const { activation, gradients } = await layerGradients(net, inputs, target, layer, { batchSize: opts.batchSize });
  const map = tf.tidy(() => {
    let scaled: tf.Tensor;
    if (activation.rank > 2) {
      const spatial = Array.from({ length: activation.rank - 2 }, (_, i) => i + 1);
      const weights = tf.mean(gradients, spatial, true);
      scaled = tf.sum(tf.mul(weights, activation), activation.rank - 1, true);
    } else {
      scaled = tf.sum(tf.mul(gradients, activation), 1, true);
    }
    return opts.reluAttributions ? tf.relu(scaled) : scaled;
  });
  tf.dispose([activation, gradients]);
  return map;
}

export type InterpolateMode = "nearest" | "bilinear";

/** Resizes an [N, h, w, 1] map to [N, H, W, 1] (torch.nn.functional.interpolate semantics). */
export function interpolateMap(map: tf.Tensor4D, size: [number, number], mode: InterpolateMode = "nearest"): tf.Tensor4D {
  // torch's "nearest" picks floor(dst · in/out) and bilinear uses align_corners=False,
  // which is tfjs with alignCorners=false and halfPixelCenters (bilinear) / false (nearest).
  return mode === "nearest" ? tf.image.resizeNearestNeighbor(map, size, false, false) : tf.image.resizeBilinear(map, size, false, true);
}

export async function gradCam(
  net: Net,
  inputs: tf.Tensor4D,
  target: Targets,
  layer: string,
  opts: LayerGradCamOptions & { interpolateMode?: InterpolateMode } = {},
): Promise<tf.Tensor4D> {
  const map = await layerGradCam(net, inputs, target, layer, opts);
  if (map.rank !== 4) {
    map.dispose();
    throw new RangeError(`GradCAM needs a convolutional layer; "${layer}" has no spatial dimensions`);
  }
  const [, H, W, C] = inputs.shape;
  const up = tf.tidy(() => {
    const resized = interpolateMap(map as tf.Tensor4D, [H, W], opts.interpolateMode ?? "nearest");
    // Same map on every channel so the result has the input's shape.
    return (C === 1 ? resized : tf.tile(resized, [1, 1, 1, C])) as tf.Tensor4D;
  });
  map.dispose();
  return up;
}

export const LAYER: ParamSpec = {
  name: "layer",
  type: "string",
  default: null,
  description: "layer to explain; the model's last convolutional layer by default",
};

function camLayer(name: string, net: Net, requested: string | null): string {
  const layer = requested ?? net.defaultCamLayer ?? net.layers[net.layers.length - 1];
  if (!layer || !net.layers.includes(layer)) {
    throw new AttributionParamError(
      `${name}: layer must be one of ${net.layers.join(", ") || "(this model exposes no layers)"} (got ${JSON.stringify(requested)})`,
    );
  }
  return layer;
}

/** The registry's entry (index.ts). */
export const layerGradCamSpec: AttributionSpec = {
  name: "LayerGradCam",
  description:
    "Grad-CAM map of a convolutional layer: channels weighted by their mean gradient (Selvaraju et al. 2017); returned at the layer's resolution [1, h, w, 1].",
  params: [LAYER, { name: "relu_attributions", type: "bool", default: false, description: "apply ReLU to the map (Captum default: no)" }],
  hasBaseline: false,
  compute: async (net, x, t, p) => ({
    attribution: await layerGradCam(net, x, t, camLayer("LayerGradCam", net, p.layer as string | null), { reluAttributions: bool(p, "relu_attributions") }),
  }),
};

/** The registry's entry (index.ts). */
export const gradCamSpec: AttributionSpec = {
  name: "GradCAM",
  description: "Grad-CAM map (with ReLU, as in the paper) upsampled to the input size.",
  params: [
    LAYER,
    { name: "relu_attributions", type: "bool", default: true, description: "apply ReLU to the map" },
    { name: "interpolate_mode", type: "choice", default: "nearest", choices: ["nearest", "bilinear"], description: "upsampling (Captum's default: nearest)" },
  ],
  hasBaseline: false,
  compute: async (net, x, t, p) => ({
    attribution: await gradCam(net, x, t, camLayer("GradCAM", net, p.layer as string | null), {
      reluAttributions: bool(p, "relu_attributions"),
      interpolateMode: str(p, "interpolate_mode") as InterpolateMode,
    }),
  }),
};
