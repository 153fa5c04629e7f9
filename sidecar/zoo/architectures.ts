// The zoo's network families (ResNet-18, ResNet-50, VGG and Inception layouts), scaled down for 28–64 px inputs so
// they train on a CPU in minutes. Each is one function over `Ops` (see layers.ts),
// so the same code serves training (with batch norm) and inference (folded).
import * as tf from "@tensorflow/tfjs";
import type { Ops } from "./layers.ts";
// PyTorch's max-pool gradient on every backend (maxPool.ts): gradient methods match Captum through pooling.
import { maxPool } from "./maxPool.ts";

export type ArchName = "resnet" | "vgg" | "inception" | "resnet50";
export const ARCH_NAMES: ArchName[] = ["resnet", "vgg", "inception", "resnet50"];

export interface ArchConfig {
  /** Channel count of the first stage; later stages are multiples of it. */
  width: number;
  /** Stride of the stem convolution (2 halves the work on larger inputs). */
  stemStride: number;
}

export interface Architecture {
  name: ArchName;
  description: string;
  /** Layer GradCAM uses when none is named (the last convolutional stage). */
  defaultCamLayer: string;
  forward(ops: Ops, x: tf.Tensor4D, numClasses: number, cfg: ArchConfig): tf.Tensor2D;
}

function globalAvgPool(x: tf.Tensor4D): tf.Tensor2D {
  return tf.mean(x, [1, 2]) as tf.Tensor2D;
}

/** ResNet-18 layout: stem, four stages of two basic blocks (3×3, 3×3 + identity or 1×1 projection). */
export const resnet: Architecture = {
  name: "resnet",
  description: "ResNet-18-style: conv stem, 4 stages × 2 basic residual blocks (widths w, 2w, 4w, 8w), global average pool, linear",
  defaultCamLayer: "layer4",
  forward(ops, x, numClasses, cfg) {
    const stages = resnetBody(ops, x, cfg);
    return ops.dense("fc", globalAvgPool(stages[3]), numClasses);
  },
};

/**
 * The ResNet-18 body (stem and four stages, no pooling or classifier): the outputs of
 * layer1..layer4 (strides 1, 2, 4, 8 times the stem's). The classifier above and the
 * segmentation network (segmenter.ts) share it, with the same weight and layer names.
 */
export function resnetBody(ops: Ops, x: tf.Tensor4D, cfg: ArchConfig): tf.Tensor4D[] {
  const w = cfg.width;
  let h = ops.tap("stem", ops.relu(ops.conv("stem", x, w, { stride: cfg.stemStride })));
  const stages: tf.Tensor4D[] = [];
  const widths = [w, 2 * w, 4 * w, 8 * w];
  widths.forEach((width, s) => {
    for (let b = 0; b < 2; b++) {
      const stride = s > 0 && b === 0 ? 2 : 1;
      const name = `layer${s + 1}.${b}`;
      const shortcut = stride !== 1 || h.shape[3] !== width ? ops.conv(`${name}.downsample`, h, width, { kernel: 1, stride }) : h;
      const y = ops.conv(`${name}.conv2`, ops.relu(ops.conv(`${name}.conv1`, h, width, { stride })), width);
      h = ops.relu(tf.add(y, shortcut));
    }
    h = ops.tap(`layer${s + 1}`, h);
    stages.push(h);
  });
  return stages;
}

/** VGG layout: three blocks of two 3×3 convs and a max pool, then a two-layer classifier. */
export const vgg: Architecture = {
  name: "vgg",
  description: "VGG-style: 3 blocks × (two 3×3 conv + max pool) with widths w, 2w, 4w, then dense 64 and linear",
  defaultCamLayer: "block3",
  forward(ops, x, numClasses, cfg) {
    let h = x;
    [cfg.width, 2 * cfg.width, 4 * cfg.width].forEach((width, i) => {
      h = ops.relu(ops.conv(`block${i + 1}.conv1`, h, width, { stride: i === 0 ? cfg.stemStride : 1 }));
      h = ops.relu(ops.conv(`block${i + 1}.conv2`, h, width));
      h = ops.tap(`block${i + 1}`, h);
      h = maxPool(h, 2, 2);
    });
    const flat = tf.reshape(h, [h.shape[0], -1]) as tf.Tensor2D;
    return ops.dense("classifier.fc2", ops.relu(ops.dense("classifier.fc1", flat, 64)), numClasses);
  },
};

/** One GoogLeNet-style module: 1×1, 1×1→3×3, 1×1→3×3→3×3 (a factorised 5×5) and pool→1×1 branches. */
function inceptionModule(ops: Ops, name: string, x: tf.Tensor4D, c: number): tf.Tensor4D {
  const b1 = ops.relu(ops.conv(`${name}.b1`, x, c, { kernel: 1 }));
  const b3 = ops.relu(ops.conv(`${name}.b3`, ops.relu(ops.conv(`${name}.b3_reduce`, x, c / 2, { kernel: 1 })), c));
  let b5 = ops.relu(ops.conv(`${name}.b5_reduce`, x, c / 4, { kernel: 1 }));
  b5 = ops.relu(ops.conv(`${name}.b5b`, ops.relu(ops.conv(`${name}.b5a`, b5, c / 2)), c / 2));
  const bp = ops.relu(ops.conv(`${name}.pool_proj`, maxPool(x, 3, 1), c / 2, { kernel: 1 }));
  return tf.concat([b1, b3, b5, bp], 3);
}

/** Inception layout: conv stem, two pairs of inception modules separated by max pools, global pool, linear. */
export const inception: Architecture = {
  name: "inception",
  description: "Inception-style: conv stem, 2 × 2 inception modules (1×1, 3×3, double-3×3, pool branches) with max pools, global average pool, linear",
  defaultCamLayer: "mixed4",
  forward(ops, x, numClasses, cfg) {
    const w = cfg.width;
    let h = ops.tap("stem", ops.relu(ops.conv("stem", x, w, { stride: cfg.stemStride })));
    h = maxPool(h, 2, 2);
    h = ops.tap("mixed1", inceptionModule(ops, "mixed1", h, w));
    h = ops.tap("mixed2", inceptionModule(ops, "mixed2", h, w));
    h = maxPool(h, 2, 2);
    h = ops.tap("mixed3", inceptionModule(ops, "mixed3", h, 2 * w));
    h = ops.tap("mixed4", inceptionModule(ops, "mixed4", h, 2 * w));
    return ops.dense("fc", globalAvgPool(h), numClasses);
  },
};

/**
 * ResNet-50 layout (He et al. 2016, table 1): stem, four stages of 3, 4, 6 and 3 bottleneck
 * blocks (1×1 reduce to w·2^s, 3×3 at that width with the stage's stride, 1×1 expand ×4, plus the
 * identity or a strided 1×1 projection), global average pool, linear. The original meta-rank
 * suite has a ResNet-50 next to a ResNet-18 on its Places365 task; this is that pairing at the
 * zoo's scale (a narrow w, the stride on the 3×3 as in torchvision's "ResNet v1.5").
 */
export const resnet50: Architecture = {
  name: "resnet50",
  description:
    "ResNet-50-style: conv stem, 4 stages of 3, 4, 6, 3 bottleneck blocks (1×1, 3×3, 1×1 ×4 expansion; widths w, 2w, 4w, 8w), global average pool, linear",
  defaultCamLayer: "layer4",
  forward(ops, x, numClasses, cfg) {
    const w = cfg.width;
    let h = ops.tap("stem", ops.relu(ops.conv("stem", x, w, { stride: cfg.stemStride })));
    [3, 4, 6, 3].forEach((blocks, s) => {
      const width = w * 2 ** s;
      for (let b = 0; b < blocks; b++) {
        const stride = s > 0 && b === 0 ? 2 : 1;
        const name = `layer${s + 1}.${b}`;
        const out = 4 * width;
        const shortcut = stride !== 1 || h.shape[3] !== out ? ops.conv(`${name}.downsample`, h, out, { kernel: 1, stride }) : h;
        let y = ops.relu(ops.conv(`${name}.conv1`, h, width, { kernel: 1 }));
        y = ops.relu(ops.conv(`${name}.conv2`, y, width, { stride }));
        // Zero-initialised last scale, so each block starts as the identity: a width-4 run without it stayed at chance (sidecar/zoo/README.md).
        y = ops.conv(`${name}.conv3`, y, out, { kernel: 1, zeroGamma: true });
        h = ops.relu(tf.add(y, shortcut));
      }
      h = ops.tap(`layer${s + 1}`, h);
    });
    return ops.dense("fc", globalAvgPool(h), numClasses);
  },
};

export const ARCHITECTURES: Record<ArchName, Architecture> = { resnet, vgg, inception, resnet50 };

export function architecture(name: string): Architecture {
  const a = ARCHITECTURES[name as ArchName];
  if (!a) throw new Error(`unknown architecture "${name}"; choose one of ${ARCH_NAMES.join(", ")}`);
  return a;
}
