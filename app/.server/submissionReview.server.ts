// Submissions after they are sent: the history and approval lists (with each approved method's
// standing on its board today), an administrator's decision (once, fused into the board in the same
// transaction) and the download of a submission's files by its owner or an administrator.
import fs from "node:fs/promises";
import path from "node:path";
import { QueryTypes } from "sequelize";
import { BoardMethod, EvaluationRun, Submission, Suite, isSqlite, inWriteTransaction, sequelize, type TaskScore } from "./db.server.ts";
import { SubmissionStatus } from "../../lib/submissionStatus.ts";
import { Provenance } from "../../lib/provenance.ts";
import { BoardChangedError, applyFusion, formatMetascore, planFusion, suiteBoard, translated, type FusionPlan } from "./board.server.ts";
import { MSG, type DecisionChoice } from "~/lib/rules/submission.ts";
import { mapsDir, storedPath, type FileKind } from "./submissionFiles.server.ts";
import { isSidecarFailure, sidecarMessage } from "./submissions.server.ts";

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

/** The decision an administrator sends (its form rule: decisionSchema in app/lib/rules/submission.ts). */
export type Decision = DecisionChoice;
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
