// What /api/v1 answers, built from the same server functions the pages use (board.server.ts,
// submissions.server.ts, submissionReview.server.ts): suites, boards and submissions in the API's
// documented shapes (app/.server/api/openapi.ts). Fields are picked one by one, so a new column in
// a page's row never changes the API by accident.
import { Op } from "sequelize";
import { Submission, User } from "../db.server.ts";
import { listSuites, suiteBoards, type RankRow, type SuiteSummary } from "../board.server.ts";
import type { ScoreResult } from "../submissions.server.ts";
import type { HistoryRow } from "../submissionReview.server.ts";
import { SubmissionStatus } from "../../../lib/submissionStatus.ts";

/** Where a suite's kit (images, labels, models) is downloaded (docs/suite-kit.md). */
export const kitUrl = (suiteId: string) => `/suites/${encodeURIComponent(suiteId)}/kit.zip`;
/** Where one task's kit (that dataset and its network only) is downloaded. */
export const taskKitUrl = (suiteId: string, task: string) => `${kitUrl(suiteId)}?task=${encodeURIComponent(task)}`;

export function suiteView(s: SuiteSummary) {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    tasks: s.tasks,
    grid: s.grid,
    patchSize: s.patchSize,
    filler: s.filler,
    isDefault: s.isDefault,
    acceptsSelfReported: s.acceptsSelfReported,
    methods: s.methods,
    kitUrl: kitUrl(s.id),
    taskKitUrls: Object.fromEntries(s.tasks.map((task) => [task, taskKitUrl(s.id, task)])),
    // What a maps zip must hold: N maps per task, each H×W (or H×W×C) of the task's input.
    mapsImages: s.splitImages,
    taskInputs: Object.fromEntries(s.tasks.map((task) => [task, s.taskModels[task]?.input ?? null])),
  };
}

export async function suitesView() {
  return (await listSuites()).map(suiteView);
}

/** A suite id as stored (folder names under seeds/suites): bounded and plain, else it cannot exist. */
export const isSuiteId = (id: string | undefined): id is string => typeof id === "string" && /^[A-Za-z0-9._-]{1,100}$/.test(id);

/** A method's row as a board ranks it: both the board's and a scored board's rows begin with these (openapi.ts RANKED_ROW). */
const rankedRow = (r: RankRow) => ({
  rank: r.rank,
  algorithm: r.algorithm,
  contributor: r.contributor,
  institute: r.institute,
  metascore: r.metascore,
  metascoreText: r.metascoreText,
});

/** The leaderboard's three boards as rows: overall rank and κ with each method's MoRF-only and LeRF-only κ and ranks. */
export async function boardView(suiteId: string) {
  const { overall, morf, lerf } = await suiteBoards(suiteId, ["overall", "morf", "lerf"] as const);
  const byId = (rows: RankRow[]) => new Map(rows.map((r) => [r.id, r]));
  const [m, l] = [byId(morf), byId(lerf)];
  return overall.map((r) => ({
    ...rankedRow(r),
    morfMetascore: m.get(r.id)?.metascore ?? null,
    morfRank: m.get(r.id)?.rank ?? null,
    lerfMetascore: l.get(r.id)?.metascore ?? null,
    lerfRank: l.get(r.id)?.rank ?? null,
    source: r.source ?? null,
  }));
}

/** A row of a scored board (the submission page's "current" and "original" tables). */
export const scoredRow = (r: RankRow) => ({
  ...rankedRow(r),
  candidate: r.id === "candidate",
});

export function scoreView(suiteId: string, result: ScoreResult) {
  return {
    suite: suiteId,
    algorithm: result.algorithm,
    metascore: result.metascore,
    metascoreText: result.metascoreText,
    rank: result.rank,
    boardSize: result.current.length,
    board: result.current.map(scoredRow),
    original: result.original.map(scoredRow),
  };
}

export function submissionView(r: HistoryRow) {
  return {
    id: r.id,
    suite: r.suiteId,
    algorithm: r.algorithm,
    username: r.username,
    institute: r.institute,
    status: r.status,
    provenance: r.provenance,
    metascore: r.metascore,
    metascoreText: r.metascoreText,
    ranking: r.ranking,
    submitTime: r.submitTime,
    morfName: r.morfName,
    lerfName: r.lerfName,
    pythonName: r.pythonName,
    email: r.email,
    info: r.info,
    current: r.current,
    decisionNote: r.decisionNote,
  };
}

/** Decided submissions, newest decision first, with who decided and when (the approval page's audit). */
export async function decisionsView(limit: number) {
  const rows = await Submission.findAll({
    where: { status: { [Op.ne]: SubmissionStatus.inProcess } },
    order: [
      ["decidedAt", "DESC"],
      ["id", "DESC"],
    ],
    limit,
  });
  const ids = [...new Set(rows.flatMap((r) => [r.userId, r.decidedBy ?? 0]))];
  const users = new Map((await User.findAll({ where: { id: ids } })).map((u) => [u.id, u.username]));
  return rows.map((r) => ({
    id: r.id,
    suite: r.suiteId,
    algorithm: r.algorithm,
    username: users.get(r.userId) ?? "(deleted user)",
    status: r.status,
    decidedBy: r.decidedBy !== null ? (users.get(r.decidedBy) ?? "(deleted user)") : null,
    decidedAt: r.decidedAt ? r.decidedAt.toISOString() : null,
    note: r.decisionNote,
  }));
}
