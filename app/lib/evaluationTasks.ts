// The tutorial's script generator (seed 000 §1 "script generator"): runnable commands of the
// platform's own evaluation CLI (sidecar/inference/evaluation/cli.ts) for the chosen tasks of a
// suite, each task writing its own result files, then the whole-suite run a submission needs.

/** The seed suite's 11 task names (seed 000 §1); its data is not on this server unless an operator installs it. */
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

/** A method name as the CLI takes it (a registered attribution method). */
export const METHOD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
export const DEFAULT_METHOD = "IntegratedGradients";

export function generateScript(suiteId: string, tasks: readonly string[], method: string): string {
  const lines = [
    "#!/usr/bin/env bash",
    `# Meta-Rank evaluation of ${method} on suite ${suiteId}, with the platform's own engine`,
    "# (run in a clone of the platform after `make install`; progress goes to stderr).",
    "set -e",
    "",
  ];
  for (const task of tasks) {
    lines.push(`npm run -s evaluate -- --suite ${suiteId} --method ${method} --task ${task} --out results/${task}`);
  }
  lines.push(
    "",
    "# A submission needs every task of the suite in one MoRF and one LeRF file:",
    `npm run -s evaluate -- --suite ${suiteId} --method ${method} --out results/all`,
    "# Upload results/all/morf.csv and results/all/lerf.csv on the SUBMISSION page.",
  );
  return lines.join("\n");
}
