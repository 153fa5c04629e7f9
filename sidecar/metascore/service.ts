// gRPC service metarank.v1.Metascore (proto/metarank/v1/metascore.proto). A thin adapter:
// it checks the shape of each request, converts messages to the scoring types and back, and
// turns a request it cannot score into INVALID_ARGUMENT with a message saying what to fix.
// InsertCandidate keeps the boards it prepared, by the version the caller names, so that an
// insertion into a board it has seen costs the prepared figure (docs/metascore-performance.md
// "Boards kept between calls").
import * as grpc from "@grpc/grpc-js";
import { grpcError, metarankV1 } from "../../proto/contract.ts";
import type { SidecarService } from "../services.ts";
import { BoardCache, MAX_BOARD_VERSION_LENGTH, UNKNOWN_BOARD_VERSION } from "./boardCache.ts";
import { insertCandidate, insertPrepared, preparePacked } from "./fusion.ts";
import type { PackedStoredBoard, PreparedBoard } from "./fusion.ts";
import { formatMetascore, rankBoard } from "./kappa.ts";
import { scoreMethodFiles } from "./methodFiles.ts";
import { formatProblem } from "./resultFile.ts";
import { suiteProblems } from "./suite.ts";
import { decodeInsertCandidateRequest, encodeInsertCandidateResponse } from "./wire.ts";
import { BoardError } from "./types.ts";
import type { CaseScores, MethodScores, RankedRow, StoredMethod } from "./types.ts";
import type { InsertCandidateRequest__Output } from "../../proto/generated/metarank/v1/InsertCandidateRequest.ts";
import type { InsertCandidateResponse } from "../../proto/generated/metarank/v1/InsertCandidateResponse.ts";
import type { MetascoreHandlers } from "../../proto/generated/metarank/v1/Metascore.ts";
import type { MethodScores__Output } from "../../proto/generated/metarank/v1/MethodScores.ts";
import type { RankBoardRequest__Output } from "../../proto/generated/metarank/v1/RankBoardRequest.ts";
import type { RankBoardResponse } from "../../proto/generated/metarank/v1/RankBoardResponse.ts";
import type { RankedMethod } from "../../proto/generated/metarank/v1/RankedMethod.ts";
import type { StoredMethod__Output } from "../../proto/generated/metarank/v1/StoredMethod.ts";
import type { TaskScore__Output } from "../../proto/generated/metarank/v1/TaskScore.ts";
import type { ValidateResultFilesRequest__Output } from "../../proto/generated/metarank/v1/ValidateResultFilesRequest.ts";
import type { ValidateResultFilesResponse } from "../../proto/generated/metarank/v1/ValidateResultFilesResponse.ts";

export const METASCORE_PROTO = "metarank/v1/metascore.proto" as const;

// Message shapes as @grpc/proto-loader delivers them (generated from proto/, docs/grpc.md).
type TaskScoreMsg = TaskScore__Output;
type MethodScoresMsg = MethodScores__Output;
type StoredMethodMsg = StoredMethod__Output;

/** A request the service cannot score; becomes INVALID_ARGUMENT. */
class InvalidRequest extends Error {}

/** A board left out whose version this sidecar does not hold; becomes FAILED_PRECONDITION. */
class UnknownBoardVersion extends Error {}

function toCaseScores(owner: string, scores: TaskScoreMsg[] | undefined): CaseScores {
  const out: CaseScores = { morf: {}, lerf: {} };
  if (!scores || scores.length === 0) throw new InvalidRequest(`${owner} has no scores`);
  for (const s of scores) {
    if (!s.task) throw new InvalidRequest(`${owner} has a score with an empty task id`);
    if (s.task in out.morf) throw new InvalidRequest(`${owner} lists task "${s.task}" twice`);
    for (const [protocol, value] of [
      ["morf", s.morf],
      ["lerf", s.lerf],
    ] as const) {
      if (!Number.isFinite(value) || value < 0 || value > 1) {
        throw new InvalidRequest(`${owner}: ${protocol} score of task "${s.task}" must be in [0, 1], got ${value}`);
      }
      out[protocol][s.task] = value;
    }
  }
  return out;
}

function toMethod(msg: MethodScoresMsg | null | undefined, what: string): MethodScores {
  if (!msg) throw new InvalidRequest(`${what} is missing`);
  if (!msg.id) throw new InvalidRequest(`${what} has an empty id`);
  return { id: msg.id, scores: toCaseScores(`${what} "${msg.id}"`, msg.scores) };
}

function toStored(msg: StoredMethodMsg, index: number): StoredMethod {
  const method = toMethod(msg, `board[${index}]`);
  return { ...method, kappa: { overall: msg.metascore, morf: msg.morfMetascore, lerf: msg.lerfMetascore } };
}

function toRankedMsg(row: RankedRow): RankedMethod {
  return {
    id: row.id,
    metascore: row.metascore,
    rank: row.rank,
    morfMetascore: row.morf,
    morfRank: row.morfRank,
    lerfMetascore: row.lerf,
    lerfRank: row.lerfRank,
    metascoreText: formatMetascore(row.metascore),
  };
}

function validateResultFiles(req: ValidateResultFilesRequest__Output): ValidateResultFilesResponse {
  const grid = req.grid && req.grid.length > 0 ? req.grid : undefined;
  const problems = suiteProblems(req.tasks, grid);
  if (problems.length > 0) throw new InvalidRequest(`suite: ${problems.join("; ")}`);
  const outcome = scoreMethodFiles(
    { tasks: req.tasks, grid },
    { name: req.morf?.name || "morf.csv", content: req.morf?.content ?? Buffer.alloc(0) },
    { name: req.lerf?.name || "lerf.csv", content: req.lerf?.content ?? Buffer.alloc(0) },
  );
  if (!outcome.ok) {
    return {
      valid: false,
      errors: outcome.problems.map(formatProblem),
      problems: outcome.problems.map((p) => ({
        file: p.file,
        line: p.line ?? 0,
        column: p.column ?? 0,
        message: p.message,
        code: p.code ?? "",
        args: p.args ?? {},
      })),
      omittedErrors: outcome.omitted,
      scores: [],
    };
  }
  return {
    valid: true,
    errors: [],
    problems: [],
    omittedErrors: 0,
    scores: req.tasks.map((task) => ({ task, morf: outcome.scores.morf[task], lerf: outcome.scores.lerf[task] })),
  };
}

function rankBoardCall(req: RankBoardRequest__Output): RankBoardResponse {
  const methods = (req.methods ?? []).map((m, i) => toMethod(m, `methods[${i}]`));
  return { rows: rankBoard(methods).map(toRankedMsg) };
}

/**
 * The stored board's messages checked and packed straight into typed arrays, without the per-task
 * objects of toStored: what toStored and packBoard would accept, packed as they would pack it
 * (tasks in the first method's order; another method may list them in another order). Anything
 * else — an empty board, any problem at all — returns null, and the caller takes the general path
 * (toStored, insertCandidate), which reports the problems exactly as before.
 */
export function packStoredMessages(msgs: readonly StoredMethodMsg[]): PackedStoredBoard | null {
  const n = msgs.length;
  if (n === 0 || !msgs[0].scores || msgs[0].scores.length === 0) return null;
  const first = msgs[0].scores;
  const t = first.length;
  const tasks = new Array<string>(t);
  const column = new Map<string, number>();
  for (let k = 0; k < t; k++) {
    const task = first[k].task;
    // toCaseScores checks a task with `in` on a plain object, so a task named like one of
    // Object.prototype's properties counts as listed twice there: left to it.
    if (!task || column.has(task) || task in Object.prototype) return null;
    column.set(task, k);
    tasks[k] = task;
  }
  const morf = new Float64Array(t * n);
  const lerf = new Float64Array(t * n);
  const kappas = { overall: new Float64Array(n), morf: new Float64Array(n), lerf: new Float64Array(n) };
  const ids = new Array<string>(n);
  const idSet = new Set<string>();
  // Which method last wrote each task, for a method listing the tasks in another order.
  const seen = new Int32Array(t).fill(-1);
  for (let p = 0; p < n; p++) {
    const m = msgs[p];
    const id = m.id;
    if (!id || idSet.has(id)) return null;
    idSet.add(id);
    ids[p] = id;
    const scores = m.scores;
    if (!scores || scores.length !== t) return null;
    for (let j = 0; j < t; j++) {
      const s = scores[j];
      const k = s.task === tasks[j] ? j : (column.get(s.task) ?? -1);
      if (k < 0 || seen[k] === p) return null;
      seen[k] = p;
      const a = s.morf;
      const b = s.lerf;
      // toCaseScores's range check, written so that NaN fails it too.
      if (!(a >= 0 && a <= 1 && b >= 0 && b <= 1)) return null;
      morf[k * n + p] = a;
      lerf[k * n + p] = b;
    }
    if (!Number.isFinite(m.metascore) || !Number.isFinite(m.morfMetascore) || !Number.isFinite(m.lerfMetascore)) return null;
    kappas.overall[p] = m.metascore;
    kappas.morf[p] = m.morfMetascore;
    kappas.lerf[p] = m.lerfMetascore;
  }
  return { ids, idSet, cases: { morf: tasks, lerf: tasks.slice() }, scores: { morf, lerf }, kappas };
}

/** A prepared board and its rows as messages, frozen: every insertion into it returns them as "original". */
interface KeptBoard {
  prepared: PreparedBoard;
  original: readonly RankedMethod[];
}

/** The boards InsertCandidate keeps between calls (boardCache.ts). */
export const keptBoards = new BoardCache<KeptBoard>();

function keep(prepared: PreparedBoard): KeptBoard {
  const original = Object.freeze(prepared.original.map((row) => Object.freeze(toRankedMsg(row))));
  return { prepared, original };
}

function insertInto(board: KeptBoard, req: InsertCandidateRequest__Output, version: string): InsertCandidateResponse {
  const candidate = toMethod(req.candidate, "candidate");
  const { current } = insertPrepared(board.prepared, candidate);
  // Frozen and shared by every insertion into this board; the serializer only reads it.
  return { original: board.original as RankedMethod[], current: current.map(toRankedMsg), boardVersion: version };
}

/**
 * InsertCandidate as it was before boards were kept: every message converted to per-task objects,
 * then insertCandidate. The path for a board packStoredMessages does not take (so its problems are
 * reported as before), and what the kept path is tested against (tests/metascore/boardCache.test.ts).
 */
export function insertCandidateDirect(req: InsertCandidateRequest__Output): InsertCandidateResponse {
  const board = (req.board ?? []).map(toStored);
  const candidate = toMethod(req.candidate, "candidate");
  const { original, current } = insertCandidate(board, candidate);
  return { original: original.map(toRankedMsg), current: current.map(toRankedMsg), boardVersion: req.boardVersion ?? "" };
}

/**
 * InsertCandidate: a board left out is taken from the kept boards; a board sent in full is packed
 * from its messages, prepared, kept under its version when it has one, and the candidate inserted.
 * Either way the answer is insertCandidate's on the same board (tests/metascore/boardCache.test.ts).
 */
export function insertCandidateCall(req: InsertCandidateRequest__Output): InsertCandidateResponse {
  const version = req.boardVersion ?? "";
  if (version.length > MAX_BOARD_VERSION_LENGTH) throw new InvalidRequest(`board_version is longer than ${MAX_BOARD_VERSION_LENGTH} characters`);
  const messages = req.board ?? [];
  if (req.boardOmitted) {
    if (!version) throw new InvalidRequest("board_omitted needs a board_version");
    if (messages.length > 0) throw new InvalidRequest("board_omitted, yet a board was sent");
    const kept = keptBoards.get(version);
    if (!kept) throw new UnknownBoardVersion(`${UNKNOWN_BOARD_VERSION} "${version}": send the board in full`);
    return insertInto(kept, req, version);
  }
  const packed = packStoredMessages(messages);
  if (!packed) return insertCandidateDirect(req);
  const board = keep(preparePacked(packed));
  if (version) keptBoards.set(version, board, { methods: packed.ids.length, scores: packed.ids.length * 2 * packed.cases.morf.length });
  return insertInto(board, req, version);
}

/** Wrap a pure handler: known input problems → INVALID_ARGUMENT, anything else → INTERNAL. */
function unary<Req, Res>(name: string, handler: (req: Req) => Res) {
  return (call: grpc.ServerUnaryCall<Req, Res>, callback: grpc.sendUnaryData<Res>) => {
    try {
      callback(null, handler(call.request));
    } catch (err) {
      if (err instanceof InvalidRequest || err instanceof BoardError) {
        callback(grpcError(grpc.status.INVALID_ARGUMENT, `${name}: ${err.message}`));
      } else if (err instanceof UnknownBoardVersion) {
        callback(grpcError(grpc.status.FAILED_PRECONDITION, `${name}: ${err.message}`));
      } else {
        callback(grpcError(grpc.status.INTERNAL, `${name} failed: ${(err as Error).message}`));
      }
    }
  };
}

export const metascoreService: SidecarService = {
  name: "metarank.v1.Metascore",
  register(server) {
    const handlers: MetascoreHandlers = {
      ValidateResultFiles: unary("ValidateResultFiles", validateResultFiles),
      RankBoard: unary("RankBoard", rankBoardCall),
      InsertCandidate: unary("InsertCandidate", insertCandidateCall),
    };
    const service = metarankV1(METASCORE_PROTO).Metascore.service;
    // InsertCandidate's request is decoded and its answer encoded by hand (wire.ts): the same
    // messages and bytes as the generated code's, a fraction of the time.
    const insert = { ...service.InsertCandidate, requestDeserialize: decodeInsertCandidateRequest, responseSerialize: encodeInsertCandidateResponse };
    server.addService({ ...service, InsertCandidate: insert }, handlers);
  },
};
