// The submission workflow: result files checked and kept per user (a draft) between "get your
// scores" and "submit", submissions stored with their files, admin decisions that change a row once
// and fuse approvals into the board atomically.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { Op, QueryTypes } from "sequelize";
import { BoardMethod, EvaluationRun, Submission, SubmissionDraft, Suite, isSqlite, inWriteTransaction, sequelize, type TaskScore } from "./db.server.ts";
import { SubmissionStatus } from "../../lib/submissionStatus.ts";
import { Provenance } from "../../lib/provenance.ts";
import { MAPS_MAX_BYTES, mapsMessage, mib } from "~/lib/rules/maps.ts";
import { SidecarCallError, rpc, unary } from "./sidecar.server.ts";
import {
  BoardChangedError,
  applyFusion,
  formatMetascore,
  insertCandidate,
  planFusion,
  storedBoard,
  suiteBoard,
  translated,
  type FusionPlan,
  type RankRow,
  type SuiteSummary,
} from "./board.server.ts";
import { readFields } from "./forms.server.ts";
import { type UploadedFile, type UploadedFiles } from "./uploads.server.ts";
import { messageRef, type MessageRef } from "~/lib/forms/messages.ts";
import { problemMessage } from "~/lib/fileProblems.ts";

export { ALGORITHM_MAX, EMAIL_MAX, INFO_MAX, MAX_UPLOAD_BYTES, MSG, dailyLimitMessage } from "~/lib/rules/submission.ts";
import { ALGORITHM_MAX, EMAIL_MAX, INFO_MAX, MAX_UPLOAD_BYTES, MSG, dailyLimitMessage } from "~/lib/rules/submission.ts";

/** How many submissions a user may still send in the rolling 24 hours, shown before the form so nobody fills it in for nothing. */
export async function submissionQuota(userId: number): Promise<{ limit: number; left: number }> {
  const limit = dailyLimit();
  const used = await Submission.count({ where: { userId, createdAt: { [Op.gte]: new Date(Date.now() - 86_400_000) } } });
  return { limit, left: Math.max(0, limit - used) };
}

export function dailyLimit(): number {
  const n = Number(process.env.SUBMISSION_DAILY_LIMIT);
  return Number.isInteger(n) && n > 0 ? n : 5;
}

export type Protocol = "morf" | "lerf";
export type FileKind = Protocol | "python" | "maps";

// ---- files ----

export function uploadDir(): string {
  return path.resolve(process.env.UPLOAD_DIR ?? "var/uploads", "submissions");
}

/** var/uploads/maps: the attribution-map zips behind verified results (app/.server/mapsRuns.server.ts). */
export function mapsDir(): string {
  return path.resolve(process.env.UPLOAD_DIR ?? "var/uploads", "maps");
}

/** Writes bytes under a generated name (the client's name never becomes a path) and returns that name. */
export async function storeFile(buffer: Buffer, ext: ".csv" | ".py"): Promise<string> {
  const dir = uploadDir();
  await fs.mkdir(dir, { recursive: true });
  const name = `${crypto.randomUUID()}${ext}`;
  // Write to a temporary name and rename, so a crash never leaves a half file under the real name.
  const tmp = path.join(dir, `.${name}.tmp`);
  await fs.writeFile(tmp, buffer, { flag: "wx" });
  await fs.rename(tmp, path.join(dir, name));
  return name;
}

/** Absolute path of a stored file; names are ours (uuid + ext), anything else is refused. */
export function storedPath(name: string): string {
  if (!/^[0-9a-f-]{36}\.(csv|py)$/.test(name)) throw new Error(`not a stored file name: ${name}`);
  return path.join(uploadDir(), name);
}

async function removeStored(name: string | null | undefined): Promise<void> {
  if (name) await fs.rm(storedPath(name), { force: true }).catch(() => undefined);
}

/**
 * A display name for a client's file: its base name only, bounded, with letters and digits of
 * any script kept (uploads are decoded as UTF-8, uploads.server.ts), so "结果.csv" stays
 * readable; controls, bidi overrides and punctuation other than . - _ ( ) become "_".
 */
export function cleanFileName(name: string, fallback: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const clean = Array.from(base.normalize("NFC").replace(/[^\p{L}\p{M}\p{N}_.\- ()]/gu, "_"))
    .slice(0, 120)
    .join("")
    .trim();
  return clean || fallback;
}

/** The upload's file rules, checked on the server: one file, CSV by name/type, ≤ 500 KB. Undefined = fine. */
export function checkCsvFile(files: UploadedFile[]): string | undefined {
  if (files.length > 1) return MSG.oneFile;
  const f = files[0];
  if (!f) return undefined;
  const csvType = /\.csv$/i.test(f.originalName) || f.mimeType === "text/csv";
  if (!csvType) return MSG.csvType;
  if (f.size > MAX_UPLOAD_BYTES || f.buffer.length > MAX_UPLOAD_BYTES) return MSG.csvSize;
  return undefined;
}

export function checkPythonFile(files: UploadedFile[]): string | undefined {
  if (files.length > 1) return MSG.oneFile;
  const f = files[0];
  if (!f) return undefined;
  if (!/\.py$/i.test(f.originalName)) return MSG.pyType;
  if (f.size > MAX_UPLOAD_BYTES || f.buffer.length > MAX_UPLOAD_BYTES) return MSG.pySize;
  return undefined;
}

/** multer's refusal of a body (which limit, which box) in the seed's words. */
export function uploadLimitMessage(error: NonNullable<UploadedFiles["error"]>): string {
  const python = error.field === "python";
  if (error.code === "LIMIT_FILE_SIZE" && error.field === "maps") return mapsMessage("tooLarge", { limit: mib(MAPS_MAX_BYTES) });
  if (error.code === "LIMIT_FILE_SIZE") return python ? MSG.pySize : MSG.csvSize;
  if (error.code === "LIMIT_FILE_COUNT" || error.code === "LIMIT_UNEXPECTED_FILE") return MSG.oneFile;
  return MSG.uploadFailed;
}

/**
 * The parsed form of a /submission POST. Document POSTs were parsed by multer in server.ts
 * (context.uploads); client-side submissions arrive at /submission.data, which multer's
 * prefix table does not cover, so they are parsed here with the same limits, the body's
 * declared size checked before reading it.
 */
/** The submission page's form: multipart bodies were parsed (with the route's limits) by multer in server.ts. */
export function readSubmissionForm(request: Request, uploads?: UploadedFiles): Promise<UploadedFiles> {
  return readFields(request, uploads);
}

/** Browsers send an empty part for a file input left empty; those are no file at all. */
export const filesOf = (form: UploadedFiles, field: string) => form.files.filter((f) => f.field === field && (f.size > 0 || f.originalName !== ""));

// ---- scoring through the sidecar ----

function suiteRequest(suite: Suite) {
  return { tasks: suite.tasks, grid: suite.grid };
}

/**
 * Both files checked together: the case scores, or every problem as `messages` for a page to show
 * in its visitor's language, and the listed ones as the service wrote them in English (`errors`,
 * FILE:LINE:COLUMN message) for a note stored in English (evaluations' scoreAgainstBoard).
 */
export async function validatePair(suite: Suite, morf: { name: string; content: Buffer }, lerf: { name: string; content: Buffer }) {
  const res = await unary(rpc().metascore.ValidateResultFiles, { ...suiteRequest(suite), morf, lerf }, { deadlineMs: 15_000 });
  if (res.valid) return { ok: true as const, scores: res.scores };
  return {
    ok: false as const,
    errors: res.errors,
    messages: withOmittedRef(res.problems.map(problemMessage), res.omittedErrors),
  };
}

/**
 * One file checked on its own (each box uploads separately). The service checks pairs, so
 * the file is sent as both members: its problems then come back twice, the first half being
 * the first copy's (the service lists MoRF problems first and caps each file on its own).
 */
export async function validateSingle(suite: Suite, file: { name: string; content: Buffer }): Promise<MessageRef[]> {
  const res = await unary(rpc().metascore.ValidateResultFiles, { ...suiteRequest(suite), morf: file, lerf: file }, { deadlineMs: 15_000 });
  if (res.valid) return [];
  return withOmittedRef(res.problems.slice(0, res.problems.length / 2).map(problemMessage), res.omittedErrors / 2);
}

const withOmittedRef = (messages: MessageRef[], omitted: number) =>
  omitted > 0 ? [...messages, messageRef("submission:fileProblem.more", { count: omitted })] : messages;

/** The sidecar's own words when it refused the input; otherwise the seed's "server down" message. */
const sidecarMessage = (err: unknown) => (err instanceof SidecarCallError && err.kind === "user" ? err.message : MSG.sidecarDown);

function isSidecarFailure(err: unknown): boolean {
  return err instanceof SidecarCallError;
}

// ---- drafts ----

export interface DraftView {
  algorithm: string;
  morfName: string | null;
  lerfName: string | null;
  pythonName: string | null;
  /** The maps evaluation run whose result files the draft holds (verified), else null. */
  verifiedRunId: number | null;
  result: ScoreResult | null;
}

export interface ScoreResult {
  algorithm: string;
  metascore: number;
  metascoreText: string;
  rank: number;
  original: RankRow[];
  current: RankRow[];
}

export async function findSuite(id: string): Promise<Suite | null> {
  return Suite.findByPk(id);
}

async function draftFor(userId: number, suiteId: string): Promise<SubmissionDraft> {
  const found = await SubmissionDraft.findOne({ where: { userId, suiteId } });
  if (found) return found;
  try {
    return await SubmissionDraft.create({ userId, suiteId });
  } catch {
    // Two first uploads at once: the other request created it.
    return (await SubmissionDraft.findOne({ where: { userId, suiteId } }))!;
  }
}

export async function draftView(userId: number, suiteId: string): Promise<DraftView> {
  const d = await SubmissionDraft.findOne({ where: { userId, suiteId } });
  return {
    algorithm: d?.algorithm ?? "",
    morfName: d?.morfFile ? d.morfName : null,
    lerfName: d?.lerfFile ? d.lerfName : null,
    pythonName: d?.pythonFile ? d.pythonName : null,
    verifiedRunId: d?.morfFile && d.lerfFile ? (d.evaluationRunId ?? null) : null,
    result: d?.resultJson ? (JSON.parse(d.resultJson) as ScoreResult) : null,
  };
}

export type UploadOutcome = { ok: true; message: string; warning?: string } | { ok: false; message: string; errors?: string[] };

/**
 * Keeps one result file in the user's draft. Files with any problem are not kept (docs/metascore.md
 * "Result files": nothing is stored from a file with an error). When the scoring service is down
 * the file is kept anyway, unchecked: it is checked again when scores are asked for, and nothing
 * the user uploaded is lost to an outage.
 */
export async function uploadResultFile(userId: number, suite: Suite, protocol: Protocol, files: UploadedFile[]): Promise<UploadOutcome> {
  const problem = checkCsvFile(files);
  if (problem) return { ok: false, message: problem };
  const file = files[0];
  if (!file) return { ok: false, message: protocol === "morf" ? MSG.morfRequired : MSG.lerfRequired };
  const name = cleanFileName(file.originalName, `${protocol}.csv`);
  let warning: string | undefined;
  try {
    const errors = await validateSingle(suite, { name, content: file.buffer });
    if (errors.length > 0) return { ok: false, message: MSG.uploadFailed, errors };
  } catch (err) {
    if (!isSidecarFailure(err)) throw err;
    warning = MSG.sidecarDown;
  }
  const stored = await storeFile(file.buffer, ".csv");
  const draft = await draftFor(userId, suite.id);
  const previous = protocol === "morf" ? draft.morfFile : draft.lerfFile;
  // An uploaded CSV replaces one of the verified pair: the draft is self-reported from now on.
  await draft.update(
    protocol === "morf"
      ? { morfFile: stored, morfName: name, resultJson: null, evaluationRunId: null }
      : { lerfFile: stored, lerfName: name, resultJson: null, evaluationRunId: null },
  );
  // Draft files are never shared with a submission (submitting empties the draft), so the replaced one can go.
  await removeStored(previous);
  return { ok: true, message: protocol === "morf" ? MSG.morfUploaded : MSG.lerfUploaded, warning };
}

export async function uploadPythonFile(userId: number, suite: Suite, files: UploadedFile[]): Promise<UploadOutcome> {
  const problem = checkPythonFile(files);
  if (problem) return { ok: false, message: problem };
  const file = files[0];
  if (!file) return { ok: false, message: MSG.pyType };
  const stored = await storeFile(file.buffer, ".py");
  const draft = await draftFor(userId, suite.id);
  const previous = draft.pythonFile;
  await draft.update({ pythonFile: stored, pythonName: cleanFileName(file.originalName, "algorithm.py") });
  await removeStored(previous);
  return { ok: true, message: MSG.fileUploaded };
}

export type ScoreOutcome = { ok: true; result: ScoreResult } | { ok: false; errors: Record<string, string>; fileErrors?: string[]; message?: string };

export function checkAlgorithmName(name: string): string | undefined {
  if (!name.trim()) return MSG.nameRequired;
  if (name.trim().length > ALGORITHM_MAX) return MSG.nameTooLong;
  return undefined;
}

/**
 * "Get your current scores and meta-rank": the draft's two files (after any new ones in this
 * request are kept) are checked together, then fused into the suite's stored board
 * (docs/metascore.md "The submission screen's two boards"). The result is kept in the draft so its
 * pages can be browsed without rescoring.
 */
export async function scoreDraft(
  user: { id: number; username: string; institute: string },
  suite: Suite,
  input: { algorithm: string; morf: UploadedFile[]; lerf: UploadedFile[] },
): Promise<ScoreOutcome> {
  const errors: Record<string, string> = {};
  const fileErrors: string[] = [];
  const nameProblem = checkAlgorithmName(input.algorithm);
  if (nameProblem) errors.algorithm = nameProblem;
  for (const protocol of ["morf", "lerf"] as const) {
    if (input[protocol].length === 0) continue;
    const r = await uploadResultFile(user.id, suite, protocol, input[protocol]);
    if (!r.ok) {
      errors[protocol] = r.message;
      if (r.errors) fileErrors.push(...r.errors);
    }
  }
  const draft = await draftFor(user.id, suite.id);
  if (!errors.morf && !draft.morfFile) errors.morf = MSG.morfRequired;
  if (!errors.lerf && !draft.lerfFile) errors.lerf = MSG.lerfRequired;
  if (!nameProblem) await draft.update({ algorithm: input.algorithm.trim() });
  if (Object.keys(errors).length > 0) return { ok: false, errors, fileErrors };
  try {
    const result = await computeScores(user, suite, draft);
    if (!result.ok) return { ok: false, errors: {}, fileErrors: result.errors };
    await draft.update({ resultJson: JSON.stringify(result.result) });
    return { ok: true, result: result.result };
  } catch (err) {
    if (!isSidecarFailure(err)) throw err;
    return { ok: false, errors: {}, message: sidecarMessage(err) };
  }
}

async function readDraftFile(name: string): Promise<Buffer> {
  return fs.readFile(storedPath(name));
}

async function computeScores(
  user: { username: string; institute: string },
  suite: Suite,
  draft: SubmissionDraft,
): Promise<{ ok: true; result: ScoreResult; scores: TaskScore[] } | { ok: false; errors: string[] }> {
  const checked = await validatePair(
    suite,
    { name: draft.morfName ?? "morf.csv", content: await readDraftFile(draft.morfFile!) },
    { name: draft.lerfName ?? "lerf.csv", content: await readDraftFile(draft.lerfFile!) },
  );
  if (!checked.ok) return { ok: false, errors: checked.messages };
  const board = await storedBoard(suite.id);
  const boards = await insertCandidate(board, { id: "candidate", scores: checked.scores });
  const names = new Map(board.methods.map((m) => [String(m.id), m]));
  const row = (r: { id: string; rank: number; metascore: number; metascoreText: string }): RankRow => {
    const m = names.get(r.id);
    // The candidate has no board row yet: its row shows who is asking and the typed algorithm name.
    return m
      ? {
          id: r.id,
          rank: r.rank,
          contributor: m.contributor,
          institute: m.institute,
          algorithm: m.algorithm,
          metascore: r.metascore,
          metascoreText: r.metascoreText || formatMetascore(r.metascore),
        }
      : {
          id: r.id,
          rank: r.rank,
          contributor: user.username,
          institute: user.institute,
          algorithm: draft.algorithm,
          metascore: r.metascore,
          metascoreText: r.metascoreText || formatMetascore(r.metascore),
        };
  };
  const own = boards.current.find((r) => r.id === "candidate")!;
  return {
    ok: true,
    scores: checked.scores,
    result: {
      algorithm: draft.algorithm,
      metascore: own.metascore,
      metascoreText: formatMetascore(own.metascore),
      rank: own.rank,
      original: boards.original.map(row),
      current: boards.current.map(row),
    },
  };
}

export type SubmitOutcome =
  { ok: true; id: number; withPython: boolean } | { ok: false; errors: Record<string, string>; fileErrors?: string[]; message?: string };

/**
 * "Submit your algorithm": the draft's files (already on disk) become an In Process record.
 * The files were written first; the row is written last, with the draft emptied in the same
 * transaction, so a failure leaves the draft (and every file) as it was.
 */
export async function submitDraft(
  user: { id: number; username: string; institute: string },
  suite: Suite,
  input: { algorithm: string; email: string; info: string; python: UploadedFile[] },
): Promise<SubmitOutcome> {
  const errors: Record<string, string> = {};
  if (input.python.length > 0) {
    const r = await uploadPythonFile(user.id, suite, input.python);
    if (!r.ok) errors.python = r.message;
  }
  const draft = await draftFor(user.id, suite.id);
  const algorithm = input.algorithm.trim() || draft.algorithm;
  const nameProblem = checkAlgorithmName(algorithm);
  if (nameProblem) errors.algorithm = nameProblem;
  if (!draft.morfFile) errors.morf = MSG.morfRequired;
  if (!draft.lerfFile) errors.lerf = MSG.lerfRequired;
  const email = input.email.trim();
  if (!email) errors.email = MSG.emailRequired;
  else if (email.length > EMAIL_MAX || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) errors.email = MSG.emailInvalid;
  if (!input.info.trim()) errors.info = MSG.infoRequired;
  else if (input.info.trim().length > INFO_MAX) errors.info = MSG.infoTooLong;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const provenance: Provenance = draft.evaluationRunId ? Provenance.verified : Provenance.selfReported;
  // The suite's rule (docs/evaluation.md "Evaluating your own method"): some boards take only what the platform computed itself.
  if (provenance === Provenance.selfReported && !suite.acceptsSelfReported) return { ok: false, errors: {}, message: MSG.verifiedOnly };
  if (algorithm !== draft.algorithm) await draft.update({ algorithm, resultJson: null });

  const limit = dailyLimit();
  const since = new Date(Date.now() - 86_400_000);
  if ((await Submission.count({ where: { userId: user.id, createdAt: { [Op.gte]: since } } })) >= limit) {
    return { ok: false, errors: {}, message: dailyLimitMessage(limit) };
  }

  // Scores are computed again: the board may have changed since the user looked.
  let computed: Awaited<ReturnType<typeof computeScores>>;
  try {
    computed = await computeScores(user, suite, draft);
  } catch (err) {
    if (!isSidecarFailure(err)) throw err;
    return { ok: false, errors: {}, message: sidecarMessage(err) };
  }
  if (!computed.ok) return { ok: false, errors: {}, fileErrors: computed.errors, message: MSG.submitFailed };

  const id = await inWriteTransaction(async (transaction) => {
    // Counted again under the write lock, so parallel submits cannot pass the limit together.
    const recent = await Submission.count({ where: { userId: user.id, createdAt: { [Op.gte]: since } }, transaction });
    if (recent >= limit) return null;
    const fresh = await SubmissionDraft.findByPk(draft.id, { transaction, lock: transaction.LOCK.UPDATE });
    if (!fresh || fresh.morfFile !== draft.morfFile || fresh.lerfFile !== draft.lerfFile || fresh.evaluationRunId !== draft.evaluationRunId) return undefined;
    const row = await Submission.create(
      {
        userId: user.id,
        suiteId: suite.id,
        algorithm,
        metascore: computed.result.metascore,
        ranking: computed.result.rank,
        scoresJson: JSON.stringify(computed.scores),
        morfFile: fresh.morfFile!,
        morfName: fresh.morfName ?? "morf.csv",
        lerfFile: fresh.lerfFile!,
        lerfName: fresh.lerfName ?? "lerf.csv",
        pythonFile: fresh.pythonFile,
        pythonName: fresh.pythonFile ? fresh.pythonName : null,
        email,
        info: input.info.trim(),
        provenance,
        evaluationRunId: fresh.evaluationRunId,
      },
      { transaction },
    );
    const withPython = Boolean(fresh.pythonFile);
    // The draft starts empty again, its name too: the next method is another one.
    await fresh.update(
      {
        algorithm: "",
        morfFile: null,
        morfName: null,
        lerfFile: null,
        lerfName: null,
        pythonFile: null,
        pythonName: null,
        resultJson: null,
        evaluationRunId: null,
      },
      { transaction },
    );
    return { id: row.id, withPython };
  });
  if (id === null) return { ok: false, errors: {}, message: dailyLimitMessage(limit) };
  if (id === undefined)
    return { ok: false, errors: {}, message: `${MSG.submitFailed} Your files changed while submitting; please check them and submit again.` };
  return { ok: true, ...id };
}

// ---- history and approval ----

export interface HistoryRow {
  id: number;
  username: string;
  institute: string;
  algorithm: string;
  metascore: number;
  metascoreText: string;
  ranking: number;
  submitTime: string;
  status: SubmissionStatus;
  suiteId: string;
  /** The suite's name in the reader's language (as the leaderboard shows it). */
  suiteName: string;
  hasPython: boolean;
  morfName: string;
  lerfName: string;
  pythonName: string | null;
  email: string;
  info: string;
  provenance: Provenance;
  evaluationRunId: number | null;
  /** A rejection's reason for the submitter, if the administrator gave one. */
  decisionNote: string | null;
  /** An approved method's standing on its board today (the leaderboard's numbers), else null. */
  current: { metascoreText: string; rank: number; boardSize: number } | null;
}

export type HistorySort = "time" | "metascore" | "ranking";

export function historySortParams(url: URL): { sort: HistorySort; dir: "asc" | "desc" } {
  const s = url.searchParams.get("sort");
  const sort: HistorySort = s === "metascore" || s === "ranking" ? s : "time";
  const d = url.searchParams.get("dir");
  // Submit Time defaults to newest first.
  const dir = d === "asc" || d === "desc" ? d : sort === "time" ? "desc" : "asc";
  return { sort, dir };
}

const SORT_COLUMN: Record<HistorySort, string> = { time: "createdAt", metascore: "metascore", ranking: "ranking" };

/** Submissions, newest first by default: one user's (HISTORY) or everyone's (APPROVAL). */
export async function listSubmissions(filter: { userId?: number }, sort: HistorySort, dir: "asc" | "desc", language?: string): Promise<HistoryRow[]> {
  const rows = await Submission.findAll({
    include: [{ association: "user", attributes: ["id", "username", "institute"] }],
    where: filter.userId !== undefined ? { userId: filter.userId } : {},
    order: [
      [SORT_COLUMN[sort], dir.toUpperCase()],
      ["id", dir.toUpperCase()],
    ],
  });
  const current = await currentStandings(rows.filter((r) => r.status === SubmissionStatus.approved).map((r) => r.id));
  // Which board each submission is for, named as the leaderboard names it in the reader's language.
  const suites = new Map((await Suite.findAll({ where: { id: [...new Set(rows.map((r) => r.suiteId))] } })).map((s) => [s.id, translated(s, language).name]));
  return rows.map((r) => ({
    id: r.id,
    username: r.user?.username ?? "(deleted user)",
    institute: r.user?.institute ?? "",
    algorithm: r.algorithm,
    metascore: r.metascore,
    metascoreText: formatMetascore(r.metascore),
    ranking: r.ranking,
    submitTime: r.createdAt.toISOString(),
    status: r.status,
    suiteId: r.suiteId,
    suiteName: suites.get(r.suiteId) ?? r.suiteId,
    hasPython: Boolean(r.pythonFile),
    morfName: r.morfName,
    lerfName: r.lerfName,
    pythonName: r.pythonFile ? r.pythonName : null,
    email: r.email,
    info: r.info,
    current: current.get(r.id) ?? null,
    provenance: r.provenance === Provenance.verified ? Provenance.verified : Provenance.selfReported,
    evaluationRunId: r.evaluationRunId,
    decisionNote: r.decisionNote,
  }));
}

/**
 * Where approved submissions stand on their boards now: later approvals move every method's
 * metascore and rank (history fusion), so the numbers at submission time go out of date
 * and the page shows both. One board computation per suite involved.
 */
async function currentStandings(submissionIds: number[]): Promise<Map<number, NonNullable<HistoryRow["current"]>>> {
  const out = new Map<number, NonNullable<HistoryRow["current"]>>();
  if (!submissionIds.length) return out;
  const methods = await BoardMethod.findAll({ where: { submissionId: submissionIds }, attributes: ["id", "suiteId", "submissionId"] });
  for (const suiteId of new Set(methods.map((m) => m.suiteId))) {
    const board = await suiteBoard(suiteId);
    const byId = new Map(board.map((row) => [row.id, row]));
    for (const m of methods.filter((x) => x.suiteId === suiteId)) {
      const row = byId.get(String(m.id));
      if (row && m.submissionId !== null) out.set(m.submissionId, { metascoreText: row.metascoreText, rank: row.rank, boardSize: board.length });
    }
  }
  return out;
}

/**
 * The localisation a verified submission's evaluation run measured, per task with object masks
 * (null where the maps had no positive mass: BoardMethod.meanLocalisation leaves those out, as
 * for the baselines), for the board's localisation column. Self-reported results have no maps.
 */
async function runLocalisation(runId: number | null): Promise<Record<string, number | null> | null> {
  if (!runId) return null;
  const run = await EvaluationRun.findByPk(runId, { attributes: ["id", "localisationJson"] });
  return run?.localisationJson ? (JSON.parse(run.localisationJson) as Record<string, number | null>) : null;
}

export type Decision = "approve" | "reject";
export type DecisionOutcome = { ok: true; message: string } | { ok: false; message: string; detail?: string };

/**
 * Approve or reject an In Process submission, once. The status changes by a conditional
 * UPDATE … WHERE status = 'In Process' inside a transaction: of two admins deciding at the
 * same moment exactly one changes the row, the other sees 0 rows and fails. An approval
 * fuses the method into its suite's board in the same transaction (suite row locked, so
 * approvals on one suite are serialized), so the board and the status change together.
 * A rejection may carry a reason for the submitter (`note`, checked by the caller with
 * readDecisionNote); it is written with the status, in the same UPDATE.
 */
export async function decideSubmission(admin: { id: number }, id: number, decision: Decision, note = ""): Promise<DecisionOutcome> {
  const failed = decision === "approve" ? MSG.approveFailed : MSG.rejectFailed;
  const status: SubmissionStatus = decision === "approve" ? SubmissionStatus.approved : SubmissionStatus.rejected;
  const notInProcess: DecisionOutcome = { ok: false, message: failed, detail: "Only submissions that are In Process can be decided, and only once." };
  try {
    // An approval is fused with the board through the sidecar first, outside any transaction, so
    // a slow sidecar only slows this approval; the transaction then re-checks the board and writes.
    for (let attempt = 1; ; attempt++) {
      let plan: FusionPlan | null = null;
      if (decision === "approve") {
        const sub = await Submission.findByPk(id, { include: [{ association: "user", attributes: ["id", "username", "institute"] }] });
        if (!sub || sub.status !== SubmissionStatus.inProcess) return notInProcess;
        // The suite may have stopped taking self-reported results after this one was sent.
        if (sub.provenance !== Provenance.verified && (await Suite.findByPk(sub.suiteId))?.acceptsSelfReported === false)
          return { ok: false, message: failed, detail: MSG.selfReportedApproval };
        const user = sub.user;
        plan = await planFusion(sub.suiteId, {
          contributor: user?.username ?? "(deleted user)",
          institute: user?.institute ?? "",
          algorithm: sub.algorithm,
          scores: JSON.parse(sub.scoresJson) as TaskScore[],
          submissionId: sub.id,
          provenance: sub.provenance,
          localisation: await runLocalisation(sub.evaluationRunId),
        });
      }
      try {
        const changed = await inWriteTransaction(async (transaction) => {
          const [affected] = await Submission.update(
            { status, decidedBy: admin.id, decidedAt: new Date(), decisionNote: decision === "reject" && note ? note : null },
            { where: { id, status: SubmissionStatus.inProcess }, transaction },
          );
          if (affectedRows(affected) !== 1) return false;
          if (plan) {
            await sequelize.query(isSqlite() ? "SELECT id FROM suites WHERE id = ?" : "SELECT id FROM suites WHERE id = ? FOR UPDATE", {
              replacements: [plan.suiteId],
              type: QueryTypes.SELECT,
              transaction,
            });
            const fused = await applyFusion(plan, transaction);
            // The history shows the method's place on the board it joined.
            await Submission.update({ metascore: fused.metascore, ranking: fused.rank }, { where: { id }, transaction });
          }
          return true;
        });
        return changed ? { ok: true, message: decision === "approve" ? MSG.approved : MSG.rejected } : notInProcess;
      } catch (err) {
        // Another approval changed the board in between: fuse again with the new board.
        // (A deadlock MariaDB broke was already run again by inWriteTransaction.)
        if (err instanceof BoardChangedError && attempt < 5) continue;
        throw err;
      }
    }
  } catch (err) {
    if (isSidecarFailure(err)) return { ok: false, message: failed, detail: sidecarMessage(err) };
    throw err;
  }
}

/** Sequelize gives [affectedCount] for UPDATE on SQLite and MySQL/MariaDB; anything else counts as no change. */
function affectedRows(value: unknown): number {
  return typeof value === "number" ? value : 0;
}

/** A stored file for download: admins and the submission's owner only (403 for anyone else). */
export async function submissionFile(user: { id: number; isAdmin: boolean }, id: number, kind: FileKind) {
  // Only the maps download needs the evaluation run the submission came from.
  const sub = await Submission.findByPk(id, kind === "maps" ? { include: ["evaluationRun"] } : {});
  if (!sub) return { status: 404 as const };
  if (!user.isAdmin && sub.userId !== user.id) return { status: 403 as const };
  if (kind === "maps") {
    // A verified submission's evidence: the maps zip its evaluation run read.
    const run = sub.evaluationRun;
    if (!run?.mapsFile) return { status: 404 as const };
    return { status: 200 as const, content: await fs.readFile(path.join(mapsDir(), path.basename(run.mapsFile))), name: run.mapsName ?? "maps.zip", kind };
  }
  const stored = kind === "morf" ? sub.morfFile : kind === "lerf" ? sub.lerfFile : sub.pythonFile;
  const name = kind === "morf" ? sub.morfName : kind === "lerf" ? sub.lerfName : sub.pythonName;
  if (!stored) return { status: 404 as const };
  return { status: 200 as const, content: await fs.readFile(storedPath(stored)), name: name ?? path.basename(stored), kind };
}

export type { SuiteSummary };
