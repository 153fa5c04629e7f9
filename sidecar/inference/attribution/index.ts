// The registry of attribution methods under the names the platform shows: a list of the specs
// that the algorithms' own files export (spec.ts; Captum's attr/_core layout, one algorithm a
// file). Each entry validates its parameters (AttributionParamError with an actionable
// message), runs one image [1, H, W, C] for one target class, and returns the attribution
// (input shape; LayerGradCam returns its layer map [1, h, w, 1]) with the convergence delta
// and the baseline where the method has them. The order is the order the platform lists them.
import * as tf from "@tensorflow/tfjs";
import type { Net } from "../net.ts";
import { deconvolutionSpec } from "./deconvolution.ts";
import { featureAblationSpec } from "./featureAblation.ts";
import { gradientShapSpec } from "./gradientShap.ts";
import { guidedBackpropSpec } from "./guidedBackprop.ts";
import { inputXGradientSpec } from "./inputXGradient.ts";
import { integratedGradientsSpec } from "./integratedGradients.ts";
import { kernelShapSpec } from "./kernelShap.ts";
import { gradCamSpec, layerGradCamSpec } from "./layerGradCam.ts";
import { limeSpec } from "./lime.ts";
import { igWithNoiseTunnelSpec, noiseTunnelSpec, smoothGradSpec } from "./noiseTunnel.ts";
import { largerWindowOcclusionSpec, occlusionSpec } from "./occlusion.ts";
import { saliencySpec } from "./saliency.ts";
import { ONE_GRADIENT, type AttributionSpec } from "./spec.ts";
import { AttributionParamError, checkTarget, resolveParams, type AttributionAlgorithm } from "./types.ts";

export { AttributionParamError } from "./types.ts";
export type { AttributionAlgorithm, AttributionResult, ParamSpec, ParamValue } from "./types.ts";

const SPECS: readonly AttributionSpec[] = [
  saliencySpec,
  inputXGradientSpec,
  integratedGradientsSpec,
  igWithNoiseTunnelSpec,
  smoothGradSpec,
  noiseTunnelSpec,
  gradientShapSpec,
  guidedBackpropSpec,
  deconvolutionSpec,
  layerGradCamSpec,
  gradCamSpec,
  occlusionSpec,
  largerWindowOcclusionSpec,
  featureAblationSpec,
  limeSpec,
  kernelShapSpec,
];

function checkInput(name: string, net: Net, input: tf.Tensor4D): void {
  const [n, h, w, c] = input.shape;
  const [eh, ew, ec] = net.inputShape;
  if (n !== 1 || h !== eh || w !== ew || c !== ec) {
    throw new AttributionParamError(`${name}: expected one image of ${eh}×${ew}×${ec} (got ${input.shape.join("×")})`);
  }
}

function toAlgorithm(spec: AttributionSpec): AttributionAlgorithm {
  return {
    name: spec.name,
    description: spec.description,
    params: spec.params,
    hasBaseline: spec.hasBaseline,
    cost: (p, shape) => (spec.cost ? spec.cost(p, shape) : ONE_GRADIENT),
    async run(net, input, target, params) {
      const p = resolveParams(spec.name, spec.params, params);
      checkInput(spec.name, net, input);
      checkTarget(spec.name, net, target);
      return spec.compute(net, input, target, p);
    },
  };
}

export const ALGORITHMS: Readonly<Record<string, AttributionAlgorithm>> = Object.freeze(Object.fromEntries(SPECS.map((s) => [s.name, toAlgorithm(s)])));

export const ALGORITHM_NAMES: readonly string[] = SPECS.map((s) => s.name);

/** The entry for a public name, or AttributionParamError listing the known names. */
export function getAlgorithm(name: string): AttributionAlgorithm {
  const algo = ALGORITHMS[name];
  if (!algo) throw new AttributionParamError(`unknown attribution method "${name}" (known: ${ALGORITHM_NAMES.join(", ")})`);
  return algo;
}
