// Task id → (net, evaluation images). A task id is `<dataset>_<architecture>`, e.g.
// `fashionmnist_resnet`. Its checkpoint is the one its suite pins (suite.json
// evaluation.checkpoints: two suites can share a task id with different networks, as
// metarank-local and metarank-local-v1 do), else the zoo checkpoint named by the task id,
// else the trainer's default id `<arch>-<dataset>`. The images are the first N of the
// dataset's test split in its fixed order (IDX file order for Fashion-MNIST, generation
// index for the generated sets), so every run sees the same split.
import { takeFirst, type ImageDataset } from "../../data/dataset.ts";
import { readFashionMnistSplit } from "../../data/fashionMnist.ts";
import { generateScenesSplit } from "../../data/scenes.ts";
import { generateScenes64Split } from "../../data/scenes64.ts";
import { generateTexturedShapesSplit } from "../../data/texturedShapes.ts";
import type { Net } from "../net.ts";
import { CheckpointError, checkpointDir, readManifest } from "../../zoo/checkpoint.ts";
import { loadZooNet, type ZooNet } from "../../zoo/zooNet.ts";
import type { SplitData } from "./engine.ts";
import { pinnedCheckpoint, type SuiteConfig } from "./suite.ts";

export interface LoadedTask {
  id: string;
  net: Net;
  split: SplitData;
}

/** What the pool's workers import to get a task; tests substitute their own module. */
export interface TaskLoaderModule {
  loadTask(taskId: string, images: number, checkpointId?: string): Promise<LoadedTask>;
}

export class TaskUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TaskUnavailableError";
  }
}

export const DATASETS = ["fashionmnist", "scenes", "scenes64", "textures"] as const;

export function splitTaskId(taskId: string): { dataset: string; architecture: string } {
  const cut = taskId.lastIndexOf("_");
  if (cut <= 0 || cut === taskId.length - 1) throw new TaskUnavailableError(`task id "${taskId}" is not of the form dataset_architecture`);
  return { dataset: taskId.slice(0, cut), architecture: taskId.slice(cut + 1) };
}

/** The first `images` images of the dataset's test split. */
export function evaluationImages(dataset: string, images: number): ImageDataset {
  if (dataset === "fashionmnist") return takeFirst(readFashionMnistSplit("test"), images);
  // Generating only the first N scenes gives exactly the first N of the full test split:
  // each scene depends on (seed, split, index) alone.
  if (dataset === "scenes") return generateScenesSplit("test", images);
  if (dataset === "scenes64") return generateScenes64Split("test", images);
  if (dataset === "textures") return generateTexturedShapesSplit("test", images);
  throw new TaskUnavailableError(`no evaluation data for dataset "${dataset}" (known: ${DATASETS.join(", ")})`);
}

/** The zoo's dataset name (`npm run train -- --dataset …`) for a task's dataset part. */
export const ZOO_DATASET: Record<string, string> = { fashionmnist: "fashion-mnist", scenes: "scenes", scenes64: "scenes64", textures: "textured-shapes" };

/** The checkpoint ids a task may use, in order: the suite's pin alone, else the task id and `<arch>-<dataset>`. */
export function checkpointCandidates(taskId: string, pinned?: string): string[] {
  if (pinned) return [pinned];
  const { dataset, architecture } = splitTaskId(taskId);
  return [taskId, `${architecture}-${ZOO_DATASET[dataset] ?? dataset}`];
}

/**
 * The task's checkpoint (checkpointCandidates, the first usable one). Its manifest must name
 * the task's dataset and architecture.
 */
export function loadTaskNet(taskId: string, dir = checkpointDir(), pinned?: string): ZooNet {
  const { dataset, architecture } = splitTaskId(taskId);
  const zooDataset = ZOO_DATASET[dataset];
  if (!zooDataset) throw new TaskUnavailableError(`no evaluation data for dataset "${dataset}" (known: ${DATASETS.join(", ")})`);
  let net: ZooNet | null = null;
  const problems: string[] = [];
  for (const id of checkpointCandidates(taskId, pinned)) {
    try {
      net = loadZooNet(id, dir);
      break;
    } catch (err) {
      if (!(err instanceof CheckpointError)) throw err;
      problems.push(err.message);
    }
  }
  if (!net)
    throw new TaskUnavailableError(
      `${taskId}: no usable checkpoint (${problems.join("; ")}); train one with npm run train -- --dataset ${zooDataset} --arch ${architecture}`,
    );
  if (net.manifest.dataset !== zooDataset || net.manifest.arch !== architecture) {
    net.dispose();
    throw new TaskUnavailableError(`${taskId}: checkpoint ${net.manifest.id} is ${net.manifest.arch} on ${net.manifest.dataset}`);
  }
  return net;
}

/** Which checkpoint a task uses (id and weights SHA-256), read from its manifest only. */
export function taskCheckpoint(taskId: string, dir = checkpointDir(), pinned?: string): { id: string; weightsSha256: string } {
  for (const id of checkpointCandidates(taskId, pinned)) {
    try {
      const m = readManifest(id, dir);
      return { id: m.id, weightsSha256: m.weightsSha256 };
    } catch (err) {
      if (!(err instanceof CheckpointError)) throw err;
    }
  }
  throw new TaskUnavailableError(`${taskId}: no checkpoint`);
}

/** Every task's checkpoint (id and weights SHA-256) as a suite pins or resolves them: the images.json record. */
export function suiteCheckpoints(
  suite: Pick<SuiteConfig, "evaluation">,
  tasks: string[],
  dir = checkpointDir(),
): Record<string, { id: string; weightsSha256: string }> {
  return Object.fromEntries(tasks.map((t) => [t, taskCheckpoint(t, dir, pinnedCheckpoint(suite, t))]));
}

export async function loadTask(taskId: string, images: number, checkpointId?: string): Promise<LoadedTask> {
  const { dataset } = splitTaskId(taskId);
  const split = evaluationImages(dataset, images);
  const net = loadTaskNet(taskId, checkpointDir(), checkpointId);
  if (net.classNames.length !== split.classNames.length) {
    throw new TaskUnavailableError(`${taskId}: the checkpoint has ${net.classNames.length} classes, the dataset ${split.classNames.length}`);
  }
  return { id: taskId, net, split };
}
