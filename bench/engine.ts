// The engine against PyTorch (prints, never asserts): torchvision classifiers exported by PyTorch
// (bench/torchvision/export.py: random seeded weights, opset 17, dynamic batch) served by the
// sidecar's native engine (sidecar/engine on onnxruntime-node), side by side with PyTorch CPU
// measured in the same run, with one thread on each side, then every core on each side:
//   forward of one image and of 64, Saliency and IntegratedGradients (Captum's defaults: 50
//   Gauss-Legendre steps, baseline 0, internal_batch_size 50) of the top class, the values' max
//   error against PyTorch's relative to max |attribution|, and raw onnxruntime-node's forward.
// --old adds the tfjs engine (the converted graph, wasm, one thread) for Saliency.
// --sweep checks every model exported in --dir instead (no timings): loads, gradient graph built,
// logits and Saliency against PyTorch, one IntegratedGradients at default parameters.
// Run: npx tsx bench/engine.ts [--models resnet18,squeezenet1_1] [--dir var/bench/torchvision] [--old] [--no-torch] [--sweep]
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import * as tf from "@tensorflow/tfjs";
import { NativeModel } from "../sidecar/engine/nativeModel.ts";
import { createSession, ort } from "../sidecar/engine/runtime.ts";
import { getAlgorithm } from "../sidecar/inference/attribution/index.ts";
import type { Net } from "../sidecar/inference/net.ts";
import { initBackend } from "../sidecar/inference/runtime/backend.ts";
import { loadImportedNet } from "../sidecar/zoo/onnx/graphNet.ts";
import { importOnnxModel } from "../sidecar/zoo/onnx/importOnnx.ts";

const { values } = parseArgs({
  options: {
    models: { type: "string", default: "resnet18,squeezenet1_1" },
    dir: { type: "string", default: "var/bench/torchvision" },
    old: { type: "boolean", default: false },
    "no-torch": { type: "boolean", default: false },
    sweep: { type: "boolean", default: false },
  },
});
const dir = values.dir!;
const cores = os.availableParallelism();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function timed(fn: () => Promise<unknown>, runs = 3): Promise<number> {
  await fn();
  const ts: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    ts.push(performance.now() - t0);
  }
  return median(ts);
}
const f32 = (file: string) => {
  const b = fs.readFileSync(file);
  return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
};
function nchwToNhwc(x: Float32Array, c: number, h: number, w: number): Float32Array {
  const out = new Float32Array(x.length);
  for (let k = 0; k < c; k++) for (let i = 0; i < h; i++) for (let j = 0; j < w; j++) out[(i * w + j) * c + k] = x[(k * h + i) * w + j];
  return out;
}
function relError(a: ArrayLike<number>, ref: ArrayLike<number>): number {
  let m = 0;
  let e = 0;
  for (let i = 0; i < ref.length; i++) {
    m = Math.max(m, Math.abs(ref[i]));
    e = Math.max(e, Math.abs(a[i] - ref[i]));
  }
  return e / (m || 1);
}
const fmt = (ms: number | undefined) => (ms === undefined ? "—" : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? "" : ` (${(a / b).toFixed(2)}×)`);

await initBackend("wasm");

/** A Net over a NativeModel alone, as the registry's algorithms take it. */
function nativeNet(name: string, m: NativeModel, size: number): Net {
  return {
    id: name,
    inputShape: [size, size, 3],
    classNames: Array.from({ length: m.classes }, (_, i) => String(i)),
    layers: [],
    native: m,
    nativeGradients: true,
    forward: () => {
      throw new Error("native only");
    },
    trainableVariables: () => [],
  };
}

if (values.sweep) {
  const names = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -5))
    .sort();
  console.log("| model | px | ONNX MB | served | gradients | logits error | Saliency error | IG (defaults) error | IG time |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  let ok = 0;
  for (const name of names) {
    const meta = JSON.parse(fs.readFileSync(path.join(dir, `${name}.json`), "utf8"));
    if (meta.exportError) {
      console.log(`| ${name} | | | PyTorch 1.13's export failed: ${String(meta.exportError).split("\n")[0].slice(0, 80)} | | | | | |`);
      continue;
    }
    const size = meta.size as number;
    const onnx = fs.readFileSync(path.join(dir, `${name}.onnx`));
    const cells: string[] = [name, String(size), (onnx.length / 1e6).toFixed(0)];
    try {
      const m = await NativeModel.load(name, onnx, { inputShape: [size, size, 3], provider: "cpu" });
      cells.push("yes");
      const x = nchwToNhwc(f32(path.join(dir, `${name}.input.bin`)), 3, size, size);
      const support = await m.gradientSupport();
      cells.push(support === true ? "yes" : `no: ${support.slice(0, 90)}`);
      cells.push(relError(await m.logits(x, 1), f32(path.join(dir, `${name}.logits.bin`))).toExponential(1));
      if (support === true) {
        const { gradients } = await m.gradients(x, 1, meta.target);
        cells.push(relError(gradients, nchwToNhwc(f32(path.join(dir, `${name}.saliency.bin`)), 3, size, size)).toExponential(1));
        const xt = tf.tensor4d(x, [1, size, size, 3]);
        const t0 = performance.now();
        const r = await getAlgorithm("IntegratedGradients").run(nativeNet(name, m, size), xt, meta.target, {});
        const igMs = performance.now() - t0;
        cells.push(relError(r.attribution.dataSync(), nchwToNhwc(f32(path.join(dir, `${name}.ig.bin`)), 3, size, size)).toExponential(1), fmt(igMs));
        r.attribution.dispose();
        xt.dispose();
        ok++;
      } else cells.push("", "", "");
      await m.release();
    } catch (err) {
      cells.push(`no: ${(err as Error).message.split("\n")[0].slice(0, 90)}`, "", "", "", "", "");
    }
    console.log(`| ${cells.join(" | ")} |`);
  }
  console.log(`\n${ok} of ${names.length} exported models explained with Saliency and IntegratedGradients at default parameters`);
  process.exit(0);
}

const load = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(", ");
console.log(`# engine bench — ${os.cpus()[0]?.model ?? "cpu"}, ${cores} cores, load average ${load}, onnxruntime-node ${ort.env.versions?.common ?? ""}`);

for (const name of values.models!.split(",")) {
  const metaFile = path.join(dir, `${name}.json`);
  if (!values["no-torch"] || !fs.existsSync(metaFile)) {
    // PyTorch measured now, in this run, on this machine.
    execFileSync("/usr/bin/python3", ["bench/torchvision/export.py", "--out", dir, "--models", name], { stdio: ["ignore", "ignore", "inherit"] });
  }
  const meta = JSON.parse(fs.readFileSync(metaFile, "utf8"));
  if (meta.exportError) {
    console.log(`\n## ${name}: PyTorch's export failed: ${meta.exportError}`);
    continue;
  }
  const size = meta.size as number;
  const onnx = fs.readFileSync(path.join(dir, `${name}.onnx`));
  const x = nchwToNhwc(f32(path.join(dir, `${name}.input.bin`)), 3, size, size);
  const refLogits = f32(path.join(dir, `${name}.logits.bin`));
  const refSal = nchwToNhwc(f32(path.join(dir, `${name}.saliency.bin`)), 3, size, size);
  const refIg = nchwToNhwc(f32(path.join(dir, `${name}.ig.bin`)), 3, size, size);
  console.log(`\n## ${name} (${size} px, ${(onnx.length / 1e6).toFixed(1)} MB ONNX, target ${meta.target})`);
  console.log("| threads | step | PyTorch | engine | ratio | raw onnxruntime | max error / max |value| |");
  console.log("|---|---|---|---|---|---|---|");
  for (const threads of [...new Set([1, cores])]) {
    const m = await NativeModel.load(name, onnx, { inputShape: [size, size, 3], provider: "cpu", threads });
    const support = await m.gradientSupport();
    const raw = await createSession(onnx, { provider: "cpu", threads });
    const rawIn = new ort.Tensor("float32", f32(path.join(dir, `${name}.input.bin`)), [1, 3, size, size]);
    const rawMs = await timed(() => raw.run({ [raw.inputNames[0]]: rawIn }));
    const logits = await m.logits(x, 1);
    const fwd = await timed(() => m.logits(x, 1));
    const batch64 = new Float32Array(64 * x.length);
    for (let i = 0; i < 64; i++) batch64.set(x, i * x.length);
    const fwd64 = await timed(() => m.logits(batch64, 64), 1);
    const row = (step: string, torch: number | undefined, engine: number | undefined, rawT = "", err = "") =>
      console.log(`| ${threads} | ${step} | ${fmt(torch)} | ${fmt(engine)} | ${ratio(engine, torch)} | ${rawT} | ${err} |`);
    row("forward, 1 image", meta[`forwardMs${threads}`], fwd, `${fmt(rawMs)}${ratio(fwd, rawMs)}`, `logits ${relError(logits, refLogits).toExponential(1)}`);
    row("forward, 64 images", meta[`forward64Ms${threads}`], fwd64);
    if (support !== true) {
      console.log(`| ${threads} | gradients | | unsupported: ${support} | | | |`);
    } else {
      const { gradients } = await m.gradients(x, 1, meta.target);
      const salMs = await timed(() => m.gradients(x, 1, meta.target));
      row("Saliency", meta[`saliencyMs${threads}`], salMs, "", relError(gradients, refSal).toExponential(1));
      const net = nativeNet(name, m, size);
      const ig = getAlgorithm("IntegratedGradients");
      const xt = tf.tensor4d(x, [1, size, size, 3]);
      const r = await ig.run(net, xt, meta.target, {});
      const igErr = relError(r.attribution.dataSync(), refIg);
      r.attribution.dispose();
      const igMs = await timed(async () => (await ig.run(net, xt, meta.target, {})).attribution.dispose(), 1);
      row("IntegratedGradients (defaults)", meta[`igMs${threads}`], igMs, "", igErr.toExponential(1));
      xt.dispose();
    }
    await m.release();
    await raw.release();
  }
  if (values.old) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "engine-bench-"));
    try {
      const manifest = importOnnxModel(onnx, {
        id: name.replace(/_/g, "-"),
        dataset: "bench",
        classNames: Array.from({ length: meta.classes }, (_, i) => `c${i}`),
        dir: tmp,
      });
      const net = loadImportedNet(manifest.id, tmp);
      const xt = tf.tensor4d(x, [1, size, size, 3]);
      const sal = getAlgorithm("Saliency");
      const ms = await timed(async () => (await sal.run(net, xt, meta.target, { abs: false })).attribution.dispose(), 1);
      console.log(`| 1 | Saliency, tfjs engine (before) | ${fmt(meta.saliencyMs1)} | ${fmt(ms)} | ${ratio(ms, meta.saliencyMs1)} | | |`);
    } catch (err) {
      console.log(`| 1 | tfjs engine (before) | | ${(err as Error).message.slice(0, 120)} | | | |`);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
}
