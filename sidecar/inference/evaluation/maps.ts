// Checks a researcher's uploaded attribution maps against a suite (docs/evaluation.md "Path 2:
// attribution maps from any framework") and turns them into the engine's pixel maps. One .npy per
// task, every task of the suite and no other; shape N×H×W or N×H×W×C with N the suite's evaluation
// split and H×W(×C) the task's input; finite values. Every message names the task and says what was
// expected and what was found, because the researcher reads it on the submission page and fixes
// their script from it.
import { NpyError, readNpy } from "./npy.ts";

export interface MapsSuite {
  id: string;
  tasks: readonly string[];
  /** Maps per task: the suite's evaluation split size (suite.json evaluation.images). */
  images: number;
}

export interface TaskMapsFile {
  task: string;
  /** The .npy file's bytes as uploaded. */
  npy: Uint8Array;
}

/** Uploaded maps that cannot be evaluated; the message is for the researcher. */
export class MapsError extends Error {
  constructor(
    readonly task: string | null,
    message: string,
  ) {
    super(message);
    this.name = "MapsError";
  }
}

const dims = (shape: readonly number[]) => shape.join("×");

/**
 * Validates every task's maps and returns them as pixel maps, N×H×W float32 per task (channels
 * summed as the engine's pixelMap sums an attribution's channels). `inputShapes` gives each
 * task's model input [H, W, C].
 */
export function validateMaps(
  suite: MapsSuite,
  inputShapes: Readonly<Record<string, readonly [number, number, number]>>,
  files: readonly TaskMapsFile[],
): Record<string, Float32Array> {
  const seen = new Set<string>();
  for (const f of files) {
    if (!suite.tasks.includes(f.task)) {
      throw new MapsError(
        f.task,
        `maps for task "${f.task}", which suite ${suite.id} does not have (its tasks: ${suite.tasks.join(", ")}); name each file <task>.npy`,
      );
    }
    if (seen.has(f.task)) throw new MapsError(f.task, `task ${f.task} has maps twice; give one ${f.task}.npy`);
    seen.add(f.task);
  }
  const missing = suite.tasks.filter((t) => !seen.has(t));
  if (missing.length > 0) {
    throw new MapsError(
      missing[0],
      `no maps for ${missing.length === 1 ? "task" : "tasks"} ${missing.join(", ")}: suite ${suite.id} is scored on all its tasks, one <task>.npy each (${suite.tasks.join(", ")})`,
    );
  }
  const out: Record<string, Float32Array> = {};
  for (const task of suite.tasks) {
    const file = files.find((f) => f.task === task)!;
    const shape = inputShapes[task];
    if (!shape) throw new Error(`no input shape for task ${task}`);
    out[task] = taskMaps(task, file.npy, suite.images, shape);
  }
  return out;
}

/** One task's .npy checked and reduced to N×H×W. */
export function taskMaps(task: string, npy: Uint8Array, images: number, [h, w, c]: readonly [number, number, number]): Float32Array {
  const where = `${task}.npy`;
  let data: Float32Array;
  let shape: number[];
  try {
    ({
      data,
      header: { shape },
    } = readNpy(npy));
  } catch (err) {
    if (err instanceof NpyError) throw new MapsError(task, `${where}: ${err.message}`);
    throw err;
  }
  const expected = `${images}×${h}×${w} or ${images}×${h}×${w}×${c}`;
  if (shape.length !== 3 && shape.length !== 4) {
    throw new MapsError(
      task,
      `${where}: expected shape ${expected} (maps × height × width [× channels]), got ${dims(shape) || "a single number"} (${shape.length} dimensions)`,
    );
  }
  if (shape[0] !== images) {
    throw new MapsError(
      task,
      `${where}: expected ${images} maps (one per image of the suite's evaluation split, in the kit's image order), got ${shape[0]} (shape ${dims(shape)})`,
    );
  }
  if (shape[1] !== h || shape[2] !== w) {
    throw new MapsError(task, `${where}: expected maps of ${h}×${w} pixels (the task's input size), got ${shape[1]}×${shape[2]} (shape ${dims(shape)})`);
  }
  const channels = shape.length === 4 ? shape[3] : 1;
  if (shape.length === 4 && channels !== c) {
    throw new MapsError(
      task,
      `${where}: expected ${c} channel${c === 1 ? "" : "s"} (the task's input) or no channel axis, got ${channels} (shape ${dims(shape)})`,
    );
  }
  for (let k = 0; k < data.length; k++) {
    if (!Number.isFinite(data[k])) {
      // The index as numpy would write it, so `maps[i, y, x]` finds it in the researcher's array.
      const idx: number[] = [];
      let r = k;
      for (let d = shape.length - 1; d >= 0; d--) {
        idx.unshift(r % shape[d]);
        r = Math.floor(r / shape[d]);
      }
      throw new MapsError(task, `${where}: maps must hold finite numbers; the first ${Number.isNaN(data[k]) ? "NaN" : "infinity"} is at [${idx.join(", ")}]`);
    }
  }
  if (channels === 1) return data;
  const px = images * h * w;
  const out = new Float32Array(px);
  for (let p = 0; p < px; p++) {
    let s = 0;
    for (let ch = 0; ch < channels; ch++) s = Math.fround(s + data[p * channels + ch]);
    out[p] = s;
  }
  return out;
}
