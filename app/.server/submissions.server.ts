// The submission workflow up to sending: result files checked and kept per user (a draft) between
// "get your scores" and "submit", scored through the sidecar, and the submission stored with its
// files. The files themselves are in ./submissionFiles.server.ts; what happens after sending
// (history, approval, downloads) in ./submissionReview.server.ts.
import fs from "node:fs/promises";
import { Op } from "sequelize";
import { Submission, SubmissionDraft, Suite, inWriteTransaction, type TaskScore } from "./db.server.ts";
import { Provenance } from "../../lib/provenance.ts";
import { SidecarCallError, rpc, unary } from "./sidecar.server.ts";
import { formatMetascore, insertCandidate, storedBoard, type RankRow } from "./board.server.ts";
import { type UploadedFile } from "./uploads.server.ts";
import { checkCsvFile, checkPythonFile, cleanFileName, removeStored, storeFile, storedPath, type Protocol } from "./submissionFiles.server.ts";
import { messageRef, type MessageRef } from "~/lib/forms/messages.ts";
import { problemMessage } from "~/lib/fileProblems.ts";
import { MSG, checkAlgorithmName, dailyLimitMessage, scoreSchema, submitSchema } from "~/lib/rules/submission.ts";
import { parseForm, type FieldErrors } from "~/lib/forms/parse.ts";

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

/** The sidecar's own words when it refused the input; otherwise the generic "server down" message. */
export const sidecarMessage = (err: unknown) => (err instanceof SidecarCallError && err.kind === "user" ? err.message : MSG.sidecarDown);

export function isSidecarFailure(err: unknown): boolean {
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

/** A schema's field errors as the outcome's record: only the fields that have a message. */
const messagesOf = (errors: FieldErrors): Record<string, string> =>
  Object.fromEntries(Object.entries(errors).filter((e): e is [string, string] => Boolean(e[1])));

export type ScoreOutcome = { ok: true; result: ScoreResult } | { ok: false; errors: Record<string, string>; fileErrors?: string[]; message?: string };

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
  const fields = parseForm({ algorithm: input.algorithm }, scoreSchema);
  const errors: Record<string, string> = fields.ok ? {} : messagesOf(fields.errors);
  const fileErrors: string[] = [];
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
  if (fields.ok) await draft.update({ algorithm: fields.value.algorithm });
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
  const fields = parseForm({ algorithm: input.algorithm, email: input.email, info: input.info }, submitSchema);
  // An empty name is the draft's: the rule the schema applies to a typed name, on the name resolved.
  const algorithm = input.algorithm.trim() || draft.algorithm;
  const nameProblem = checkAlgorithmName(algorithm);
  if (nameProblem) errors.algorithm = nameProblem;
  if (!draft.morfFile) errors.morf = MSG.morfRequired;
  if (!draft.lerfFile) errors.lerf = MSG.lerfRequired;
  if (!fields.ok) Object.assign(errors, messagesOf({ email: fields.errors.email, info: fields.errors.info }));
  if (Object.keys(errors).length > 0 || !fields.ok) return { ok: false, errors };
  const { email, info } = fields.value;
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
        info,
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
