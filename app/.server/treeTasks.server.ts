// Prototype-tree training tasks (docs/tree-service.md "Training tasks and data parallelism"): a
// signed-in user creates a task, a "tree-task" queue job streams the sidecar's Tree.Train
// (tree.proto) into the TreeTask row, its log and its images, and the pages read them. The queue is
// the one evaluation runs use (bull on Redis, in-process without REDIS_URL:
// app/.server/queue.server.ts), and the job follows runEvaluationJob's pattern
// (app/.server/evaluations.server.ts): the row is the source of truth, claimed and finished by
// conditional state moves, progress written at most once a second, and a cancel seen at the next
// write (in any app process) cancels the gRPC call, which stops the sidecar's training.
//
// An app restart: the sidecar sees its Train call cancelled and writes nothing (tree.proto), so
// there is no half-trained state to continue from; the task is RESUMED by training it again from
// the beginning. With Redis bull does it (the dead process's job is stalled and re-run; the job
// finds its row "running" and starts over); in-process the job died with the process, so start-up
// queues the task again (registerTreeTaskJobs). A task interrupted MAX_RESTARTS times is marked
// failed with that reason rather than restarted for ever.
import fs from "node:fs/promises";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { Op } from "sequelize";
import { TreeTask, TreeTaskImage, TreeTaskLog, transitionTreeTask, type TreeTaskState } from "./db.server.ts";
import { SidecarCallError, pickSidecar, rpc, serverStream, unary } from "./sidecar.server.ts";
import { timedCache } from "./timedCache.server.ts";
import { RetryableJobError, enqueueJob, isRetryable, untilSidecarServes, type JobContext, type JobQueue, type JobUser } from "./queue.server.ts";
import { NotFoundError } from "./domainErrors.server.ts";
import { broadcast, onBroadcast } from "./shared.server.ts";
import { logger } from "./logger.server.ts";
import { messageRef } from "~/lib/forms/messages.ts";
import { TASK_MSG, checkTaskForm, type TaskFormOptions } from "~/lib/rules/treeTasks.ts";
import type { TaskOptionsReply__Output } from "../../proto/generated/metarank/v1/TaskOptionsReply.ts";
import type { TrainEvent__Output } from "../../proto/generated/metarank/v1/TrainEvent.ts";
import type { TrainDone__Output } from "../../proto/generated/metarank/v1/TrainDone.ts";
import type { TrainRequest } from "../../proto/generated/metarank/v1/TrainRequest.ts";

const log = logger("tree-tasks");

declare module "./queue.server.ts" {
  interface JobPayloads {
    /** One tree task: the TreeTask row it trains (the row holds the whole request). */
    "tree-task": { taskId: number };
  }
}

/** Bounds on what a task keeps, whatever a sidecar sends. */
export const TASK_LIMITS = {
  logLines: 1000,
  logLineChars: 1000,
  scalars: 2000,
  images: 300,
  imageBytes: 4 * 1024 * 1024,
  /** Tasks a user may have queued or running at once, and create in a day. */
  active: 2,
  daily: 30,
  /** Tries of one task (each trains from the beginning). */
  attempts: 3,
  maxRestarts: 3,
} as const;

const ACTIVE: TreeTaskState[] = ["queued", "running"];
export const STAGE_NAMES = ["data", "training", "pruning", "projection", "visualisation"] as const;
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** var/tasks (TREE_TASK_DIR): one folder of images per task. */
export function taskDir(): string {
  return path.resolve(process.env.TREE_TASK_DIR ?? "var/tasks");
}
export const imagesOf = (taskId: number) => path.join(taskDir(), String(taskId));

// ---- options --------------------------------------------------------------------------------

const options = timedCache(30_000, () => unary(rpc().tree.TaskOptions, {}, { deadlineMs: 8_000 }));

/** Tree.TaskOptions (cached 30 s); null when no sidecar answers, and the form says so. */
export async function treeTaskOptions(): Promise<TaskOptionsReply__Output | null> {
  try {
    return await options.get();
  } catch (err) {
    log.warn({ err: (err as Error).message }, "Tree.TaskOptions failed");
    return null;
  }
}

export function formOptions(reply: TaskOptionsReply__Output): TaskFormOptions {
  return {
    algorithms: reply.algorithms.map((a) => ({
      id: a.id,
      isSupportDdp: a.isSupportDdp,
      datasets: a.datasets.map((d) => ({ id: d.id })),
      args: a.args.map((x) => ({ name: x.name, kind: x.kind, value: x.value, choices: x.choices, min: x.min, max: x.max })),
    })),
    depths: reply.depths,
    iterations: reply.iterations,
    protoDims: reply.protoDims,
    maxDdp: reply.maxDdp,
  };
}

// ---- creating, cancelling, deleting -----------------------------------------------------------

export type CreateOutcome = { ok: true; id: number } | { ok: false; status: number; message: string; errors?: Record<string, string | undefined> };

/** Checks the form against the sidecar's options and the user's limits, writes the row, queues its job. */
export async function createTreeTask(user: JobUser, values: Record<string, string>): Promise<CreateOutcome> {
  const reply = await treeTaskOptions();
  if (!reply) return { ok: false, status: 503, message: TASK_MSG.optionsDown };
  const checked = checkTaskForm(values, formOptions(reply));
  if (!checked.ok) return { ok: false, status: 400, message: checked.first, errors: checked.errors };
  const task = checked.value;
  // One tree per owner and name (tree.proto SaveTreeRequest.name): a task still able to write it holds the name.
  const taken = await TreeTask.count({ where: { userId: user.id, name: task.name, state: { [Op.in]: ["queued", "running", "completed"] } } });
  if (taken) return { ok: false, status: 409, message: TASK_MSG.nameTaken, errors: { name: TASK_MSG.nameTaken } };
  const active = await TreeTask.count({ where: { userId: user.id, state: { [Op.in]: ACTIVE } } });
  if (active >= TASK_LIMITS.active) return { ok: false, status: 429, message: TASK_MSG.busy(TASK_LIMITS.active) };
  const today = await TreeTask.count({ where: { userId: user.id, createdAt: { [Op.gte]: new Date(Date.now() - 86_400_000) } } });
  if (today >= TASK_LIMITS.daily) return { ok: false, status: 429, message: TASK_MSG.daily(TASK_LIMITS.daily) };
  const row = await TreeTask.create({
    userId: user.id,
    category: task.category,
    name: task.name,
    datasetsJson: JSON.stringify([task.dataset]),
    depth: task.depth,
    iterations: task.iterations,
    protoDim: task.protoDim,
    remarks: task.remarks,
    ddpTraining: task.ddpTraining,
    ddpNum: task.ddpNum,
    argsJson: JSON.stringify(task.args),
  });
  if (!(await queueTask(row.id, user))) return { ok: false, status: 503, message: TASK_MSG.queueDown };
  log.info({ taskId: row.id, user: user.id, category: task.category, dataset: task.dataset }, "tree task queued");
  return { ok: true, id: row.id };
}

/** Queues a row's job; a queue that refuses leaves the row failed (with the reason), not queued for ever. */
async function queueTask(id: number, user: JobUser): Promise<boolean> {
  try {
    const job = await enqueueJob("tree-task", { taskId: id }, user, { attempts: TASK_LIMITS.attempts });
    await TreeTask.update({ jobId: job.id }, { where: { id } });
    return true;
  } catch (err) {
    log.error({ err, taskId: id }, "enqueue failed");
    await transitionTreeTask(id, ACTIVE, "failed", { error: TASK_MSG.queueDown, completedAt: null });
    return false;
  }
}

/**
 * Tasks trained by this process, so a cancel here stops the stream at once; a cancel in another
 * web process reaches the one training it as a broadcast (shared.server.ts).
 */
const controllers = new Map<number, AbortController>();
const CANCEL_TOPIC = "tree-task-cancel";
const abortTask = (id: number) => {
  controllers.get(id)?.abort();
  broadcast(CANCEL_TOPIC, id);
};

/** The task, if it is the viewer's: another user's task is "not found", as an unknown id is. */
export async function ownTask(viewer: { id: number }, id: number): Promise<TreeTask> {
  const row = Number.isSafeInteger(id) && id > 0 ? await TreeTask.findByPk(id) : null;
  if (!row || row.userId !== viewer.id) throw new NotFoundError(TASK_MSG.notFound);
  return row;
}

export async function cancelTreeTask(viewer: { id: number; username: string }, id: number): Promise<boolean> {
  await ownTask(viewer, id);
  const moved = await transitionTreeTask(id, ACTIVE, "cancelled", { error: messageRef("tasks:msg.cancelledBy", { user: viewer.username }) });
  abortTask(id);
  return moved;
}

/** Deletes the viewer's task with its log and images (a running one is cancelled first). */
export async function deleteTreeTask(viewer: { id: number; username: string }, id: number): Promise<void> {
  await ownTask(viewer, id);
  await transitionTreeTask(id, ACTIVE, "cancelled", { error: messageRef("tasks:msg.cancelledBy", { user: viewer.username }) });
  abortTask(id);
  // Rows first: a file left behind by a crash is never shown; a row without its file would be.
  await TreeTaskImage.destroy({ where: { taskId: id } });
  await TreeTaskLog.destroy({ where: { taskId: id } });
  await TreeTask.destroy({ where: { id, userId: viewer.id } });
  await fs.rm(imagesOf(id), { recursive: true, force: true });
}

// ---- the job ----------------------------------------------------------------------------------

class TaskCancelled extends Error {}

export interface Stage {
  name: string;
  state: string;
  startedAt: string;
  finishedAt: string;
}
export interface Scalar {
  iteration: number;
  loss: number | null;
  trainAccuracy: number | null;
  testAccuracy: number | null;
}

const finite = (x: number) => (Number.isFinite(x) ? x : null);
const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n - 1) + "…" : s);

/** What the stream has sent since the last write, written at most once a second (throttled writes). */
class TaskRecorder {
  progress = 0;
  stages = new Map<string, Stage>();
  scalars: Scalar[] = [];
  private lines: { line: string; loggedAt: Date }[] = [];
  private dirty = false;
  private lastWrite = 0;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    readonly id: number,
    readonly job: JobContext<{ taskId: number }>,
    readonly ctrl: AbortController,
  ) {}

  event(ev: TrainEvent__Output) {
    if (Number.isFinite(ev.progress)) this.progress = Math.max(0, Math.min(1, ev.progress));
    if (ev.event === "log" && ev.log !== undefined) this.logLine(ev.log);
    else if (ev.event === "stage" && ev.stage) {
      const s = ev.stage;
      const name = clip(s.name, 40);
      if (this.stages.size < 20 || this.stages.has(name))
        this.stages.set(name, { name, state: clip(s.state, 16), startedAt: clip(s.startedAt, 40), finishedAt: clip(s.finishedAt, 40) });
    } else if (ev.event === "scalar" && ev.scalar) {
      const s = ev.scalar;
      this.scalars.push({ iteration: s.iteration, loss: finite(s.loss), trainAccuracy: finite(s.trainAccuracy), testAccuracy: finite(s.testAccuracy) });
      // Bounded: past the limit every other point is dropped, so the curve keeps its whole span.
      if (this.scalars.length > TASK_LIMITS.scalars) this.scalars = this.scalars.filter((_, i) => i % 2 === 0);
    } else if (ev.event === "image" && ev.image) {
      const img = ev.image;
      this.chain = this.chain
        .then(() => storeImage(this.id, img.name, img.iteration, img.caption, img.png as Buffer))
        .catch((err) => log.warn({ err: (err as Error).message, taskId: this.id }, "task image not stored"));
    }
    this.dirty = true;
    if (Date.now() - this.lastWrite >= 1000) this.flush();
  }

  logLine(text: string) {
    for (const line of text.split(/\r?\n/)) if (line.trim()) this.lines.push({ line: clip(line, TASK_LIMITS.logLineChars), loggedAt: new Date() });
    if (this.lines.length > TASK_LIMITS.logLines) this.lines = this.lines.slice(-TASK_LIMITS.logLines);
    this.dirty = true;
  }

  /** Queues one write of everything pending; resolves when every write so far is done. */
  flush(): Promise<unknown> {
    if (!this.dirty) return this.chain;
    this.dirty = false;
    this.lastWrite = Date.now();
    const lines = this.lines;
    this.lines = [];
    const values = {
      progress: this.progress,
      stagesJson: JSON.stringify(STAGE_ORDER(this.stages)),
      scalarsJson: JSON.stringify(this.scalars),
    };
    this.chain = this.chain.then(async () => {
      const [n] = await TreeTask.update(values, { where: { id: this.id, state: "running" } });
      // Cancelled from the page (maybe in another app process): stop the sidecar.
      if (!n) return this.ctrl.abort();
      if (lines.length) await appendLog(this.id, lines);
      await this.job.progress(Math.min(99, this.progress * 100)).catch(() => {});
    });
    return this.chain;
  }
}

const STAGE_ORDER = (stages: Map<string, Stage>) => {
  const known = STAGE_NAMES.map((n) => stages.get(n)).filter(Boolean) as Stage[];
  return [...known, ...[...stages.values()].filter((s) => !(STAGE_NAMES as readonly string[]).includes(s.name))];
};

/** Appends log lines and keeps only the last TASK_LIMITS.logLines of the task's log. */
async function appendLog(taskId: number, lines: { line: string; loggedAt: Date }[]) {
  await TreeTaskLog.bulkCreate(lines.map((l) => ({ taskId, ...l })));
  const cut = await TreeTaskLog.findOne({ where: { taskId }, order: [["id", "DESC"]], offset: TASK_LIMITS.logLines, attributes: ["id"] });
  if (cut) await TreeTaskLog.destroy({ where: { taskId, id: { [Op.lte]: cut.id } } });
}

/** Writes one training image: the file (temporary name, then renamed) before the row that names it. */
async function storeImage(taskId: number, name: string, iteration: number, caption: string, png: Buffer) {
  if (!png || png.length < PNG_MAGIC.length || png.length > TASK_LIMITS.imageBytes || !png.subarray(0, 8).equals(PNG_MAGIC)) return;
  // A task cancelled or deleted meanwhile gets no more files.
  if (!(await TreeTask.count({ where: { id: taskId, state: "running" } }))) return;
  const safeName = clip(name.replace(/[^A-Za-z0-9_-]+/g, "_"), 60) || "image";
  const it = Number.isSafeInteger(iteration) && iteration >= 0 ? iteration : 0;
  const file = `${safeName}-${it}.png`;
  const dir = imagesOf(taskId);
  await fs.mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `.${file}.${process.pid}.tmp`);
  await fs.writeFile(tmp, png);
  await fs.rename(tmp, path.join(dir, file));
  const values = { taskId, name: safeName, iteration: it, caption: clip(caption ?? "", 300), file, bytes: png.length };
  const [row, created] = await TreeTaskImage.findOrCreate({ where: { taskId, name: safeName, iteration: it }, defaults: values });
  if (!created) await row.update(values);
  const excess = await TreeTaskImage.findAll({ where: { taskId }, order: [["id", "DESC"]], offset: TASK_LIMITS.images });
  for (const old of excess) {
    await old.destroy();
    await fs.rm(path.join(dir, path.basename(old.file)), { force: true });
  }
}

const idleMs = () => Number(process.env.TREE_TASK_IDLE_MS) || 600_000;
const deadlineMs = () => Number(process.env.TREE_TASK_DEADLINE_MS) || 24 * 3600_000;

/** Streams Tree.Train into the recorder; resolves with TrainDone. A silent sidecar (TREE_TASK_IDLE_MS) is a retryable failure. */
async function streamTraining(row: TreeTask, rec: TaskRecorder, user: JobUser): Promise<TrainDone__Output> {
  const target = await pickSidecar();
  await TreeTask.update({ sidecar: target.address }, { where: { id: row.id } });
  const request: TrainRequest = {
    taskId: String(row.id),
    caller: { username: user.username, admin: false },
    category: row.category,
    dataset: (JSON.parse(row.datasetsJson) as string[])[0],
    depth: row.depth,
    iterations: row.iterations,
    protoDim: row.protoDim,
    args: JSON.parse(row.argsJson) as Record<string, string>,
    ddpNum: row.ddpTraining ? row.ddpNum : 1,
    modelName: row.name,
    seed: row.id,
  };
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  rec.ctrl.signal.addEventListener("abort", onAbort, { once: true });
  let idle: NodeJS.Timeout | undefined;
  let silent = false;
  const arm = () => {
    clearTimeout(idle);
    idle = setTimeout(() => ((silent = true), stop.abort()), idleMs());
  };
  let done: TrainDone__Output | null = null;
  arm();
  try {
    await serverStream(
      rpc().tree.Train,
      request,
      (ev) => {
        arm();
        if (ev.event === "done" && ev.done) done = ev.done;
        rec.event(ev);
      },
      { address: target, signal: stop.signal, deadlineMs: deadlineMs() },
    );
  } catch (err) {
    if (rec.ctrl.signal.aborted) throw new TaskCancelled();
    if (silent) throw new RetryableJobError(`The compute server sent nothing for ${Math.round(idleMs() / 1000)} s.`);
    throw err;
  } finally {
    clearTimeout(idle);
    rec.ctrl.signal.removeEventListener("abort", onAbort);
  }
  if (rec.ctrl.signal.aborted) throw new TaskCancelled();
  if (!done) throw new Error("The compute server ended the training without a finished tree.");
  return done;
}

const busyWaitMs = () => Number(process.env.TREE_TASK_BUSY_WAIT_MS) || 24 * 3600_000;

/**
 * No compute server online, the chosen one not answering (killed, restarting), or one at its
 * limit of trainings (RESOURCE_EXHAUSTED, before it starts anything): the task waits (backing off
 * from TREE_TASK_PAUSE_MS, 5 s, to a minute, the row saying so) without spending one of its
 * attempts, through the queue's one mechanism (untilSidecarServes, app/.server/queue.server.ts).
 * The form keeps ddp_num within the host's max_ddp, so a busy answer means "full", not "never".
 */
async function trainWhenRoom(row: TreeTask, rec: TaskRecorder, user: JobUser): Promise<TrainDone__Output> {
  return untilSidecarServes(() => streamTraining(row, rec, user), {
    signal: rec.ctrl.signal,
    firstPauseMs: Number(process.env.TREE_TASK_PAUSE_MS) || 5_000,
    maxWaitMs: busyWaitMs(),
    onWait: async (reason, pauseMs) => {
      const seconds = Math.max(1, Math.round(pauseMs / 1000));
      await TreeTask.update(
        { error: messageRef(reason === "busy" ? "tasks:msg.waitingForRoom" : "tasks:msg.waitingForServer", { seconds }) },
        { where: { id: row.id, state: "running" } },
      );
    },
    onResume: async () => {
      // Cancelled while it waited (here or, seen by this read, in another app process).
      if (rec.ctrl.signal.aborted || (await TreeTask.count({ where: { id: row.id, state: "running" } })) === 0) throw new TaskCancelled();
      await TreeTask.update({ error: null }, { where: { id: row.id, state: "running" } });
    },
  });
}

export async function runTreeTaskJob(job: JobContext<{ taskId: number }>): Promise<unknown> {
  const row = await TreeTask.findByPk(job.payload.taskId);
  if (!row) return { taskId: job.payload.taskId, state: "missing" };
  const id = row.id;
  const restarted = row.state === "running";
  // A restart trains from the beginning: what the interrupted run reported no longer describes this one.
  const fresh = { progress: 0, scalarsJson: null, stagesJson: null, treeId: null, resultJson: null };
  const claimed = await transitionTreeTask(id, ACTIVE, "running", {
    ...fresh,
    attempts: job.attempt,
    jobId: job.id,
    startedAt: row.startedAt ?? new Date(),
    error: null,
  });
  if (!claimed) return { taskId: id, state: (await TreeTask.findByPk(id))?.state ?? "missing" };
  await TreeTaskImage.destroy({ where: { taskId: id } });
  await fs.rm(imagesOf(id), { recursive: true, force: true });

  const ctrl = new AbortController();
  controllers.set(id, ctrl);
  const rec = new TaskRecorder(id, job, ctrl);
  if (restarted)
    rec.logLine("The app restarted while this task was training; the sidecar kept nothing of that run, so training starts again from the beginning.");
  if (job.attempt > 1) rec.logLine(`Attempt ${job.attempt} of ${job.maxAttempts}.`);
  try {
    const done = await trainWhenRoom(row, rec, job.user);
    await rec.flush();
    const result = {
      testAccuracy: finite(done.testAccuracy),
      cnnAccuracy: finite(done.cnnAccuracy),
      leaves: done.leaves,
      leavesAfterPruning: done.leavesAfterPruning,
      elapsedMs: finite(done.elapsedMs),
    };
    const moved = await transitionTreeTask(id, ["running"], "completed", {
      progress: 1,
      treeId: clip(done.treeId, 200),
      resultJson: JSON.stringify(result),
      completedAt: new Date(),
    });
    if (!moved) return { taskId: id, state: "cancelled" };
    await job.progress(100);
    log.info({ taskId: id, treeId: done.treeId, ...result }, "tree task completed");
    return { taskId: id, state: "completed", treeId: done.treeId };
  } catch (err) {
    await rec.flush().catch(() => {});
    if (err instanceof TaskCancelled) {
      log.info({ taskId: id }, "tree task cancelled");
      return { taskId: id, state: "cancelled" };
    }
    // The sidecar's own words for what it refused (INVALID_ARGUMENT, FAILED_PRECONDITION, ...);
    // other failures say which status the compute server ended with, translated, never its raw
    // text (which may name its internal address: the log has it, sidecar.server.ts).
    const status = err instanceof SidecarCallError && err.kind !== "user" ? (grpc.status[err.code] ?? String(err.code)) : null;
    const message = status ? messageRef("tasks:msg.computeFailed", { status }) : err instanceof Error ? err.message : String(err);
    const retry = isRetryable(err) && job.attempt < job.maxAttempts;
    if (retry)
      await transitionTreeTask(id, ["running"], "queued", {
        error: status
          ? messageRef("tasks:msg.retryingCompute", { attempt: job.attempt, of: job.maxAttempts, status })
          : messageRef("tasks:msg.retrying", { attempt: job.attempt, of: job.maxAttempts, reason: message }),
      });
    else await transitionTreeTask(id, ["running"], "failed", { error: message });
    log.warn({ taskId: id, attempt: job.attempt, retry, err: message }, "tree task attempt failed");
    throw err;
  } finally {
    controllers.delete(id);
  }
}

/**
 * Called by startRuntime(): registers the job and recovers tasks an earlier app process left
 * queued or running (see the top of this file for why they are trained again).
 */
export async function registerTreeTaskJobs(queue: JobQueue): Promise<void> {
  queue.registerJobHandler("tree-task", (job) => runTreeTaskJob(job), { concurrency: Math.max(1, Number(process.env.TREE_TASK_CONCURRENCY) || 1) });
  onBroadcast((topic, id) => topic === CANCEL_TOPIC && controllers.get(Number(id))?.abort());
  const startedAt = new Date();
  try {
    const left = await TreeTask.findAll({
      where: { state: { [Op.in]: ACTIVE }, createdAt: { [Op.lt]: startedAt } },
      include: [{ association: "user", attributes: ["id", "username"] }],
    });
    for (const t of left) {
      if (queue.backend !== "memory" && t.jobId) {
        // With Redis the job outlives the process: bull re-runs a dead process's job. A job bull
        // has given up on (or lost) would leave the row running for ever: it fails, saying why.
        const job = await queue.getJob("tree-task", t.jobId);
        if (!job || job.state === "failed" || job.state === "completed")
          await TreeTask.update({ state: "failed", error: job?.failedReason || "tasks:msg.restartedTooOften" }, { where: { id: t.id, state: ACTIVE } });
        continue;
      }
      if (!t.user || t.restarts >= TASK_LIMITS.maxRestarts) {
        await transitionTreeTask(t.id, ACTIVE, "failed", { error: "tasks:msg.restartedTooOften" });
        continue;
      }
      await TreeTask.update({ state: "queued", error: null, restarts: t.restarts + 1 }, { where: { id: t.id, state: ACTIVE } });
      await TreeTaskLog.create({ taskId: t.id, line: "The app restarted; this task is queued again and will train from the beginning.", loggedAt: new Date() });
      const job = await queue.enqueueJob("tree-task", { taskId: t.id }, { id: t.user.id, username: t.user.username }, { attempts: TASK_LIMITS.attempts });
      await TreeTask.update({ jobId: job.id }, { where: { id: t.id } });
    }
  } catch (err) {
    log.warn({ err: (err as Error).message }, "could not recover interrupted tree tasks");
  }
}
