// What the tree-task pages show (docs/tree-service.md "Training tasks and data parallelism"): a
// task row as the pages read it, the viewer's list, a task's stages, scalars, log and images. Only
// the owner reads a task (ownTask); the job that writes these rows is in ./treeTasks.server.ts.
import fs from "node:fs/promises";
import path from "node:path";
import { fn, col } from "sequelize";
import { TreeTask, TreeTaskImage, TreeTaskLog, type TreeTaskState } from "./db.server.ts";
import { NotFoundError } from "./domainErrors.server.ts";
import { STAGE_NAMES, TASK_LIMITS, imagesOf, ownTask, type Scalar, type Stage } from "./treeTasks.server.ts";
import { TASKS_PER_PAGE, TASK_MSG, progressLabel, type CheckedTask, type TaskProgressLabel } from "~/lib/rules/treeTasks.ts";

/** A task as the pages read it: the checked form's fields (its datasets a list), then its run. */
export interface TaskRecord extends Omit<CheckedTask, "dataset"> {
  id: number;
  datasets: string[];
  state: TreeTaskState;
  progress: number;
  label: TaskProgressLabel;
  error: string | null;
  treeId: string | null;
  result: { testAccuracy: number | null; cnnAccuracy: number | null; leaves: number; leavesAfterPruning: number; elapsedMs: number | null } | null;
  createdTime: string;
  startedTime: string | null;
  completedTime: string | null;
}

const stamp = (d: Date | null) => (d ? new Date(d).toISOString().replace("T", " ").slice(0, 19) : null);
function parse<T>(json: string | null, fallback: T): T {
  try {
    return json ? (JSON.parse(json) as T) : fallback;
  } catch {
    return fallback;
  }
}

export function toTaskRecord(r: TreeTask): TaskRecord {
  // Completed once there is a completion time (only a completed task has one).
  const completedTime = r.state === "completed" ? stamp(r.completedAt) : null;
  return {
    id: r.id,
    category: r.category,
    name: r.name,
    datasets: parse<string[]>(r.datasetsJson, []),
    depth: r.depth,
    iterations: r.iterations,
    protoDim: r.protoDim,
    remarks: r.remarks,
    ddpTraining: r.ddpTraining,
    ddpNum: r.ddpNum,
    args: parse<Record<string, string>>(r.argsJson, {}),
    state: r.state,
    progress: r.progress,
    label: progressLabel(r.state, completedTime),
    error: r.error,
    treeId: r.treeId,
    result: parse<TaskRecord["result"]>(r.resultJson, null),
    createdTime: stamp(r.createdAt)!,
    startedTime: stamp(r.startedAt),
    completedTime,
  };
}

/** The viewer's tasks, TASKS_PER_PAGE a page, latest start first (a queued task by its creation). */
export async function listTreeTasks(viewer: { id: number }, page: number): Promise<{ tasks: TaskRecord[]; total: number; page: number; pages: number }> {
  const total = await TreeTask.count({ where: { userId: viewer.id } });
  const pages = Math.max(1, Math.ceil(total / TASKS_PER_PAGE));
  const p = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const rows = await TreeTask.findAll({
    where: { userId: viewer.id },
    order: [
      [fn("COALESCE", col("started_at"), col("created_at")), "DESC"],
      ["id", "DESC"],
    ],
    limit: TASKS_PER_PAGE,
    offset: (p - 1) * TASKS_PER_PAGE,
  });
  return { tasks: rows.map(toTaskRecord), total, page: p, pages };
}

export interface TaskDetails {
  task: TaskRecord;
  stages: { name: string; state: string; startedAt: string; finishedAt: string }[];
  scalars: Scalar[];
}

export async function treeTaskDetails(viewer: { id: number }, id: number): Promise<TaskDetails> {
  const row = await ownTask(viewer, id);
  const stages = parse<Stage[]>(row.stagesJson, []);
  // The five stages always show, "waiting" until the sidecar reports one.
  const all = [
    ...STAGE_NAMES.map((n) => stages.find((s) => s.name === n) ?? { name: n, state: "waiting", startedAt: "", finishedAt: "" }),
    ...stages.filter((s) => !(STAGE_NAMES as readonly string[]).includes(s.name)),
  ];
  return { task: toTaskRecord(row), stages: all, scalars: parse<Scalar[]>(row.scalarsJson, []) };
}

export async function treeTaskLog(viewer: { id: number }, id: number): Promise<{ line: string; at: string }[]> {
  await ownTask(viewer, id);
  const rows = await TreeTaskLog.findAll({ where: { taskId: id }, order: [["id", "ASC"]], limit: TASK_LIMITS.logLines });
  return rows.map((r) => ({ line: r.line, at: stamp(r.loggedAt)! }));
}

export async function treeTaskImages(viewer: { id: number }, id: number): Promise<{ id: number; name: string; iteration: number; caption: string }[]> {
  await ownTask(viewer, id);
  const rows = await TreeTaskImage.findAll({
    where: { taskId: id },
    order: [
      ["iteration", "DESC"],
      ["name", "ASC"],
    ],
    limit: TASK_LIMITS.images,
  });
  return rows.map((r) => ({ id: r.id, name: r.name, iteration: r.iteration, caption: r.caption }));
}

/** One image's PNG, for its owner only. */
export async function treeTaskImageFile(viewer: { id: number }, taskId: number, imageId: number): Promise<Buffer> {
  await ownTask(viewer, taskId);
  const row = Number.isSafeInteger(imageId) ? await TreeTaskImage.findOne({ where: { id: imageId, taskId } }) : null;
  if (!row) throw new NotFoundError(TASK_MSG.notFound);
  try {
    return await fs.readFile(path.join(imagesOf(taskId), path.basename(row.file)));
  } catch {
    throw new NotFoundError(TASK_MSG.notFound);
  }
}
