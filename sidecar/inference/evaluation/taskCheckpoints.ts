// Which checkpoint a task of a suite uses, read from the zoo's manifests only: no tensor
// runtime is loaded here, so the seeders (seeds/importSuite.ts), the suite listing and the
// maps checks can name a task's network without starting tfjs. Loading the network itself is
// tasks.ts's loadTaskNet, over the same candidates. The resolution order (a suite's pin, else
// the task id, else `<arch>-<dataset>`) is docs/evaluation.md §1's.
import fs from "node:fs";
import path from "node:path";
import { CheckpointError, checkpointDir, readManifest, type CheckpointManifest } from "../../zoo/checkpoint.ts";
import { pinnedCheckpoint, type SuiteConfig } from "./suite.ts";

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

/** The zoo's dataset name (`npm run train -- --dataset …`) for a task's dataset part. */
export const ZOO_DATASET: Record<string, string> = { fashionmnist: "fashion-mnist", scenes: "scenes", scenes64: "scenes64", textures: "textured-shapes" };

/** The checkpoint ids a task may use, in order: the suite's pin alone, else the task id and `<arch>-<dataset>`. */
export function checkpointCandidates(taskId: string, pinned?: string): string[] {
  if (pinned) return [pinned];
  const { dataset, architecture } = splitTaskId(taskId);
  return [taskId, `${architecture}-${ZOO_DATASET[dataset] ?? dataset}`];
}

/** The manifest of the checkpoint a task uses: the first candidate (checkpointCandidates) with a readable manifest. */
export function taskManifest(taskId: string, dir = checkpointDir(), pinned?: string): CheckpointManifest {
  for (const id of checkpointCandidates(taskId, pinned)) {
    try {
      return readManifest(id, dir);
    } catch (err) {
      if (!(err instanceof CheckpointError)) throw err;
    }
  }
  throw new TaskUnavailableError(`${taskId}: no checkpoint`);
}

/** Which checkpoint a task uses (id and weights SHA-256), read from its manifest only. */
export function taskCheckpoint(taskId: string, dir = checkpointDir(), pinned?: string): { id: string; weightsSha256: string } {
  const m = taskManifest(taskId, dir, pinned);
  return { id: m.id, weightsSha256: m.weightsSha256 };
}

/** Every task's checkpoint (id and weights SHA-256) as a suite pins or resolves them: the images.json record. */
export function suiteCheckpoints(
  suite: Pick<SuiteConfig, "evaluation">,
  tasks: string[],
  dir = checkpointDir(),
): Record<string, { id: string; weightsSha256: string }> {
  return Object.fromEntries(tasks.map((t) => [t, taskCheckpoint(t, dir, pinnedCheckpoint(suite, t))]));
}

export interface TaskAvailability {
  id: string;
  available: boolean;
  checkpointId: string;
  problem: string;
}

/**
 * Whether a task's checkpoint is installed: the manifest is read and its weights file must
 * exist (hashing every file on each listing would be slow; the worker verifies the hash
 * when it loads the net). The same ids as tasks.ts's loader are tried (checkpointCandidates).
 */
export function taskAvailability(taskId: string, dir = checkpointDir(), pinned?: string): TaskAvailability {
  let parts: { dataset: string; architecture: string };
  try {
    parts = splitTaskId(taskId);
  } catch (err) {
    return { id: taskId, available: false, checkpointId: "", problem: (err as Error).message };
  }
  const zooDataset = ZOO_DATASET[parts.dataset];
  if (!zooDataset)
    return {
      id: taskId,
      available: false,
      checkpointId: "",
      problem: `no evaluation data for dataset "${parts.dataset}" (known: ${Object.keys(ZOO_DATASET).join(", ")})`,
    };
  const problems: string[] = [];
  for (const id of checkpointCandidates(taskId, pinned)) {
    try {
      const m = readManifest(id, dir);
      if (m.dataset !== zooDataset || m.arch !== parts.architecture) {
        problems.push(`checkpoint ${id} is ${m.arch} on ${m.dataset}`);
        continue;
      }
      if (!fs.existsSync(path.join(dir, path.basename(m.weightsFile)))) {
        problems.push(`checkpoint ${id}: weights file ${m.weightsFile} is missing`);
        continue;
      }
      return { id: taskId, available: true, checkpointId: id, problem: "" };
    } catch (err) {
      if (!(err instanceof CheckpointError)) throw err;
      problems.push(err.message);
    }
  }
  return {
    id: taskId,
    available: false,
    checkpointId: "",
    problem: `${taskId}: no usable checkpoint (${problems.join("; ")}); train one with npm run train -- --dataset ${zooDataset} --arch ${parts.architecture}`,
  };
}

/** A task's availability on the checkpoint its suite pins (or resolves): what ListSuites shows and runs check. */
export function suiteTaskAvailability(suite: Pick<SuiteConfig, "evaluation">, taskId: string, dir = checkpointDir()): TaskAvailability {
  return taskAvailability(taskId, dir, pinnedCheckpoint(suite, taskId));
}
