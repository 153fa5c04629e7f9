// What the leaderboard's tasks table shows of each task's network: read by the seeding step from
// the checkpoint manifest a suite pins (seeds/importSuite.ts), stored as suites.task_models_json.

export interface TaskModel {
  /** Zoo checkpoint id (sidecar/zoo/checkpoints/<id>.json). */
  checkpoint: string;
  /** Zoo architecture: resnet (ResNet-18 layout), resnet50, vgg, inception. */
  arch: string;
  /** Zoo dataset name: fashion-mnist, scenes, scenes64, textured-shapes, … */
  dataset: string;
  /** [height, width, channels] */
  input: [number, number, number];
  classes: number;
  /** Accuracy on the held-out test split, in [0, 1], and how many images that was. */
  testAccuracy: number;
  testSize: number;
  trainSize: number;
  /** Epoch kept (the best on validation when the manifest has a curve). */
  epochs: number;
  /** Validation accuracy after each epoch, when the checkpoint was trained with a validation split. */
  valHistory?: number[];
}

/** Parses suites.task_models_json; anything malformed reads as "not known" rather than failing the page. */
export function parseTaskModels(json: string | null | undefined): Record<string, TaskModel | null> {
  if (!json) return {};
  try {
    const v = JSON.parse(json) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, TaskModel | null>) : {};
  } catch {
    return {};
  }
}
