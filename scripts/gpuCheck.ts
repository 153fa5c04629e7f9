// `make gpu-check`: which execution providers this host's onnxruntime-node offers, and for each
// GPU provider that starts, the parity of a zoo network's logits and of one Saliency map against
// the CPU provider, with timings (docs/engine.md "GPU hosts"). Prints, exits 1 when no GPU
// provider ran (the figures then say why).
// Run: npx tsx scripts/gpuCheck.ts [--model resnet-scenes64-v2] [--batch 32]
import os from "node:os";
import { parseArgs } from "node:util";
import { NativeModel } from "../sidecar/engine/nativeModel.ts";
import { installedProviders, type ProviderName } from "../sidecar/engine/runtime.ts";
import { exportCheckpoint } from "../sidecar/zoo/onnx/export.ts";
import { readManifest } from "../sidecar/zoo/checkpoint.ts";

const { values } = parseArgs({ options: { model: { type: "string", default: "resnet-scenes64-v2" }, batch: { type: "string", default: "32" } } });
const id = values.model!;
const n = Math.max(1, Number(values.batch));
const manifest = readManifest(id);
const [h, w, c] = manifest.inputShape;
const onnx = exportCheckpoint(id);
const x = Float32Array.from({ length: n * h * w * c }, (_, i) => ((i * 2654435761) % 1000) / 1000);
const have = installedProviders();
console.log(`host ${os.hostname()}, ${os.availableParallelism()} cores; onnxruntime-node providers: ${have.join(", ")}`);
console.log(`model ${id} (${h}×${w}×${c}, ${manifest.classNames.length} classes), batch ${n}`);

async function measure(provider: ProviderName) {
  const m = await NativeModel.load(id, onnx, { inputShape: [h, w, c], provider });
  try {
    const logits = await m.logits(x, n);
    let t0 = performance.now();
    await m.logits(x, n);
    const forwardMs = performance.now() - t0;
    const { gradients } = await m.gradients(x, n, 0);
    t0 = performance.now();
    await m.gradients(x, n, 0);
    const gradientMs = performance.now() - t0;
    return { logits, gradients, forwardMs, gradientMs };
  } finally {
    await m.release();
  }
}

const maxRel = (a: Float32Array, b: Float32Array) => {
  let m = 0;
  let e = 0;
  for (let i = 0; i < b.length; i++) {
    m = Math.max(m, Math.abs(b[i]));
    e = Math.max(e, Math.abs(a[i] - b[i]));
  }
  return e / (m || 1);
};

const cpu = await measure("cpu");
console.log(`cpu: forward ${cpu.forwardMs.toFixed(1)} ms, Saliency ${cpu.gradientMs.toFixed(1)} ms`);
let ran = 0;
for (const provider of have.filter((p) => p !== "cpu")) {
  try {
    const r = await measure(provider);
    ran++;
    console.log(
      `${provider}: forward ${r.forwardMs.toFixed(1)} ms (${(cpu.forwardMs / r.forwardMs).toFixed(1)}× the CPU's speed), Saliency ${r.gradientMs.toFixed(1)} ms; ` +
        `logits max error ${maxRel(r.logits, cpu.logits).toExponential(1)}, Saliency max error ${maxRel(r.gradients, cpu.gradients).toExponential(1)} (relative to max |value|)`,
    );
  } catch (err) {
    console.log(`${provider}: did not run here (${(err as Error).message.split("\n")[0].slice(0, 300)})`);
  }
}
if (!ran) {
  console.log("no GPU provider ran on this host");
  process.exit(1);
}
