// npm run -s import-model -- FILE.onnx --dataset ID --labels FILE [--id ID] [--task classification|segmentation]
//   [--size HxW] [--mean R,G,B --std R,G,B] [--replace]
// Converts an operator's ONNX classifier into the sidecar's runtime (importOnnx.ts) and writes it
// to IMPORTED_MODEL_DIR (default var/models), where the Inference service lists and serves it
// (docs/onnx-import.md). Exit status 1 with the reason when the file cannot be imported.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { initBackend } from "../../inference/runtime/backend.ts";
import { importedModelDir, importedSegmentationDir } from "./graphNet.ts";
import { importOnnxModel, parseLabels } from "./importOnnx.ts";
import { MAX_ONNX_BYTES, OnnxImportError } from "./onnxMessages.ts";

const USAGE =
  "usage: npm run -s import-model -- FILE.onnx --dataset ID --labels FILE [--id ID] [--task classification|segmentation] [--size HxW] [--mean R,G,B --std R,G,B] [--replace]";

const numbers = (s: string | undefined, what: string): number[] | undefined => {
  if (s === undefined) return undefined;
  const v = s.split(",").map((x) => Number(x.trim()));
  if (v.some((x) => !Number.isFinite(x))) throw new OnnxImportError(`${what} must be comma-separated numbers, got "${s}"`);
  return v;
};

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      strict: true,
      options: {
        dataset: { type: "string" },
        labels: { type: "string" },
        id: { type: "string" },
        task: { type: "string", default: "classification" },
        size: { type: "string" },
        mean: { type: "string" },
        std: { type: "string" },
        replace: { type: "boolean" },
        help: { type: "boolean" },
      },
    });
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length !== 1 || !values.dataset || !values.labels) {
    console.error(USAGE);
    return 2;
  }
  const file = positionals[0];
  try {
    if (values.task !== "classification" && values.task !== "segmentation")
      throw new OnnxImportError(`--task ${values.task}: classification or segmentation is imported`);
    if (!/^[a-z0-9][a-z0-9._-]{0,63}$/.test(values.dataset))
      throw new OnnxImportError(`--dataset "${values.dataset}" must be a lower-case id such as imagenet`);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile()) throw new OnnxImportError(`${file} is not a file`);
    if (stat.size > MAX_ONNX_BYTES) throw new OnnxImportError(`${file} is ${stat.size} bytes; at most ${MAX_ONNX_BYTES} are imported`);
    const labelsStat = fs.statSync(values.labels, { throwIfNoEntry: false });
    if (!labelsStat?.isFile() || labelsStat.size > 8 * 1024 * 1024) throw new OnnxImportError(`${values.labels} is not a labels file of at most 8 MiB`);
    let size: [number, number] | undefined;
    if (values.size) {
      const m = /^(\d+)x(\d+)$/.exec(values.size);
      if (!m) throw new OnnxImportError(`--size must be HxW, e.g. 224x224, got "${values.size}"`);
      size = [Number(m[1]), Number(m[2])];
    }
    const id =
      values.id ??
      path
        .basename(file)
        .replace(/\.onnx$/i, "")
        .toLowerCase()
        .replace(/[^a-z0-9._-]+/g, "-")
        .replace(/^[^a-z0-9]+/, "");
    const started = performance.now();
    await initBackend();
    const manifest = importOnnxModel(fs.readFileSync(file), {
      id,
      dataset: values.dataset,
      classNames: parseLabels(fs.readFileSync(values.labels, "utf8")),
      size,
      mean: numbers(values.mean, "--mean"),
      std: numbers(values.std, "--std"),
      sourceName: file,
      replace: values.replace,
      task: values.task,
    });
    const [h, w, c] = manifest.inputShape;
    console.error(
      `${manifest.id}: ${manifest.graph.ops.length} ops, ${manifest.weights.length} weights, input ${h}×${w}×${c}, ${manifest.classNames.length} classes, dataset ${manifest.dataset} → ${values.task === "segmentation" ? importedSegmentationDir() : importedModelDir()} in ${((performance.now() - started) / 1000).toFixed(1)} s; GradCAM layer ${manifest.defaultCamLayer || "(none)"}`,
    );
    return 0;
  } catch (err) {
    if (err instanceof OnnxImportError) {
      console.error(`import-model: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

process.exitCode = await main();
