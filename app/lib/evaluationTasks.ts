// The tutorial's script generator: runnable commands of the platform's own evaluation CLI
// (sidecar/inference/evaluation/cli.ts) for the chosen tasks of a suite, each task writing its own
// result files, then the whole-suite run a submission needs.

/** The metarank-seed suite's 11 task names (the original Meta-Rank's); its data is not on this server unless an operator installs it. */
export const SEED_TASKS = [
  "nwpuresisc45_resnet18",
  "nwpuresisc45_inceptionv4",
  "nwpuresisc45_vgg19",
  "food_resnet18",
  "food_inceptionv4",
  "food_vgg19",
  "imagenet_resnet18",
  "imagenet_inceptionv4",
  "imagenet_vgg19",
  "places365_resnet18",
  "places365_resnet50",
] as const;

/** A method as the CLI takes it: a registered attribution method's name, or the path of a method module (`--method-module`). */
export const METHOD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
export const METHOD_MODULE = /^(\.{0,2}\/)?[A-Za-z0-9_][A-Za-z0-9_./-]{0,120}\.ts$/;
/** The example method module of the repository (docs/examples/edgeMethod.ts): what the generator starts from. */
export const DEFAULT_METHOD = "docs/examples/edgeMethod.ts";

export const isMethodModule = (method: string) => METHOD_MODULE.test(method) && !method.split("/").includes("..");
export const isMethod = (method: string) => METHOD_NAME.test(method) || isMethodModule(method);

const methodFlag = (method: string) => (isMethodModule(method) ? `--method-module ${method}` : `--method ${method}`);

export function generateScript(suiteId: string, tasks: readonly string[], method: string): string {
  const lines = [
    "#!/usr/bin/env bash",
    `# Meta-Rank evaluation of ${method} on suite ${suiteId}, with the platform's own engine`,
    "# (run in a clone of the platform after `make install`; progress goes to stderr).",
    "set -e",
    "",
  ];
  for (const task of tasks) {
    lines.push(`npm run -s evaluate -- --suite ${suiteId} ${methodFlag(method)} --task ${task} --out results/${task}`);
  }
  lines.push(
    "",
    "# A submission needs every task of the suite in one MoRF and one LeRF file:",
    `npm run -s evaluate -- --suite ${suiteId} ${methodFlag(method)} --out results/all`,
  );
  if (isMethodModule(method))
    lines.push(
      "# Upload results/all/maps.zip in SUBMISSION's verified evaluation: the platform recomputes",
      "# MoRF and LeRF from those maps and the row is marked verified.",
    );
  else
    lines.push(
      "# Upload results/all/morf.csv and results/all/lerf.csv on the SUBMISSION page (self-reported);",
      "# with --method-module your own method also writes maps.zip, which the platform verifies.",
    );
  return lines.join("\n");
}

/**
 * The tutorial's Python script (docs/evaluation.md "Path 2: attribution maps from any framework"):
 * attribution maps for every task of a suite from its unpacked kit, written with numpy alone,
 * zipped for the verified upload. It runs as written in the folder that holds `kit/`
 * (tests/integration/verified.test.ts runs the page's copy); the example method is the image's
 * gradient magnitude, to be replaced by the researcher's own.
 */
export function mapsScript(tasks: readonly string[]): string {
  return `import io, zipfile
import numpy as np

TASKS = [${tasks.map((t) => JSON.stringify(t)).join(", ")}]

def my_attribution(images, labels):
    """Your method: one map per image (N x H x W, or N x H x W x C). This example is
    model-free, the image's gradient magnitude; the task's network is kit/tasks/TASK/model.onnx
    (onnxruntime.InferenceSession; input N x C x H x W = images.transpose(0, 3, 1, 2))."""
    gy, gx = np.gradient(images.mean(axis=3), axis=(1, 2))
    return np.hypot(gx, gy)

with zipfile.ZipFile("maps.zip", "w", zipfile.ZIP_DEFLATED) as z:
    for task in TASKS:
        images = np.load(f"kit/tasks/{task}/images.npy")  # N x H x W x C float32: the exact model inputs
        labels = np.loadtxt(f"kit/tasks/{task}/labels.csv", delimiter=",", skiprows=1, usecols=1, dtype=int)
        maps = my_attribution(images, labels).astype(np.float32)
        buf = io.BytesIO()
        np.save(buf, maps)  # the kit's image order, one map per image
        z.writestr(f"{task}.npy", buf.getvalue())
print("wrote maps.zip")
`;
}
