// The script generator's 11 tasks (seed 000 §1) and the evaluation settings it prints.
export const EVALUATION_TASKS = [
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

export const EVALUATION_SETTINGS = { patchSize: 2, filler: [0, 0, 0], skipFactor: 0.1 } as const;

export function generateScript(tasks: readonly string[]): string {
  const { patchSize, filler, skipFactor } = EVALUATION_SETTINGS;
  const lines = [
    "#!/usr/bin/env bash",
    "# Meta-Rank evaluation script (Python 3.7.16, conda env 'metarank')",
    "# Runs your attribution method on every chosen task, for MoRF and LeRF.",
    "set -e",
    "conda activate metarank",
    "",
  ];
  for (const task of tasks) {
    const [dataset, arch] = task.split("_");
    for (const order of ["morf", "lerf"]) {
      lines.push(
        `python evaluate.py --dataset ${dataset} --model ${arch} --order ${order} --patch-size ${patchSize} --filler ${filler.join(" ")} --skip-factor ${skipFactor} --method my_method --out results/${order}.csv --task ${task}`,
      );
    }
  }
  lines.push("", "# Upload results/morf.csv and results/lerf.csv on the SUBMISSION page.");
  return lines.join("\n");
}
