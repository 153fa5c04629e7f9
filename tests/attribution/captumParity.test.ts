// Captum parity: the values and tolerances of Captum's own unit tests (pytorch/captum
// tests/attr/*) on the same toy models, run on the reference cpu backend and on wasm.
import { describe, it, expect, beforeAll } from "vitest";
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../../sidecar/inference/runtime/backend.ts";
import { integratedGradients } from "../../sidecar/inference/attribution/integratedGradients.ts";
import { APPROXIMATION_METHODS } from "../../sidecar/inference/attribution/approximation.ts";
import { saliency } from "../../sidecar/inference/attribution/saliency.ts";
import { inputXGradient } from "../../sidecar/inference/attribution/inputXGradient.ts";
import { guidedBackprop } from "../../sidecar/inference/attribution/guidedBackprop.ts";
import { deconvolution } from "../../sidecar/inference/attribution/deconvolution.ts";
import { layerGradCam } from "../../sidecar/inference/attribution/layerGradCam.ts";
import { occlusion } from "../../sidecar/inference/attribution/occlusion.ts";
import { featureAblation } from "../../sidecar/inference/attribution/featureAblation.ts";
import { maskFrom } from "../../sidecar/inference/attribution/featureMask.ts";
import { targetOutputs } from "../../sidecar/inference/attribution/gradients.ts";
import { arange16, basicModel, basicModel2, basicModel3, basicModelConvNetOneConv, basicModelMultiLayer, image, rows } from "./captumModels.ts";

/** Captum's assertTensorAlmostEqual, mode "max" (the default used by these tests is "sum" ≤ 1e-4 per element). */
function expectClose(actual: tf.Tensor, expected: number[] | number[][], delta = 1e-4): void {
  const a = Array.from(actual.dataSync());
  const e = (expected as number[]).flat(2);
  expect(a.length).toBe(e.length);
  for (let i = 0; i < a.length; i++) expect(Math.abs(a[i] - e[i]), `element ${i}: ${a[i]} vs ${e[i]}`).toBeLessThanOrEqual(delta);
}

const backends = ["cpu", "wasm"] as const;

describe.each(backends)("Captum parity on %s", (backend) => {
  beforeAll(async () => {
    await initBackend(backend === "wasm" ? "wasm" : "cpu");
    await tf.setBackend(backend);
  });

  describe("IntegratedGradients (test_integrated_gradients_basic._assert_multi_variable)", () => {
    // input1 = 3, input2 = 1, baselines 0, n_steps 1500: attributions [1.5, −0.5] ± 0.05 on
    // BasicModel2 and BasicModel3, for every approximation method, and Σattr equals
    // F(x) − F(baseline) within 0.05 with the delta as reported.
    for (const method of APPROXIMATION_METHODS) {
      it(`BasicModel2 and BasicModel3, ${method}`, async () => {
        const x = rows([[3, 1]]);
        const b = rows([[0, 0]]);
        const sums: number[] = [];
        for (const net of [basicModel2(), basicModel3()]) {
          const { attributions, delta } = await integratedGradients(net, x, b, 0, { method, nSteps: 1500 });
          expectClose(attributions, [1.5, -0.5], 0.05);
          const attrSum = attributions.sum().dataSync()[0];
          const f = targetOutputs(net, tf.concat([x, b]) as tf.Tensor4D, 0);
          expect(Math.abs(attrSum - (f[0] - f[1]))).toBeLessThanOrEqual(0.05);
          expect(Math.abs(delta[0] - (attrSum - (f[0] - f[1])))).toBeLessThanOrEqual(0.005);
          expect(attributions.shape).toEqual(x.shape);
          sums.push(attrSum);
          attributions.dispose();
        }
        // Implementation invariance: both models compute the same function.
        expect(Math.abs(sums[0] - sums[1])).toBeLessThan(1e-5);
      });
    }

    it("batched attributions equal per-example attributions (_compute_attribution_batch_helper_evaluate)", async () => {
      const net = basicModelMultiLayer();
      const batch = [
        [1.5, 2.0, 1.3],
        [0.5, 0.1, 2.3],
        [1.5, 2.0, 1.3],
      ];
      const all = await integratedGradients(
        net,
        rows(batch),
        rows([
          [0, 0, 0],
          [0, 0, 0],
          [0, 0, 0],
        ]),
        0,
        { nSteps: 1500, method: "riemann_trapezoid" },
      );
      let total = 0;
      for (const [i, row] of batch.entries()) {
        const one = await integratedGradients(net, rows([row]), rows([[0, 0, 0]]), 0, { nSteps: 1500, method: "riemann_trapezoid" });
        expectClose(all.attributions.slice([i, 0, 0, 0], [1, -1, -1, -1]), Array.from(one.attributions.dataSync()), 1e-3);
        total += one.delta[0];
      }
      const summed = all.delta.reduce((a, b) => a + b, 0);
      expect(Math.abs(summed - total)).toBeLessThanOrEqual(0.005);
    });
  });

  describe("Saliency and InputXGradient (test_saliency / test_input_x_gradient basic config)", () => {
    // BasicModel on [1, 2, 3, 0, −1, 7]: gradients [0, 0, 0, 1, 1, 0].
    const input = [[1, 2, 3, 0, -1, 7]];
    it("Saliency is |gradient|", async () => {
      expectClose(await saliency(basicModel(6), rows(input), 0), [0, 0, 0, 1, 1, 0], 0);
    });
    it("Saliency with abs=false keeps the sign", async () => {
      const net = basicModel(6);
      // −x has gradient −1 through the active branch.
      expectClose(await saliency(net, rows([[1, 2, 3, 0, -1, 7]]), 0, { abs: false }), [0, 0, 0, 1, 1, 0], 0);
    });
    it("InputXGradient is input ⊙ gradient", async () => {
      expectClose(await inputXGradient(basicModel(6), rows(input), 0), [0, 0, 0, 0, -1, 0], 0);
    });
  });

  describe("GuidedBackprop and Deconvolution on BasicModel_ConvNet_One_Conv (target 0, delta 0.01)", () => {
    it("GuidedBackprop, one input (test_simple_input_conv_gb)", async () => {
      expectClose(
        await guidedBackprop(basicModelConvNetOneConv(), image(arange16()), 0),
        [
          [0, 1, 1, 1],
          [1, 3, 3, 2],
          [1, 3, 3, 2],
          [1, 2, 2, 1],
        ],
        0.01,
      );
    });
    it("GuidedBackprop, x + ones (test_simple_multi_input_conv_gb)", async () => {
      const net = basicModelConvNetOneConv(tf.ones([1, 4, 4, 1]) as tf.Tensor4D);
      expectClose(
        await guidedBackprop(net, image(arange16()), 0),
        [
          [1, 2, 2, 1],
          [2, 4, 4, 2],
          [2, 4, 4, 2],
          [1, 2, 2, 1],
        ],
        0.01,
      );
    });
    it("Deconvolution, one input and x + ones (test_simple_input_conv_deconv)", async () => {
      const exp = [
        [2, 3, 3, 1],
        [3, 5, 5, 2],
        [3, 5, 5, 2],
        [1, 2, 2, 1],
      ];
      expectClose(await deconvolution(basicModelConvNetOneConv(), image(arange16()), 0), exp, 0.01);
      expectClose(await deconvolution(basicModelConvNetOneConv(tf.ones([1, 4, 4, 1]) as tf.Tensor4D), image(arange16()), 0), exp, 0.01);
    });
  });

  describe("LayerGradCam (tests/attr/layer/test_grad_cam.py, delta 0.01)", () => {
    it("conv1 of BasicModel_ConvNet_One_Conv", async () => {
      const map = await layerGradCam(basicModelConvNetOneConv(), image(arange16()), 0, "conv1");
      expect(map.shape).toEqual([1, 2, 2, 1]);
      expectClose(
        map,
        [
          [11.25, 13.5],
          [20.25, 22.5],
        ],
        0.01,
      );
    });
    it("relu1 of BasicModel_ConvNet_One_Conv", async () => {
      expectClose(
        await layerGradCam(basicModelConvNetOneConv(), image(arange16()), 0, "relu1"),
        [
          [0, 4],
          [28, 32.5],
        ],
        0.01,
      );
    });
    it("conv1 with x + ones (test_simple_multi_input_conv)", async () => {
      const net = basicModelConvNetOneConv(tf.ones([1, 4, 4, 1]) as tf.Tensor4D);
      expectClose(
        await layerGradCam(net, image(arange16()), 0, "conv1"),
        [
          [14.5, 19.0],
          [32.5, 37.0],
        ],
        0.01,
      );
    });
    it("a non-convolutional layer (linear0 of BasicModel_MultiLayer)", async () => {
      expectClose(await layerGradCam(basicModelMultiLayer(), rows([[0, 100, 0]]), 0, "linear0"), [400], 0.01);
    });
    it("through a fused linear-activation conv the values are the same", async () => {
      expectClose(
        await layerGradCam(basicModelConvNetOneConv(undefined, true), image(arange16()), 0, "conv1"),
        [
          [11.25, 13.5],
          [20.25, 22.5],
        ],
        0.01,
      );
    });
  });

  describe("Occlusion (tests/attr/test_occlusion.py)", () => {
    const net = basicModelMultiLayer();
    it("test_simple_input: window 1", async () => {
      for (const per of [1, 2, 3]) {
        expectClose(await occlusion(net, rows([[20, 50, 30]]), 0, { slidingWindowShapes: [1, 1, 1], perturbationsPerEval: per }), [80, 200, 120]);
      }
    });
    it("test_simple_input_larger_shape: window 2, baseline 10", async () => {
      expectClose(await occlusion(net, rows([[20, 50, 30]]), 0, { slidingWindowShapes: [1, 1, 2], baselines: 10 }), [200, 220, 240]);
    });
    it("test_simple_input_shape_with_stride: window 2, stride 2", async () => {
      expectClose(await occlusion(net, rows([[20, 50, 30]]), 0, { slidingWindowShapes: [1, 1, 2], strides: [1, 1, 2] }), [280, 280, 120]);
    });
    it("test_multi_sample_ablation, row by row", async () => {
      expectClose(await occlusion(net, rows([[2, 10, 3]]), 0, { slidingWindowShapes: [1, 1, 1] }), [8, 35, 12]);
      expectClose(await occlusion(net, rows([[20, 50, 30]]), 0, { slidingWindowShapes: [1, 1, 1] }), [80, 200, 120]);
    });
    it("test_simple_multi_input_conv: windows (1,4,4) and (1,2,3)/(1,1,2) with strides", async () => {
      const ones = tf.ones([1, 4, 4, 1]) as tf.Tensor4D;
      const arange = image(arange16());
      // Attributions of the first input, the second (ones) added as a constant, and vice versa.
      const first = basicModelConvNetOneConv(ones);
      const second = basicModelConvNetOneConv(arange);
      expectClose(await occlusion(first, arange, 0, { slidingWindowShapes: [4, 4, 1], perturbationsPerEval: 8 }), new Array(16).fill(67));
      expectClose(await occlusion(second, ones, 0, { slidingWindowShapes: [4, 4, 1] }), new Array(16).fill(13));
      expectClose(await occlusion(first, arange, 0, { slidingWindowShapes: [2, 3, 1], strides: [2, 1, 1], perturbationsPerEval: 7 }), [
        [17, 17, 17, 17],
        [17, 17, 17, 17],
        [64, 65.5, 65.5, 67],
        [64, 65.5, 65.5, 67],
      ]);
      expectClose(await occlusion(second, ones, 0, { slidingWindowShapes: [1, 2, 1], strides: [1, 2, 1], perturbationsPerEval: 3 }), [
        [3, 3, 3, 3],
        [3, 3, 3, 3],
        [3, 3, 3, 3],
        [0, 0, 0, 0],
      ]);
    });
  });

  describe("FeatureAblation (tests/attr/test_feature_ablation.py)", () => {
    const net = basicModelMultiLayer();
    it("test_simple_ablation", async () => {
      for (const per of [1, 2, 3]) expectClose(await featureAblation(net, rows([[20, 50, 30]]), 0, { perturbationsPerEval: per }), [80, 200, 120]);
    });
    it("test_simple_ablation_with_mask", async () => {
      expectClose(await featureAblation(net, rows([[20, 50, 30]]), 0, { featureMask: maskFrom([0, 0, 1], 1, 1, 3) }), [280, 280, 120]);
    });
    it("test_simple_ablation_with_baselines", async () => {
      expectClose(await featureAblation(net, rows([[20, 50, 30]]), 0, { featureMask: maskFrom([0, 0, 1], 1, 1, 3), baselines: 4 }), [248, 248, 104]);
    });
    it("test_multi_sample_ablation_with_mask, row by row", async () => {
      expectClose(await featureAblation(net, rows([[2, 10, 3]]), 0, { featureMask: maskFrom([0, 0, 1], 1, 1, 3) }), [41, 41, 12]);
      expectClose(await featureAblation(net, rows([[20, 50, 30]]), 0, { featureMask: maskFrom([1, 1, 0], 1, 1, 3) }), [280, 280, 120]);
    });
    it("test_simple_multi_input_conv", async () => {
      const ones = tf.ones([1, 4, 4, 1]) as tf.Tensor4D;
      const arange = image(arange16());
      const first = basicModelConvNetOneConv(ones);
      const second = basicModelConvNetOneConv(arange);
      expectClose(await featureAblation(first, arange, 0, { featureMask: maskFrom(new Array(16).fill(0), 4, 4, 1) }), new Array(16).fill(67));
      expectClose(await featureAblation(second, ones, 0, { featureMask: maskFrom(new Array(16).fill(1), 4, 4, 1) }), new Array(16).fill(13));
      expectClose(await featureAblation(first, arange, 0, { perturbationsPerEval: 7 }), [
        [0, 2, 4, 3],
        [4, 9, 10, 7],
        [4, 13, 14, 11],
        [0, 0, 0, 0],
      ]);
      expectClose(await featureAblation(second, ones, 0, { perturbationsPerEval: 14 }), [
        [1, 2, 2, 1],
        [1, 2, 2, 1],
        [1, 2, 2, 1],
        [0, 0, 0, 0],
      ]);
    });
  });
});
