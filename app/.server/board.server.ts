// Suites and their boards as the screens show them (leaderboard, submission, contributor ranking),
// and the one place that writes a board: fusion of an approved method (docs/metascore.md "History
// fusion").
import * as grpc from "@grpc/grpc-js";
import type { Transaction } from "sequelize";
import { UNKNOWN_BOARD_VERSION } from "../../sidecar/metascore/boardCache.ts";
import { encodeInsertCandidateRequest } from "../../sidecar/metascore/wire.ts";
import { boardVersion } from "./boardVersion.server.ts";
import { parseTaskModels, type TaskModel } from "../lib/taskModels.ts";
import { BoardMethod, Suite, type TaskScore } from "./db.server.ts";
import { SidecarCallError, rpc, unary } from "./sidecar.server.ts";
import type { InsertCandidateResponse__Output } from "../../proto/generated/metarank/v1/InsertCandidateResponse.ts";
import type { MethodScores } from "../../proto/generated/metarank/v1/MethodScores.ts";
import type { RankedMethod__Output } from "../../proto/generated/metarank/v1/RankedMethod.ts";
import type { StoredMethod } from "../../proto/generated/metarank/v1/StoredMethod.ts";

export const METASCORE_PROTO = "metarank/v1/metascore.proto";
export const PAGE_SIZE = 8;
/** Equal κ within this share a rank (docs/metascore.md "κ and ranks"). */
const RANK_TOLERANCE = 1e-9;

export interface SuiteSummary {
  id: string;
  name: string;
  description: string;
  tasks: string[];
  patchSize: number;
  filler: number[];
  grid: number[];
  isDefault: boolean;
  methods: number;
  /** Evaluation images per task (maps per task); null when the platform cannot evaluate the suite. */
  splitImages: number | null;
  /** False: only verified results may be submitted (suite.json "submissions"). */
  acceptsSelfReported: boolean;
  /** Each task's network and data (the leaderboard's tasks table); a task missing or null is not known here. */
  taskModels: Record<string, TaskModel | null>;
}

/** One row of a rank table: what every board on every screen shows. */
export interface RankRow {
  id: string;
  rank: number;
  contributor: string;
  institute: string;
  algorithm: string;
  metascore: number;
  metascoreText: string;
  /** Mean share of positive attribution inside the object mask, where the suite has masks. */
  localisation?: number | null;
  /** Where its numbers come from (platform, verified, self-reported; docs/evaluation.md "Evaluating your own method"): set on the stored boards. */
  source?: RowSource;
}

/**
 * "platform": a baseline whose MoRF/LeRF files the platform computed itself (seeds/suites,
 * `npm run evaluate`); "verified": an approved submission whose files the platform computed from
 * the contributor's attribution maps; "self-reported": one scored from the CSV files its
 * contributor uploaded (the platform checked their form, not how they were made).
 */
export type { RowSource } from "../../lib/provenance.ts";
import type { Provenance, RowSource } from "../../lib/provenance.ts";

/** A stored board method's source (older rows without a provenance were self-reported uploads). */
export const rowSource = (m: { sourceKey: string | null; provenance?: string | null }): RowSource =>
  m.sourceKey != null ? "platform" : m.provenance === "verified" ? "verified" : "self-reported";

export type BoardScope = "overall" | "morf" | "lerf";

/** κ as the screens show it: 4 decimals, never "-0.0000" (same rule as the sidecar's). */
export function formatMetascore(kappa: number): string {
  const text = kappa.toFixed(4);
  return /^-0\.0+$/.test(text) ? text.slice(1) : text;
}

/** Best first by κ; equal κ (within 1e-9 of their group's first) share a rank, the next skips (1, 2, 2, 4). */
export function rankByKappa<T extends { metascore: number }>(items: readonly T[]): (T & { rank: number })[] {
  const sorted = items.map((item, i) => ({ item, i })).sort((a, b) => b.item.metascore - a.item.metascore || a.i - b.i);
  const out: (T & { rank: number })[] = [];
  let leader = 0;
  sorted.forEach(({ item }, position) => {
    if (position > 0 && sorted[leader].item.metascore - item.metascore <= RANK_TOLERANCE) {
      out.push({ ...item, rank: out[leader].rank });
    } else {
      leader = position;
      out.push({ ...item, rank: position + 1 });
    }
  });
  return out;
}

export interface Page<T> {
  rows: T[];
  page: number;
  pages: number;
  total: number;
}

/** One page (1-based, clamped into range) of `rows`. */
export function paginate<T>(rows: readonly T[], page: number, size = PAGE_SIZE): Page<T> {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const current = Math.min(Math.max(1, Number.isFinite(page) ? Math.floor(page) : 1), pages);
  return { rows: rows.slice((current - 1) * size, current * size), page: current, pages, total: rows.length };
}

/**
 * The page asked for in `param`; without one, the page that holds the row `id` (so a table opens
 * where the reader's own row is), else page 1.
 */
export function pageHolding(url: URL, param: string, rows: readonly { id: string }[], id: string, size = PAGE_SIZE): number {
  const at = rows.findIndex((r) => r.id === id);
  return url.searchParams.has(param) || at < 0 ? pageParam(url, param) : Math.floor(at / size) + 1;
}

/** A page number from a query parameter; anything odd is page 1. */
export function pageParam(url: URL, name: string): number {
  const n = Number(url.searchParams.get(name));
  return Number.isInteger(n) && n > 0 ? n : 1;
}

/** The suite's name and description in `language` where suite.json translates them, else its own (English). */
export function translated(s: Suite, language: string | undefined): { name: string; description: string } {
  if (!language || !s.translationsJson) return { name: s.name, description: s.description };
  let t: { name?: unknown; description?: unknown } | undefined;
  try {
    t = (JSON.parse(s.translationsJson) as Record<string, { name?: unknown; description?: unknown }>)[language];
  } catch {
    t = undefined;
  }
  return {
    name: typeof t?.name === "string" && t.name ? t.name : s.name,
    description: typeof t?.description === "string" && t.description ? t.description : s.description,
  };
}

function summary(s: Suite, methods: number, language?: string): SuiteSummary {
  return {
    id: s.id,
    ...translated(s, language),
    tasks: s.tasks,
    grid: s.grid,
    filler: JSON.parse(s.fillerJson) as number[],
    patchSize: s.patchSize,
    isDefault: s.isDefault,
    methods,
    splitImages: s.splitImages ?? null,
    acceptsSelfReported: s.acceptsSelfReported !== false,
    taskModels: parseTaskModels(s.taskModelsJson),
  };
}

/**
 * Every suite in leaderboard order, with how many methods its board has; name and description in
 * `language` where the suite translates them (the API and admin pages keep the English ones).
 */
export async function listSuites(language?: string): Promise<SuiteSummary[]> {
  const [suites, counts] = await Promise.all([
    Suite.findAll({
      order: [
        ["position", "ASC"],
        ["id", "ASC"],
      ],
    }),
    BoardMethod.count({ group: ["suiteId"] }) as unknown as Promise<{ suiteId: string; count: number }[]>,
  ]);
  const bySuite = new Map(counts.map((c) => [c.suiteId, Number(c.count)]));
  return suites.map((s) => summary(s, bySuite.get(s.id) ?? 0, language));
}

/**
 * The baselines on a suite's public board: the methods the platform computed itself (rows of
 * the suite's own folders), not approved submissions, which their contributors may have
 * computed elsewhere (self-reported).
 */
export function countBaselines(suiteId: string): Promise<number> {
  return BoardMethod.count({ where: { suiteId, submissionId: null, hidden: false } });
}

/** The suite asked for by id, else the one marked default, else the first with methods, else the first. */
export function chooseSuite(suites: readonly SuiteSummary[], requested?: string | null): SuiteSummary | undefined {
  return (requested ? suites.find((s) => s.id === requested) : undefined) ?? suites.find((s) => s.isDefault) ?? suites.find((s) => s.methods > 0) ?? suites[0];
}

/** A suite's public board ranked on one scope (overall κ, MoRF-only κ or LeRF-only κ); hidden entries left out. */
export async function suiteBoard(suiteId: string, scope: BoardScope = "overall"): Promise<RankRow[]> {
  return (await suiteBoards(suiteId, [scope]))[scope];
}

/**
 * Several public boards of one suite from a single read of its methods (the leaderboard shows all
 * three). Entries an administrator hid (the contributor ranking's edit mode) are left out and the
 * rest ranked among themselves; their κ is the fused one, unchanged.
 */
export async function suiteBoards<S extends BoardScope>(suiteId: string, scopes: readonly S[]): Promise<Record<S, RankRow[]>> {
  const methods = await BoardMethod.findAll({ where: { suiteId, hidden: false }, order: [["id", "ASC"]] });
  const out = {} as Record<S, RankRow[]>;
  for (const scope of scopes) {
    const key = scope === "overall" ? "metascore" : scope === "morf" ? "morfMetascore" : "lerfMetascore";
    out[scope] = rankByKappa(
      methods.map((m) => ({
        id: String(m.id),
        contributor: m.contributor,
        institute: m.institute,
        algorithm: m.algorithm,
        metascore: m[key],
        metascoreText: formatMetascore(m[key]),
        localisation: m.meanLocalisation,
        source: rowSource(m),
      })),
    );
  }
  return out;
}

export type RankingSort = "rank" | "contributor" | "institute";

/** The admin contributor ranking: the overall board, optionally sorted by contributor or institute. */
export function sortRanking<T extends RankRow>(rows: readonly T[], sort: RankingSort, dir: "asc" | "desc"): T[] {
  if (sort === "rank") return dir === "desc" ? [...rows].reverse() : [...rows];
  const sign = dir === "desc" ? -1 : 1;
  return [...rows].sort((a, b) => sign * a[sort].localeCompare(b[sort], "en", { sensitivity: "base" }) || a.rank - b.rank);
}

/** Reads ?sort= and ?dir= for the contributor ranking. */
export function rankingSortParams(url: URL): { sort: RankingSort; dir: "asc" | "desc" } {
  const s = url.searchParams.get("sort");
  const sort: RankingSort = s === "contributor" || s === "institute" ? s : "rank";
  return { sort, dir: url.searchParams.get("dir") === "desc" ? "desc" : "asc" };
}

// ---- the Metascore service, as the board uses it ----

export type RankedMethodMsg = RankedMethod__Output;
export type InsertCandidateResult = InsertCandidateResponse__Output;

/** A suite's stored board: its rows, and what the Metascore service is sent for it. */
export interface StoredBoard {
  methods: BoardMethod[];
  /** The rows as StoredMethod messages, board order (built on first use: a board the sidecar keeps is not sent). */
  readonly messages: StoredMethod[];
  /** The board's content version (boardVersion.server.ts), computed on first use. */
  readonly version: string;
}

/** The stored board of a suite, read in id order (the rows, and as messages for the service). */
export async function storedBoard(suiteId: string, transaction?: Transaction): Promise<StoredBoard> {
  const methods = await BoardMethod.findAll({
    where: { suiteId },
    order: [["id", "ASC"]],
    transaction,
    lock: transaction ? transaction.LOCK.UPDATE : undefined,
  });
  let messages: StoredMethod[] | undefined;
  let version: string | undefined;
  return {
    methods,
    // Built from id, the three κ and scoresJson alone: the fields boardVersion hashes, so that
    // equal versions mean equal messages.
    get messages() {
      return (messages ??= methods.map((m): StoredMethod => ({
        id: String(m.id),
        metascore: m.metascore,
        morfMetascore: m.morfMetascore,
        lerfMetascore: m.lerfMetascore,
        scores: m.scores,
      })));
    },
    get version() {
      return (version ??= boardVersion(methods));
    },
  };
}

const INSERT_DEADLINE_MS = 15_000;

/**
 * Calls InsertCandidate: the stored board as it is and with the candidate fused in. The board is
 * first named by its version only; a sidecar that does not keep it (first use, a restart, another
 * sidecar, one built before board_version) gets it in full, with the version, and keeps it for
 * the next call (docs/metascore-performance.md "Boards kept between calls").
 */
export async function insertCandidate(board: StoredBoard, candidate: MethodScores): Promise<InsertCandidateResult> {
  // Encoded by hand (sidecar/metascore/wire.ts): the generated serializer's bytes, a tenth of its time on a large board.
  const method = { ...rpc().metascore.InsertCandidate, requestSerialize: encodeInsertCandidateRequest };
  if (board.methods.length === 0) return unary(method, { board: [], candidate }, { deadlineMs: INSERT_DEADLINE_MS });
  const boardVersion = board.version;
  try {
    const kept = await unary(method, { candidate, boardVersion, boardOmitted: true }, { deadlineMs: INSERT_DEADLINE_MS });
    // A sidecar from before board_version ignores it, scores an empty board and echoes nothing.
    if (kept.boardVersion === boardVersion) return kept;
  } catch (err) {
    const unknown = err instanceof SidecarCallError && err.code === grpc.status.FAILED_PRECONDITION && err.details.includes(UNKNOWN_BOARD_VERSION);
    if (!unknown) throw err;
  }
  return unary(method, { board: board.messages, candidate, boardVersion }, { deadlineMs: INSERT_DEADLINE_MS });
}

/** A method about to join a board, and the board it was fused with (computed outside any transaction). */
export interface FusionPlan {
  suiteId: string;
  method: {
    contributor: string;
    institute: string;
    algorithm: string;
    scores: TaskScore[];
    submissionId: number;
    provenance: Provenance;
    /** Share of positive attribution inside the object masks, per task with masks (verified runs only). */
    localisation?: Record<string, number | null> | null;
  };
  /** The board as read for the fusion: id → κ triple. Applying checks the board is still this. */
  board: Map<number, [number, number, number]>;
  result: InsertCandidateResult;
  candidateId: string;
}

/** The board changed between planning and applying (another approval landed): plan again. */
export class BoardChangedError extends Error {
  constructor() {
    super("The board changed while the method was being fused; fusing again.");
  }
}

/**
 * Fuses a method into its suite's board by history fusion (docs/metascore.md "History fusion")
 * through the Metascore service — outside any transaction, so a slow sidecar holds no database lock
 * (docs/security.md).
 */
export async function planFusion(suiteId: string, method: FusionPlan["method"]): Promise<FusionPlan> {
  const board = await storedBoard(suiteId);
  const candidateId = `submission-${method.submissionId}`;
  const result = await insertCandidate(board, { id: candidateId, scores: method.scores });
  return { suiteId, method, candidateId, result, board: new Map(board.methods.map((m) => [m.id, [m.metascore, m.morfMetascore, m.lerfMetascore]])) };
}

/**
 * Writes a planned fusion inside the caller's transaction: every stored κ is rewritten and the
 * new row inserted, so the board is never half-updated. The caller holds the suite's lock; if the
 * board is not the one the plan was computed from, nothing is written (BoardChangedError).
 */
export async function applyFusion(plan: FusionPlan, transaction: Transaction): Promise<{ metascore: number; rank: number }> {
  const { methods } = await storedBoard(plan.suiteId, transaction);
  const unchanged =
    methods.length === plan.board.size &&
    methods.every((m) => {
      const k = plan.board.get(m.id);
      return k !== undefined && k[0] === m.metascore && k[1] === m.morfMetascore && k[2] === m.lerfMetascore;
    });
  if (!unchanged) throw new BoardChangedError();
  const byId = new Map(plan.result.current.map((r) => [r.id, r]));
  for (const m of methods) {
    const r = byId.get(String(m.id));
    if (!r) throw new Error(`fusion lost board method ${m.id}`);
    await m.update({ metascore: r.metascore, morfMetascore: r.morfMetascore, lerfMetascore: r.lerfMetascore }, { transaction });
  }
  const own = byId.get(plan.candidateId);
  if (!own) throw new Error("fusion returned no row for the candidate");
  const { method } = plan;
  await BoardMethod.create(
    {
      suiteId: plan.suiteId,
      sourceKey: null,
      submissionId: method.submissionId,
      provenance: method.provenance,
      contributor: method.contributor,
      institute: method.institute,
      algorithm: method.algorithm,
      scoresJson: JSON.stringify(method.scores),
      localisationJson: method.localisation && Object.keys(method.localisation).length ? JSON.stringify(method.localisation) : null,
      metascore: own.metascore,
      morfMetascore: own.morfMetascore,
      lerfMetascore: own.lerfMetascore,
    },
    { transaction },
  );
  return { metascore: own.metascore, rank: own.rank };
}
