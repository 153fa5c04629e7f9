// Evaluation runs from the web app (docs/evaluation.md "Running an evaluation from the web app":
// the CLI's work, run as a queue job): an admin starts a run on /admin/evaluations, a queue job
// streams the sidecar's Evaluation.Run, mirrors its progress into the job and an EvaluationRun row,
// writes the result files under var/evaluations/ and scores them against the suite's board.
//
// The row is the source of truth for the page (the queue keeps jobs for a while only);
// the job payload carries the row id. Cancelling marks the row "cancelled": the job that
// runs it (in this process or another one on the same Redis) sees it at its next progress
// write and cancels the gRPC call, which stops the sidecar's threads.
import { formatEta } from "~/lib/eta.ts";
import { messageRef } from "~/lib/forms/messages.ts";
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { Op } from "sequelize";
import { EvaluationRun, Suite, transitionRun, type EvaluationKind, type EvaluationState } from "./db.server.ts";
import { SidecarCallError, pickSidecar, rpc, serverStream, unary, type SidecarTarget } from "./sidecar.server.ts";
import type { EvaluationProgress__Output } from "../../proto/generated/metarank/v1/EvaluationProgress.ts";
import type { EvaluationResult__Output } from "../../proto/generated/metarank/v1/EvaluationResult.ts";
import type { ListEvaluationSuitesReply__Output } from "../../proto/generated/metarank/v1/ListEvaluationSuitesReply.ts";
import type { RunEvaluationRequest } from "../../proto/generated/metarank/v1/RunEvaluationRequest.ts";
import type { RunMapsRequest } from "../../proto/generated/metarank/v1/RunMapsRequest.ts";
import type { EvaluationEvent__Output } from "../../proto/generated/metarank/v1/EvaluationEvent.ts";
import { attachToDraft, detachFromDraft, readMapsForRun } from "./mapsRuns.server.ts";
import { mapsMessage } from "~/lib/rules/maps.ts";
import {
  RetryableJobError,
  enqueueJob,
  isRetryable,
  sidecarWaitReason,
  untilSidecarServes,
  type JobContext,
  type JobPayloads,
  type JobQueue,
  type JobUser,
} from "./queue.server.ts";
import { logger } from "./logger.server.ts";
import { broadcast, onBroadcast } from "./shared.server.ts";
import { formatMetascore, insertCandidate, storedBoard } from "./board.server.ts";
import { validatePair } from "./submissions.server.ts";
import { MSG, cancelledBy, checkStartInput, type StartErrors, type StartInput } from "../lib/rules/evaluation.ts";

const log = logger("evaluations");

// The form's rules, bounds and messages live in app/lib/rules/evaluation.ts (shared with the page).
export { MAX_LIMIT, MIN_LIMIT, MSG, checkStartInput, type StartErrors, type StartInput } from "../lib/rules/evaluation.ts";

export const RESULT_FILES = ["morf.csv", "lerf.csv", "images.json"] as const;
export type ResultFile = (typeof RESULT_FILES)[number];

/** The job payload: the queue's declared fields plus the row this job fills in. */
export type EvaluationJobPayload = JobPayloads["evaluation"];

// ---- the sidecar's catalogue ---------------------------------------------------------------

/** What a sidecar can evaluate: its suites (with each task's availability) and methods. */
export type Catalog = ListEvaluationSuitesReply__Output;
export type CatalogSuite = Catalog["suites"][number];

/** What the chosen sidecar can evaluate; null with a message when it does not answer. */
export async function evaluationCatalog(): Promise<{ catalog: Catalog | null; message: string | null }> {
  try {
    const catalog = await unary(rpc().evaluation.ListSuites, {}, { deadlineMs: 8_000 });
    return { catalog, message: null };
  } catch (err) {
    log.warn({ err: (err as Error).message }, "Evaluation.ListSuites failed");
    return { catalog: null, message: MSG.catalogDown };
  }
}

// ---- starting and cancelling ---------------------------------------------------------------

/** Writes the row, then queues its job; a queue that refuses leaves the row failed, not queued forever. */
export async function startEvaluation(user: JobUser, input: StartInput): Promise<{ ok: true; id: number } | { ok: false; errors: StartErrors }> {
  const checked = checkStartInput(input);
  if (!checked.ok) return checked;
  const { suite, method, limit, params } = checked.value;
  const run = await EvaluationRun.create({ userId: user.id, suiteId: suite, method, paramsJson: params, imageLimit: limit });
  const payload: EvaluationJobPayload = { suite, method, limit, runId: run.id, params };
  try {
    const job = await enqueueJob("evaluation", payload, user);
    // The job may already have started (and set its own id); only fill it in when empty.
    await EvaluationRun.update({ jobId: job.id }, { where: { id: run.id, jobId: null } });
    return { ok: true, id: run.id };
  } catch (err) {
    log.error({ err, runId: run.id }, "enqueue failed");
    await run.update({ state: "failed", error: MSG.queueDown, finishedAt: new Date() });
    return { ok: false, errors: { form: MSG.queueDown } };
  }
}

/**
 * Runs being evaluated by this process, so a cancel here stops the stream at once; a cancel in
 * another web process reaches the one running it as a broadcast (shared.server.ts).
 */
const controllers = new Map<number, AbortController>();
const CANCEL_TOPIC = "evaluation-cancel";

export async function cancelEvaluation(id: number, admin: { username: string }): Promise<boolean> {
  const moved = await transitionRun(id, ACTIVE, "cancelled", { error: cancelledBy(admin.username), finishedAt: new Date(), etaSeconds: null });
  controllers.get(id)?.abort();
  broadcast(CANCEL_TOPIC, id);
  return moved;
}

// ---- the job -------------------------------------------------------------------------------

type ProgressMsg = EvaluationProgress__Output;
export type ResultMsg = EvaluationResult__Output;

class RunCancelled extends Error {
  constructor() {
    super("evaluation cancelled");
  }
}

/** The sidecar refused the run because it is already running its limit of runs (it evaluates nothing). */
export const isBusy = (err: unknown) => err instanceof SidecarCallError && err.code === grpc.status.RESOURCE_EXHAUSTED;
/** Shown on /admin/evaluations while a run waits (a message ref, translated there: app/locales/<lng>/admin.json). */
export const busyNote = (seconds: number) => messageRef("admin:msg.evaluationBusy", { seconds });
/** Shown while no compute server is online or the chosen one does not answer. */
export const offlineNote = (seconds: number) => messageRef("admin:msg.evaluationOffline", { seconds });
/** First pause after a busy answer (EVALUATION_BUSY_PAUSE_MS, default 5 s); it doubles up to a minute. */
const busyPauseMs = () => Number(process.env.EVALUATION_BUSY_PAUSE_MS) || 5_000;
/** How long a run may wait for a busy sidecar before it fails (EVALUATION_BUSY_WAIT_MS, default 24 h). */
const busyWaitMs = () => Number(process.env.EVALUATION_BUSY_WAIT_MS) || 24 * 3600_000;

/** A compute server's failure as people see it: its status, translated (docs/grpc.md). */
const computeFailed = (code: grpc.status) => messageRef("admin:msg.evaluationComputeFailed", { status: grpc.status[code] ?? String(code) });

const DEFAULT_DEADLINE_MS = 6 * 3600_000;
const DEFAULT_IDLE_MS = 180_000;

/**
 * Streams Evaluation.Run to its result. A deadline bounds the whole run and an idle timer
 * (no message for EVALUATION_IDLE_MS) catches a sidecar that hangs without dropping the
 * connection; both, and a dropped connection, are retryable. INVALID_ARGUMENT keeps the
 * sidecar's message (it is written for people) and is not retried.
 */
export async function streamEvaluation(
  address: string | SidecarTarget,
  request: RunEvaluationRequest | { maps: RunMapsRequest },
  opts: { signal?: AbortSignal; onProgress?: (p: ProgressMsg) => void; deadlineMs?: number; idleMs?: number } = {},
): Promise<ResultMsg> {
  const deadlineMs = opts.deadlineMs ?? (Number(process.env.EVALUATION_DEADLINE_MS) || DEFAULT_DEADLINE_MS);
  const idleMs = opts.idleMs ?? (Number(process.env.EVALUATION_IDLE_MS) || DEFAULT_IDLE_MS);
  if (opts.signal?.aborted) throw new RunCancelled();
  // One controller cancels the call, for the caller's signal and for the idle timer alike.
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  let idleFailure: RetryableJobError | null = null;
  let idle: NodeJS.Timeout | undefined;
  const armIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      idleFailure = new RetryableJobError(`The compute server sent no progress for ${Math.round(idleMs / 1000)} s.`);
      stop.abort();
    }, idleMs);
  };
  let result: ResultMsg | null = null;
  armIdle();
  try {
    const onEvent = (ev: EvaluationEvent__Output) => {
      armIdle();
      // oneof: `event` names the member that is set.
      if (ev.event === "result" && ev.result) result = ev.result;
      else if (ev.event === "progress" && ev.progress) opts.onProgress?.(ev.progress);
    };
    const callOpts = { address, deadlineMs, signal: stop.signal };
    // A maps run sends the researcher's maps (verified evaluation); a method run names a registry method.
    if ("maps" in request) await serverStream(rpc().evaluation.RunMaps, request.maps, onEvent, callOpts);
    else await serverStream(rpc().evaluation.Run, request, onEvent, callOpts);
  } catch (err) {
    if (idleFailure) throw idleFailure;
    if (opts.signal?.aborted) throw new RunCancelled();
    // People read this on the run's page (admins) and through the API (a maps run's owner): the
    // status the sidecar ended with, translated, never its raw text (which may name its internal
    // address); the details are in the log (sidecar.server.ts).
    if (err instanceof SidecarCallError && err.kind !== "user" && !sidecarWaitReason(err))
      throw new SidecarCallError(computeFailed(err.code), err.code, err.details, err.kind);
    throw err;
  } finally {
    clearTimeout(idle);
    opts.signal?.removeEventListener("abort", onAbort);
  }
  if (!result) throw new RetryableJobError("The compute server ended the evaluation without a result.");
  return result;
}

/** var/evaluations (EVALUATION_DIR): one folder per run, named so two databases never collide. */
export function evaluationDir(): string {
  return path.resolve(process.env.EVALUATION_DIR ?? "var/evaluations");
}

/** Writes the files into a fresh folder (temporary name, renamed when complete) and returns its name. */
async function writeResultFiles(runId: number, result: ResultMsg): Promise<string> {
  const name = `run-${runId}-${crypto.randomBytes(6).toString("hex")}`;
  const root = evaluationDir();
  const tmp = path.join(root, `.${name}.tmp`);
  await fs.mkdir(tmp, { recursive: true });
  await fs.writeFile(path.join(tmp, "morf.csv"), result.morfCsv);
  await fs.writeFile(path.join(tmp, "lerf.csv"), result.lerfCsv);
  await fs.writeFile(path.join(tmp, "images.json"), result.imagesJson + "\n");
  await fs.rename(tmp, path.join(root, name));
  return name;
}

export interface MetascoreOutcome {
  metascore: number | null;
  rank: number | null;
  boardSize: number | null;
  note: string | null;
}

/**
 * The metascore the run would get if its files were submitted to the suite's board: the
 * same ValidateResultFiles + InsertCandidate calls as "get your scores". A run whose files
 * the board cannot take (another task set, no such suite here) gets a note, not a failure:
 * the evaluation itself succeeded.
 */
export async function scoreAgainstBoard(suiteId: string, morfCsv: string, lerfCsv: string): Promise<MetascoreOutcome> {
  const none = (note: string): MetascoreOutcome => ({ metascore: null, rank: null, boardSize: null, note });
  const suite = await Suite.findByPk(suiteId);
  if (!suite) return none(`This platform has no board for suite ${suiteId}.`);
  try {
    const checked = await validatePair(suite, { name: "morf.csv", content: Buffer.from(morfCsv) }, { name: "lerf.csv", content: Buffer.from(lerfCsv) });
    if (!checked.ok) return none(`The board cannot score these files: ${checked.errors.slice(0, 3).join("; ")}`);
    const boards = await insertCandidate(await storedBoard(suite.id), { id: "candidate", scores: checked.scores });
    const own = boards.current.find((r) => r.id === "candidate");
    if (!own) return none("The scoring service returned no row for this run.");
    return { metascore: own.metascore, rank: own.rank, boardSize: boards.current.length, note: null };
  } catch (err) {
    log.warn({ err: (err as Error).message, suiteId }, "scoring an evaluation run failed");
    return none(`The metascore could not be computed: ${(err as Error).message}`);
  }
}

const ACTIVE: EvaluationState[] = ["queued", "running"];

async function suiteTasks(suiteId: string): Promise<string[]> {
  const suite = await Suite.findByPk(suiteId);
  if (!suite) throw new Error(`no suite ${suiteId}`);
  return suite.tasks;
}

/** The row a job fills in: the one named in the payload, or a new one for a job queued elsewhere. */
async function runRowFor(job: JobContext<EvaluationJobPayload>): Promise<EvaluationRun> {
  const p = job.payload;
  const found = p.runId ? await EvaluationRun.findByPk(p.runId) : null;
  if (found) return found;
  return EvaluationRun.create({
    userId: job.user.id,
    suiteId: String(p.suite),
    method: String(p.method),
    paramsJson: p.params ?? "",
    imageLimit: Number(p.limit),
    jobId: job.id,
  });
}

export async function runEvaluationJob(job: JobContext<EvaluationJobPayload>): Promise<unknown> {
  const row = await runRowFor(job);
  const id = row.id;
  // Cancelled while waiting, or finished by an earlier attempt whose completion was lost.
  const claimed = await transitionRun(id, ACTIVE, "running", { attempts: job.attempt, jobId: job.id, startedAt: row.startedAt ?? new Date(), error: null });
  if (!claimed) return { runId: id, state: (await EvaluationRun.findByPk(id))?.state ?? "missing" };

  const ctrl = new AbortController();
  controllers.set(id, ctrl);
  let lastWrite = 0;
  let writing: Promise<unknown> = Promise.resolve();
  const onProgress = (p: ProgressMsg) => {
    const percent = p.imagesTotal > 0 ? Math.floor((100 * p.imagesDone) / p.imagesTotal) : 0;
    const now = Date.now();
    // One write a second is plenty for a page that refreshes every 2.5 s; the last image always writes.
    if (now - lastWrite < 1000 && p.imagesDone < p.imagesTotal) return;
    lastWrite = now;
    writing = writing.then(async () => {
      await job.progress(Math.min(percent, 99)).catch(() => {});
      const [n] = await EvaluationRun.update(
        {
          progress: Math.min(percent, 99),
          imagesDone: p.imagesDone,
          imagesTotal: p.imagesTotal,
          etaSeconds: p.etaSeconds ?? null,
          currentTask: p.task || null,
        },
        { where: { id, state: "running" } },
      );
      // Cancelled from the page (maybe by another app process): stop the sidecar.
      if (!n) ctrl.abort();
    });
  };

  try {
    // No compute server online, the chosen one down, or every one at its limit of concurrent runs
    // (EVALUATION_MAX_RUNS): the run waits in the queue, backing off, without spending one of its
    // attempts (a long run elsewhere would otherwise use them all up in a minute or two).
    const result = await untilSidecarServes(
      async () => {
        const target = await pickSidecar();
        await EvaluationRun.update({ sidecar: target.address }, { where: { id } });
        const request =
          row.kind === "maps"
            ? { maps: { suiteId: row.suiteId, methodName: row.method, maps: await readMapsForRun(row.mapsFile!, await suiteTasks(row.suiteId)) } }
            : { suiteId: row.suiteId, method: row.method, paramsJson: row.paramsJson, limit: row.imageLimit };
        return streamEvaluation(target, request, { signal: ctrl.signal, onProgress });
      },
      {
        signal: ctrl.signal,
        firstPauseMs: busyPauseMs(),
        maxWaitMs: busyWaitMs(),
        onWait: async (reason, pauseMs) => {
          const seconds = Math.max(1, Math.round(pauseMs / 1000));
          await transitionRun(id, ["running"], "queued", { error: reason === "busy" ? busyNote(seconds) : offlineNote(seconds), etaSeconds: null });
        },
        // Cancelled from the page (maybe by another app process) while it waited.
        onResume: async () => {
          if (!(await transitionRun(id, ["queued"], "running", { error: null }))) throw new RunCancelled();
        },
      },
    ).catch((err) => {
      throw ctrl.signal.aborted ? new RunCancelled() : err;
    });
    await writing;
    const resultDir = await writeResultFiles(id, result);
    const score = await scoreAgainstBoard(row.suiteId, result.morfCsv, result.lerfCsv);
    const localisation = Object.fromEntries(result.localisation.map((l) => [l.task, l.share ?? null]));
    const total = result.tasks.length * result.imagesPerTask;
    // Verified results go to their owner's draft before the run shows "completed", so a page
    // that sees the run completed also sees the files (the draft is undone if it was cancelled).
    if (row.kind === "maps") await attachToDraft(row, result.morfCsv, result.lerfCsv);
    const done = await transitionRun(id, ["running"], "completed", {
      progress: 100,
      imagesDone: total,
      imagesTotal: total,
      etaSeconds: null,
      currentTask: null,
      resultDir,
      tasksJson: JSON.stringify(result.tasks),
      localisationJson: result.localisation.length ? JSON.stringify(localisation) : null,
      paramsUsedJson: result.paramsJson,
      backend: result.backend,
      seconds: result.seconds,
      metascore: score.metascore,
      metascoreRank: score.rank,
      boardSize: score.boardSize,
      metascoreNote: score.note,
      finishedAt: new Date(),
    });
    if (!done) {
      // Cancelled while the files were written: nothing points at them.
      await fs.rm(path.join(evaluationDir(), resultDir), { recursive: true, force: true });
      if (row.kind === "maps") await detachFromDraft(row);
      return { runId: id, state: "cancelled" };
    }
    await job.progress(100);
    log.info({ runId: id, suite: row.suiteId, method: row.method, seconds: result.seconds, metascore: score.metascore }, "evaluation run completed");
    return { runId: id, state: "completed", metascore: score.metascore };
  } catch (err) {
    await writing.catch(() => {});
    if (err instanceof RunCancelled) {
      log.info({ runId: id }, "evaluation run cancelled");
      return { runId: id, state: "cancelled" };
    }
    const raw = err instanceof Error ? err.message : String(err);
    // The sidecar refused the researcher's maps (shape, values): its words, in a bilingual frame.
    const message =
      row.kind === "maps" && err instanceof SidecarCallError && err.kind === "user" ? mapsMessage("refused", { detail: err.details || raw }) : raw;
    const retry = isRetryable(err) && job.attempt < job.maxAttempts;
    const computeStatus = err instanceof SidecarCallError && err.kind !== "user" ? (grpc.status[err.code] ?? String(err.code)) : null;
    if (retry)
      await transitionRun(id, ["running"], "queued", {
        error: computeStatus
          ? messageRef("admin:msg.evaluationRetryingCompute", { attempt: job.attempt, of: job.maxAttempts, status: computeStatus })
          : `Attempt ${job.attempt} of ${job.maxAttempts} failed: ${message} It will be retried.`,
        etaSeconds: null,
      });
    else await transitionRun(id, ["running"], "failed", { error: message, etaSeconds: null, finishedAt: new Date() });
    log.warn({ runId: id, attempt: job.attempt, retry, err: message }, "evaluation run attempt failed");
    throw err;
  } finally {
    controllers.delete(id);
  }
}

// ---- the page's view -----------------------------------------------------------------------

export interface RunView {
  id: number;
  /** "method": a registry method; "maps": a researcher's uploaded maps (verified evaluation). */
  kind: EvaluationKind;
  mapsName: string | null;
  user: string;
  suite: string;
  method: string;
  params: string;
  limit: number;
  state: EvaluationState;
  progress: number;
  imagesDone: number;
  imagesTotal: number;
  eta: string | null;
  currentTask: string | null;
  attempts: number;
  error: string | null;
  files: boolean;
  metascore: string | null;
  rank: number | null;
  boardSize: number | null;
  metascoreNote: string | null;
  localisation: { task: string; share: string }[];
  seconds: number | null;
  createdAt: string;
  finishedAt: string | null;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString().replace("T", " ").slice(0, 19) : null);

export function toRunView(r: EvaluationRun, username: string): RunView {
  let localisation: { task: string; share: string }[] = [];
  try {
    const loc = r.localisationJson ? (JSON.parse(r.localisationJson) as Record<string, number | null>) : {};
    localisation = Object.entries(loc).map(([task, v]) => ({ task, share: v === null ? "n/a" : `${(v * 100).toFixed(1)} %` }));
  } catch {
    // An unreadable figure is left out; the files are still there.
  }
  return {
    id: r.id,
    kind: r.kind,
    mapsName: r.mapsName,
    user: username,
    suite: r.suiteId,
    method: r.method,
    params: r.paramsUsedJson ?? r.paramsJson,
    limit: r.imageLimit,
    state: r.state,
    progress: r.progress,
    imagesDone: r.imagesDone,
    imagesTotal: r.imagesTotal,
    eta: r.state === "running" ? formatEta(r.etaSeconds) : null,
    currentTask: r.state === "running" ? r.currentTask : null,
    attempts: r.attempts,
    error: r.error,
    files: r.state === "completed" && Boolean(r.resultDir),
    metascore: r.metascore === null ? null : formatMetascore(r.metascore),
    rank: r.metascoreRank,
    boardSize: r.boardSize,
    metascoreNote: r.metascoreNote,
    localisation,
    seconds: r.seconds,
    createdAt: iso(r.createdAt)!,
    finishedAt: iso(r.finishedAt),
  };
}

export async function listEvaluationRuns(limit = 50): Promise<RunView[]> {
  const rows = await EvaluationRun.findAll({ include: [{ association: "user", attributes: ["id", "username"] }], order: [["id", "DESC"]], limit });
  return rows.map((r) => toRunView(r, r.user?.username ?? `user ${r.userId}`));
}

/** A finished run's file, or null (unknown run, not finished, unknown name). */
export async function evaluationFile(id: number, file: string): Promise<{ name: string; body: Buffer; type: string } | null> {
  if (!(RESULT_FILES as readonly string[]).includes(file) || !Number.isInteger(id)) return null;
  const row = await EvaluationRun.findByPk(id);
  if (!row || row.state !== "completed" || !row.resultDir) return null;
  try {
    const body = await fs.readFile(path.join(evaluationDir(), path.basename(row.resultDir), file));
    const type = file.endsWith(".csv") ? "text/csv; charset=utf-8" : "application/json; charset=utf-8";
    return { name: `${row.suiteId}-${row.method}-run${row.id}-${file}`, body, type };
  } catch {
    return null;
  }
}

// ---- registration at app start --------------------------------------------------------------
/**
 * Called by startRuntime() (app/.server/runtime.server.ts), so the app works queued jobs from
 * its first request on. One run at a time per app process: a run already spreads over the
 * sidecar's threads.
 */
export async function registerEvaluationJobs(queue: JobQueue): Promise<void> {
  queue.registerJobHandler("evaluation", (job) => runEvaluationJob(job), {
    concurrency: Math.max(1, Number(process.env.EVALUATION_CONCURRENCY) || 1),
  });
  onBroadcast((topic, id) => topic === CANCEL_TOPIC && controllers.get(Number(id))?.abort());
  // In-process jobs die with the process: rows they left queued or running would wait
  // forever, so they are marked failed (with Redis the jobs survive and pick the rows up).
  if (queue.backend !== "memory") return;
  const startedAt = new Date();
  // Only rows from before this process: a run started right after boot is this process's own.
  await EvaluationRun.update(
    { state: "failed", error: MSG.appRestarted, finishedAt: startedAt },
    { where: { state: { [Op.in]: ACTIVE }, createdAt: { [Op.lt]: startedAt } } },
  ).catch((err) => log.warn({ err: (err as Error).message }, "could not mark interrupted evaluation runs"));
}
