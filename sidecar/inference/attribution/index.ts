// The registry of attribution methods under the names the platform shows. Each entry
// validates its parameters (AttributionParamError with an actionable message), runs
// one image [1, H, W, C] for one target class, and returns the attribution (input
// shape; LayerGradCam returns its layer map [1, h, w, 1]) with the convergence delta
// and the baseline where the method has them.
import * as tf from "@tensorflow/tfjs";
import type { Net } from "../net.ts";
import { APPROXIMATION_METHODS, type ApproximationMethod } from "./approximation.ts";
import { constantBaseline } from "./common.ts";
import { deconvolution } from "./deconvolution.ts";
import { featureAblation } from "./featureAblation.ts";
import { elementMask, gridMask, type FeatureMask } from "./featureMask.ts";
import { gradientShap } from "./gradientShap.ts";
import { guidedBackprop } from "./guidedBackprop.ts";
import { inputXGradient } from "./inputXGradient.ts";
import { integratedGradients } from "./integratedGradients.ts";
import { kernelShap } from "./kernelShap.ts";
import { gradCam, layerGradCam, type InterpolateMode } from "./layerGradCam.ts";
import { lime } from "./lime.ts";
import { NT_TYPES, noiseTunnel, type NoiseTunnelType, type TunnelledResult } from "./noiseTunnel.ts";
import { occlusion } from "./occlusion.ts";
import { saliency } from "./saliency.ts";
import {
  AttributionParamError,
  checkTarget,
  createRng,
  resolveParams,
  SEED_PARAM,
  type AttributionAlgorithm,
  type AttributionResult,
  type ParamSpec,
  type ParamValue,
} from "./types.ts";

export { AttributionParamError } from "./types.ts";
export type { AttributionAlgorithm, AttributionResult, ParamSpec, ParamValue } from "./types.ts";

const BASELINE_VALUE: ParamSpec = {
  name: "baseline_value",
  type: "float",
  default: 0,
  min: -1e6,
  max: 1e6,
  description: "value of every element of the baseline image (Captum's default baseline is 0)",
};
const N_STEPS: ParamSpec = { name: "n_steps", type: "int", default: 50, min: 1, max: 1000, description: "integration steps" };
const METHOD: ParamSpec = {
  name: "method",
  type: "choice",
  default: "gausslegendre",
  choices: [...APPROXIMATION_METHODS],
  description: "integral approximation rule",
};
const INTERNAL_BATCH: ParamSpec = {
  name: "internal_batch_size",
  type: "int",
  default: 50,
  min: 1,
  max: 1000,
  description: "path points per backward pass (memory vs speed)",
};
const NT_SAMPLES = (def: number): ParamSpec => ({ name: "nt_samples", type: "int", default: def, min: 1, max: 500, description: "noisy copies" });
const STDEVS = (def: number): ParamSpec => ({
  name: "stdevs",
  type: "float",
  default: def,
  min: 0,
  max: 100,
  description: "standard deviation of the Gaussian noise",
});
const NT_TYPE = (def: NoiseTunnelType): ParamSpec => ({
  name: "nt_type",
  type: "choice",
  default: def,
  choices: [...NT_TYPES],
  description: "aggregation of the noisy attributions",
});
const PER_EVAL: ParamSpec = { name: "perturbations_per_eval", type: "int", default: 32, min: 1, max: 1024, description: "perturbed images per forward pass" };
const LAYER: ParamSpec = { name: "layer", type: "string", default: null, description: "layer to explain; the model's last convolutional layer by default" };

type P = Record<string, ParamValue | null>;
const num = (p: P, k: string) => p[k] as number;
const str = (p: P, k: string) => p[k] as string;
const bool = (p: P, k: string) => p[k] as boolean;

function checkSteps(name: string, method: string, nSteps: number): void {
  if (method !== "gausslegendre" && nSteps < 2) {
    throw new AttributionParamError(`${name}: the ${method} rule needs n_steps of at least 2 (got ${nSteps})`);
  }
}

function camLayer(name: string, net: Net, requested: string | null): string {
  const layer = requested ?? net.defaultCamLayer ?? net.layers[net.layers.length - 1];
  if (!layer || !net.layers.includes(layer)) {
    throw new AttributionParamError(
      `${name}: layer must be one of ${net.layers.join(", ") || "(this model exposes no layers)"} (got ${JSON.stringify(requested)})`,
    );
  }
  return layer;
}

function checkInput(name: string, net: Net, input: tf.Tensor4D): void {
  const [n, h, w, c] = input.shape;
  const [eh, ew, ec] = net.inputShape;
  if (n !== 1 || h !== eh || w !== ew || c !== ec) {
    throw new AttributionParamError(`${name}: expected one image of ${eh}×${ew}×${ec} (got ${input.shape.join("×")})`);
  }
}

/** Captum's tutorial window/stride on 224 px images, scaled to this input's height. */
function scaledWindow(net: Net, at224: number): number {
  return Math.max(1, Math.min(net.inputShape[0], Math.round((at224 * net.inputShape[0]) / 224)));
}

function maskFor(name: string, net: Net, kind: string, cell: number): FeatureMask {
  const [h, w, c] = net.inputShape;
  if (kind === "elements") return elementMask(h, w, c);
  if (kind === "pixels") return gridMask(h, w, c, 1);
  if (cell > Math.max(h, w)) throw new AttributionParamError(`${name}: superpixel_size must be at most ${Math.max(h, w)} (got ${cell})`);
  return gridMask(h, w, c, cell);
}

/** Lime and KernelShap perturb square superpixels (a 4×4 grid unless superpixel_size says otherwise) towards a constant baseline. */
function superpixelSetup(name: string, net: Net, x: tf.Tensor4D, p: P): { baseline: tf.Tensor4D; featureMask: FeatureMask } {
  const cell = (p.superpixel_size as number | null) ?? Math.ceil(net.inputShape[0] / 4);
  return { baseline: constantBaseline(x, num(p, "baseline_value")), featureMask: maskFor(name, net, "grid", cell) };
}

interface Spec {
  name: string;
  description: string;
  params: ParamSpec[];
  hasBaseline: boolean;
  compute(net: Net, input: tf.Tensor4D, target: number, p: P): AttributionResult;
}

/** Gradient methods that NoiseTunnel can wrap, each attributing a batch of rows. */
const TUNNELABLE: Record<string, (net: Net, x: tf.Tensor4D, target: number, p: P) => TunnelledResult> = {
  Saliency: (net, x, t, p) => ({ attributions: saliency(net, x, t, { abs: bool(p, "abs") }) }),
  InputXGradient: (net, x, t) => ({ attributions: inputXGradient(net, x, t) }),
  GuidedBackprop: (net, x, t) => ({ attributions: guidedBackprop(net, x, t) }),
  Deconvolution: (net, x, t) => ({ attributions: deconvolution(net, x, t) }),
  IntegratedGradients: (net, x, t, p) => {
    const baseline = constantBaseline(x, num(p, "baseline_value"));
    const r = integratedGradients(net, x, baseline, t, {
      nSteps: num(p, "n_steps"),
      method: str(p, "method") as ApproximationMethod,
      internalBatchSize: num(p, "internal_batch_size"),
    });
    baseline.dispose();
    return { attributions: r.attributions, delta: r.delta };
  },
};

function tunnel(base: string, net: Net, input: tf.Tensor4D, target: number, p: P): AttributionResult {
  const res = noiseTunnel((noisy) => TUNNELABLE[base](net, noisy, target, p), input, {
    ntType: str(p, "nt_type") as NoiseTunnelType,
    ntSamples: num(p, "nt_samples"),
    stdevs: num(p, "stdevs"),
    seed: num(p, "seed"),
    // IG already evaluates n_steps points per copy; one copy at a time bounds memory.
    ntSamplesBatchSize: base === "IntegratedGradients" ? 1 : undefined,
  });
  const result: AttributionResult = { attribution: res.attributions };
  if (res.delta) {
    // One delta per noisy copy; report their mean magnitude.
    let s = 0;
    for (const d of res.delta) s += Math.abs(d);
    result.delta = s / res.delta.length;
  }
  if (base === "IntegratedGradients") result.baseline = constantBaseline(input, num(p, "baseline_value"));
  return result;
}

const SPECS: Spec[] = [
  {
    name: "Saliency",
    description: "Gradient of the class score w.r.t. the input pixels, absolute value by default (Simonyan et al. 2013).",
    params: [{ name: "abs", type: "bool", default: true, description: "return |gradient|" }],
    hasBaseline: false,
    compute: (net, x, t, p) => ({ attribution: saliency(net, x, t, { abs: bool(p, "abs") }) }),
  },
  {
    name: "InputXGradient",
    description: "Input multiplied element-wise by the gradient of the class score.",
    params: [],
    hasBaseline: false,
    compute: (net, x, t) => ({ attribution: inputXGradient(net, x, t) }),
  },
  {
    name: "IntegratedGradients",
    description: "Path integral of gradients from a baseline to the input (Sundararajan et al. 2017); reports the convergence delta.",
    params: [N_STEPS, METHOD, INTERNAL_BATCH, BASELINE_VALUE],
    hasBaseline: true,
    compute: (net, x, t, p) => {
      checkSteps("IntegratedGradients", str(p, "method"), num(p, "n_steps"));
      const baseline = constantBaseline(x, num(p, "baseline_value"));
      const r = integratedGradients(net, x, baseline, t, {
        nSteps: num(p, "n_steps"),
        method: str(p, "method") as ApproximationMethod,
        internalBatchSize: num(p, "internal_batch_size"),
      });
      return { attribution: r.attributions, delta: r.delta[0], baseline };
    },
  },
  {
    name: "IG_with_noise_tunnel",
    description:
      "Integrated Gradients averaged over noisy copies of the input (NoiseTunnel smoothgrad over IG; Captum's ResNet tutorial uses 10 samples). Delta: mean |delta| over the copies.",
    params: [NT_TYPE("smoothgrad"), NT_SAMPLES(10), STDEVS(1.0), N_STEPS, METHOD, INTERNAL_BATCH, BASELINE_VALUE, SEED_PARAM],
    hasBaseline: true,
    compute: (net, x, t, p) => {
      checkSteps("IG_with_noise_tunnel", str(p, "method"), num(p, "n_steps"));
      return tunnel("IntegratedGradients", net, x, t, p);
    },
  },
  {
    name: "SmoothGrad",
    description: "Saliency averaged over noisy copies of the input (Smilkov et al. 2017).",
    params: [NT_TYPE("smoothgrad"), NT_SAMPLES(5), STDEVS(1.0), { name: "abs", type: "bool", default: true }, SEED_PARAM],
    hasBaseline: false,
    compute: (net, x, t, p) => tunnel("Saliency", net, x, t, p),
  },
  {
    name: "NoiseTunnel",
    description: "Any gradient method run on noisy copies of the input and aggregated (smoothgrad, smoothgrad_sq or vargrad).",
    params: [
      { name: "base", type: "choice", default: "Saliency", choices: Object.keys(TUNNELABLE), description: "method to wrap" },
      NT_TYPE("smoothgrad"),
      NT_SAMPLES(5),
      STDEVS(1.0),
      { name: "abs", type: "bool", default: true, description: "Saliency only: |gradient|" },
      N_STEPS,
      METHOD,
      INTERNAL_BATCH,
      BASELINE_VALUE,
      SEED_PARAM,
    ],
    hasBaseline: false,
    compute: (net, x, t, p) => {
      if (str(p, "base") === "IntegratedGradients") checkSteps("NoiseTunnel", str(p, "method"), num(p, "n_steps"));
      return tunnel(str(p, "base"), net, x, t, p);
    },
  },
  {
    name: "GradientShap",
    description:
      "Expected gradients × (input − baseline) at random points between noisy inputs and baselines drawn from a distribution (Lundberg & Lee 2017). Delta: mean of the per-draw deltas.",
    params: [
      { name: "n_samples", type: "int", default: 5, min: 1, max: 1000, description: "random draws" },
      STDEVS(0),
      {
        name: "baselines",
        type: "choice",
        default: "zero_and_input",
        choices: ["zero_and_input", "zero", "uniform"],
        description: "baseline distribution: {0, x} as in Captum's tutorial, the zero image, or 10 uniform-noise images over the input's range",
      },
      SEED_PARAM,
    ],
    hasBaseline: true,
    compute: (net, x, t, p) => {
      const kind = str(p, "baselines");
      const seed = num(p, "seed");
      const dist = tf.tidy(() => {
        if (kind === "zero") return tf.zerosLike(x) as tf.Tensor4D;
        if (kind === "zero_and_input") return tf.concat([tf.zerosLike(x), x], 0) as tf.Tensor4D;
        const rng = createRng(seed ^ 0x5bd1e995);
        const lo = tf.min(x).dataSync()[0];
        const hi = tf.max(x).dataSync()[0];
        const vals = new Float32Array(10 * x.size).map(() => lo + (hi - lo) * rng.uniform());
        return tf.tensor4d(vals, [10, ...x.shape.slice(1)] as [number, number, number, number]);
      });
      const r = gradientShap(net, x, dist, t, { nSamples: num(p, "n_samples"), stdevs: num(p, "stdevs"), seed });
      const baseline = tf.mean(dist, 0, true) as tf.Tensor4D;
      dist.dispose();
      let s = 0;
      for (const d of r.delta) s += d;
      return { attribution: r.attributions, delta: s / r.delta.length, baseline };
    },
  },
  {
    name: "GuidedBackprop",
    description: "Input gradient where ReLUs pass back only positive gradients of positive inputs (Springenberg et al. 2014).",
    params: [],
    hasBaseline: false,
    compute: (net, x, t) => ({ attribution: guidedBackprop(net, x, t) }),
  },
  {
    name: "Deconvolution",
    description: "Input gradient where ReLUs pass back only positive gradients, ignoring the forward pass (Zeiler & Fergus 2014).",
    params: [],
    hasBaseline: false,
    compute: (net, x, t) => ({ attribution: deconvolution(net, x, t) }),
  },
  {
    name: "LayerGradCam",
    description:
      "Grad-CAM map of a convolutional layer: channels weighted by their mean gradient (Selvaraju et al. 2017); returned at the layer's resolution [1, h, w, 1].",
    params: [LAYER, { name: "relu_attributions", type: "bool", default: false, description: "apply ReLU to the map (Captum default: no)" }],
    hasBaseline: false,
    compute: (net, x, t, p) => ({
      attribution: layerGradCam(net, x, t, camLayer("LayerGradCam", net, p.layer as string | null), { reluAttributions: bool(p, "relu_attributions") }),
    }),
  },
  {
    name: "GradCAM",
    description: "Grad-CAM map (with ReLU, as in the paper) upsampled to the input size.",
    params: [
      LAYER,
      { name: "relu_attributions", type: "bool", default: true, description: "apply ReLU to the map" },
      { name: "interpolate_mode", type: "choice", default: "nearest", choices: ["nearest", "bilinear"], description: "upsampling (Captum's default: nearest)" },
    ],
    hasBaseline: false,
    compute: (net, x, t, p) => ({
      attribution: gradCam(net, x, t, camLayer("GradCAM", net, p.layer as string | null), {
        reluAttributions: bool(p, "relu_attributions"),
        interpolateMode: str(p, "interpolate_mode") as InterpolateMode,
      }),
    }),
  },
  occlusionSpec(
    "Occlusion",
    "A patch slides over the image and is replaced by the baseline; each pixel gets the average drop in the class score. Default window and stride: Captum's tutorial 15 px / 8 px at 224 px, scaled to this input.",
    15,
    8,
  ),
  occlusionSpec(
    "Occlusion_using_larger_sliding_window",
    "Occlusion with the larger window of Captum's tutorial (60 px window, 50 px stride at 224 px, scaled to this input).",
    60,
    50,
  ),
  {
    name: "FeatureAblation",
    description:
      "Each feature (every scalar by default, or pixels, or square superpixels) is replaced by the baseline; its attribution is the drop in the class score.",
    params: [
      { name: "feature_mask", type: "choice", default: "elements", choices: ["elements", "pixels", "grid"], description: "what one feature is" },
      { name: "superpixel_size", type: "int", default: 4, min: 1, max: 4096, description: "grid cell size in pixels (feature_mask=grid)" },
      BASELINE_VALUE,
      PER_EVAL,
    ],
    hasBaseline: true,
    compute: (net, x, t, p) => {
      const baseline = constantBaseline(x, num(p, "baseline_value"));
      const attribution = featureAblation(net, x, t, {
        featureMask: maskFor("FeatureAblation", net, str(p, "feature_mask"), num(p, "superpixel_size")),
        baselines: baseline,
        perturbationsPerEval: num(p, "perturbations_per_eval"),
      });
      return { attribution, baseline };
    },
  },
  {
    name: "Lime",
    description:
      "Lasso surrogate fitted to random on/off patterns of square superpixels, weighted by cosine similarity (Ribeiro et al. 2016; Captum's defaults).",
    params: [
      { name: "n_samples", type: "int", default: 50, min: 1, max: 20000 },
      { name: "superpixel_size", type: "int", default: null, min: 1, max: 4096, description: "superpixel side in pixels; a 4×4 grid by default" },
      { name: "alpha", type: "float", default: 0.01, min: 0, max: 1e6, description: "Lasso regularisation" },
      { name: "kernel_width", type: "float", default: 1.0, min: 1e-6, max: 1e6, description: "width of the exponential similarity kernel" },
      BASELINE_VALUE,
      PER_EVAL,
      SEED_PARAM,
    ],
    hasBaseline: true,
    compute: (net, x, t, p) => {
      const { baseline, featureMask } = superpixelSetup("Lime", net, x, p);
      const r = lime(net, x, t, {
        featureMask,
        baselines: baseline,
        nSamples: num(p, "n_samples"),
        alpha: num(p, "alpha"),
        kernelWidth: num(p, "kernel_width"),
        perturbationsPerEval: num(p, "perturbations_per_eval"),
        seed: num(p, "seed"),
      });
      return { attribution: r.attributions, baseline };
    },
  },
  {
    name: "KernelShap",
    description: "Shapley values of square superpixels estimated by Shapley-kernel-weighted linear regression (Lundberg & Lee 2017; Captum's defaults).",
    params: [
      { name: "n_samples", type: "int", default: 25, min: 2, max: 20000 },
      { name: "superpixel_size", type: "int", default: null, min: 1, max: 4096, description: "superpixel side in pixels; a 4×4 grid by default" },
      BASELINE_VALUE,
      PER_EVAL,
      SEED_PARAM,
    ],
    hasBaseline: true,
    compute: (net, x, t, p) => {
      const { baseline, featureMask } = superpixelSetup("KernelShap", net, x, p);
      const r = kernelShap(net, x, t, {
        featureMask,
        baselines: baseline,
        nSamples: num(p, "n_samples"),
        perturbationsPerEval: num(p, "perturbations_per_eval"),
        seed: num(p, "seed"),
      });
      return { attribution: r.attributions, baseline };
    },
  },
];

function occlusionSpec(name: string, description: string, window224: number, stride224: number): Spec {
  return {
    name,
    description,
    params: [
      {
        name: "window",
        type: "int",
        default: null,
        min: 1,
        max: 4096,
        description: `square window side in pixels (all channels); ${window224}/224 of the height by default`,
      },
      { name: "stride", type: "int", default: null, min: 1, max: 4096, description: `stride in pixels; ${stride224}/224 of the height by default` },
      BASELINE_VALUE,
      PER_EVAL,
    ],
    hasBaseline: true,
    compute: (net, x, t, p) => {
      const [h, w, c] = net.inputShape;
      const win = (p.window as number | null) ?? scaledWindow(net, window224);
      const stride = (p.stride as number | null) ?? scaledWindow(net, stride224);
      if (win > Math.min(h, w)) throw new AttributionParamError(`${name}: window must be at most ${Math.min(h, w)} pixels (got ${win})`);
      const baseline = constantBaseline(x, num(p, "baseline_value"));
      const attribution = occlusion(net, x, t, {
        slidingWindowShapes: [win, win, c],
        strides: [stride, stride, c],
        baselines: baseline,
        perturbationsPerEval: num(p, "perturbations_per_eval"),
      });
      return { attribution, baseline };
    },
  };
}

function toAlgorithm(spec: Spec): AttributionAlgorithm {
  return {
    name: spec.name,
    description: spec.description,
    params: spec.params,
    hasBaseline: spec.hasBaseline,
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
