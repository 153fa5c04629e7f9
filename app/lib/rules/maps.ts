// Uploading attribution maps for the platform to evaluate (docs/evaluation.md
// "Evaluating your own method"): the limits and messages, shared by the submission page (checks
// before a byte is sent), the JSON API and the server (the authority). No server-only imports.
import { messageRef, type MessageRef } from "../forms/messages.ts";

/** The zip of maps: one `<task>.npy` per task of the suite, streamed to disk (never held in memory). */
export const MAPS_MAX_BYTES = 256 * 1024 * 1024;
/** What the maps may unpack to: a zip bomb is refused by its directory before anything is unpacked. */
export const MAPS_MAX_UNPACKED_BYTES = 1024 * 1024 * 1024;
/** A large upload on a slow line: 10 minutes, not the 30 s of the small forms. */
export const MAPS_UPLOAD_TIMEOUT_MS = 10 * 60_000;
/** Maps evaluations a user may start in a rolling day (each runs every image of every task). */
export const MAPS_DAILY_LIMIT = 10;
export const MAPS_DTYPES = ["<f4", "<f2"] as const;

export const MAPS_MSG = {
  required: "submission:maps.msg.required",
  notZip: "submission:maps.msg.notZip",
  tooLarge: "submission:maps.msg.tooLarge",
  unreadable: "submission:maps.msg.unreadable",
  noSplit: "submission:maps.msg.noSplit",
  busy: "submission:maps.msg.busy",
  daily: "submission:maps.msg.daily",
  queued: "submission:maps.msg.queued",
  queueDown: "submission:maps.msg.queueDown",
  unpackedTooLarge: "submission:maps.msg.unpackedTooLarge",
  unknownEntry: "submission:maps.msg.unknownEntry",
  duplicate: "submission:maps.msg.duplicate",
  missingTask: "submission:maps.msg.missingTask",
  notNpy: "submission:maps.msg.notNpy",
  notNumpy: "submission:maps.msg.notNumpy",
  truncatedNpy: "submission:maps.msg.truncatedNpy",
  dtype: "submission:maps.msg.dtype",
  byteOrder: "submission:maps.msg.byteOrder",
  fortran: "submission:maps.msg.fortran",
  rank: "submission:maps.msg.rank",
  count: "submission:maps.msg.count",
  size: "submission:maps.msg.size",
  channelsFirst: "submission:maps.msg.channelsFirst",
  grid: "submission:maps.msg.grid",
  channels: "submission:maps.msg.channels",
  refused: "submission:maps.msg.refused",
  attached: "submission:maps.msg.attached",
} as const;

export const mapsMessage = (key: keyof typeof MAPS_MSG, values?: Record<string, string | number>): MessageRef =>
  values ? messageRef(MAPS_MSG[key], values) : MAPS_MSG[key];

/**
 * The shapes a task's maps may have: N×H×W, or N×H×W×C (summed over channels, as the engine does).
 * `input` is the task's [height, width, channels] where the suite records its network
 * (suites.task_models_json); without it the sidecar checks H, W and C when the job runs. The
 * commonest mistake, PyTorch's channels-first N×C×H×W, is named with the transpose that fixes it.
 */
export function checkMapsShape(task: string, shape: readonly number[], images: number, input?: readonly [number, number, number] | null): MessageRef | null {
  if (shape.length !== 3 && shape.length !== 4) return mapsMessage("rank", { task, shape: `(${shape.join(", ")})` });
  if (shape[0] !== images) return mapsMessage("count", { task, expected: images, actual: shape[0] });
  if (!input) return null;
  const [h, w, c] = input;
  const dims = `(${shape.join(", ")})`;
  const channelsLast = shape[1] === h && shape[2] === w && (shape.length === 3 || shape[3] === c);
  if (!channelsLast && shape.length === 4 && shape[1] === c && shape[2] === h && shape[3] === w)
    return mapsMessage("channelsFirst", { task, shape: dims, h, w, c });
  if (shape[1] !== h || shape[2] !== w) return mapsMessage("grid", { task, shape: dims, h, w, c });
  if (shape.length === 4 && shape[3] !== c) return mapsMessage("channels", { task, shape: dims, c });
  return null;
}

export const mib = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MiB`;
