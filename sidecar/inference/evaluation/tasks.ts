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
import { CheckpointError, checkpointDir } from "../../zoo/checkpoint.ts";
import { loadZooNet, type ZooNet } from "../../zoo/zooNet.ts";
import type { SplitData } from "./engine.ts";
import { DATASETS, TaskUnavailableError, ZOO_DATASET, checkpointCandidates, splitTaskId } from "./taskCheckpoints.ts";

export interface LoadedTask {
  id: string;
  net: Net;
  split: SplitData;
}

/** What the pool's workers import to get a task; tests substitute their own module. */
export interface TaskLoaderModule {
  loadTask(taskId: string, images: number, checkpointId?: string): Promise<LoadedTask>;
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

export async function loadTask(taskId: string, images: number, checkpointId?: string): Promise<LoadedTask> {
  const { dataset } = splitTaskId(taskId);
  const split = evaluationImages(dataset, images);
  const net = loadTaskNet(taskId, checkpointDir(), checkpointId);
  if (net.classNames.length !== split.classNames.length) {
    throw new TaskUnavailableError(`${taskId}: the checkpoint has ${net.classNames.length} classes, the dataset ${split.classNames.length}`);
  }
  return { id: taskId, net, split };
}
