// The README.md inside a suite kit: what each file is, the image order and layout, the maps
// format the platform accepts, and a Python snippet that runs as written with numpy and
// onnxruntime. Generated from the plan so every number in it (tasks, image counts, shapes,
// classes, the suite's evaluation settings) is the kit's own. A task's kit says that it holds one
// task of the suite and where the others are.
import type { ImageDataset } from "../data/dataset.ts";
import type { KitPlan } from "./buildKit.ts";
import { ONNX_INPUT, ONNX_OPSET, ONNX_OUTPUT } from "../zoo/onnx/export.ts";

export function kitReadme(plan: KitPlan, splits: ImageDataset[]): string {
  const { suite } = plan;
  const first = plan.tasks[0]?.id ?? "TASK";
  const taskRows = plan.tasks.map((t, i) => {
    const ds = splits[i];
    const eightBit = ds.name.startsWith("fashion-mnist");
    return `| \`${t.id}\` | ${ds.size} | ${ds.height}×${ds.width}×${ds.channels} | ${ds.classNames.length} (${ds.classNames.join(", ")}) | \`${t.checkpoint.id}\` (${t.checkpoint.arch}) | ${eightBit ? "exact (8-bit source)" : "quantised to 8 bits (the data is float)"} |`;
  });
  const scope =
    plan.task === null
      ? ""
      : `
**This kit holds one task of the suite, \`${plan.task}\`** (the suite has ${suite.tasks.length}: ${suite.tasks.map((t) => `\`${t}\``).join(", ")}).
The whole suite's kit is \`/suites/${suite.id}/kit.zip\`, each task's \`/suites/${suite.id}/kit.zip?task=<task>\`.
A maps zip for a verified result holds the maps of every task of the suite.

`;
  return `# ${suite.name} — ${plan.task === null ? "suite kit" : `kit of task ${plan.task}`}

Suite \`${suite.id}\`, kit format \`metarank-kit/1\`, cache key \`${plan.key.slice(0, 20)}\`.
${scope}Everything here is what the platform's evaluation engine uses for this suite: the same images
in the same order, the same labels (the attribution target is the true class) and the same
networks. Compute one attribution map per image with your method, in any framework, and
upload the maps: the platform runs MoRF and LeRF on them itself.

Evaluation settings (from \`suite.json\`): patch size ${suite.settings.patchSize} px, filler
[${suite.settings.filler.join(", ")}], removal fractions ${suite.settings.grid.join(", ")}.

## Files

| Path | What it is |
| --- | --- |
| \`suite.json\` | The suite's definition, byte for byte as the platform holds it. |
| \`tasks/<task>/images.npy\` | The evaluation images: float32, shape N×H×W×C (NHWC), values in [0, 1], NumPy format 1.0. **The exact engine inputs.** |
| \`tasks/<task>/images/00000.png …\` | The same images as 8-bit PNGs (grey or RGB), for viewing and standard image loaders. |
| \`tasks/<task>/labels.csv\` | \`index,label,class\`: image index in kit order, class index (the target), class name. |
| \`tasks/<task>/model.onnx\` | The network in ONNX (opset ${ONNX_OPSET}): input \`${ONNX_INPUT}\` float32 [N, C, H, W] in [0, 1], output \`${ONNX_OUTPUT}\` [N, classes] (no softmax). |
| \`tasks/<task>/checkpoint/<id>.json\`, \`<id>.weights.bin\` | The same network in the platform's checkpoint format (manifest + little-endian weights; see the manifest's \`weights\` list). |

## Tasks

| Task | Images | H×W×C | Classes | Checkpoint | PNG |
| --- | --- | --- | --- | --- | --- |
${taskRows.join("\n")}

Image order: index \`i\` of \`images.npy\`, \`images/<i, 5 digits>.png\` and line \`i\` of
\`labels.csv\` are the same image: the first N images of the dataset's test split, in the
dataset's own order.

**Compute maps on \`images.npy\`'s float values.** The PNGs are rounded to 8 bits; where the
source data is not 8-bit (the scenes), a map computed from a PNG is computed on a slightly
different image than the one the platform scores.

\`images.npy\` is NHWC (the platform's layout); \`model.onnx\` takes NCHW like PyTorch, so
transpose with \`x.transpose(0, 3, 1, 2)\`.

## Maps the platform accepts

One file per task, \`<task>.npy\` (e.g. \`${first}.npy\`), all in one zip:

- dtype float32 or float16 (NumPy \`<f4\` or \`<f2\`), no NaN or infinity;
- shape N×H×W (one value per pixel) or N×H×W×C (one value per pixel and channel), in NHWC order;
- N and the order exactly as in this kit: map \`i\` belongs to image \`i\` of \`images.npy\`;
- larger values mean more important (MoRF removes the highest first).

## Python

\`\`\`python
import numpy as np, onnxruntime as ort

task = "${first}"
x = np.load(f"tasks/{task}/images.npy")                       # N×H×W×C float32 in [0, 1]
labels = np.loadtxt(f"tasks/{task}/labels.csv", delimiter=",", skiprows=1, usecols=1, dtype=np.int64)
session = ort.InferenceSession(f"tasks/{task}/model.onnx")
logits = session.run(["${ONNX_OUTPUT}"], {"${ONNX_INPUT}": x.transpose(0, 3, 1, 2)})[0]
print("accuracy", (logits.argmax(1) == labels).mean())

maps = np.abs(x).sum(axis=3).astype(np.float32)                 # your method here: N×H×W
np.save(f"{task}.npy", maps)
\`\`\`

PyTorch: \`onnx2torch.convert("tasks/<task>/model.onnx")\` gives an \`nn.Module\` taking the same
NCHW input; TensorFlow: \`onnx2tf\` or \`onnx-tf\` convert the model, or run the checkpoint's
weights (NHWC, HWIO kernels) directly.
`;
}
