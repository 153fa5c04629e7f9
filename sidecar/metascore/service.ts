// gRPC service metarank.v1.Metascore (proto/metarank/v1/metascore.proto). A thin adapter:
// it checks the shape of each request, converts messages to the scoring types and back, and
// turns a request it cannot score into INVALID_ARGUMENT with a message saying what to fix.
import * as grpc from "@grpc/grpc-js";
import { grpcError, metarankV1 } from "../../proto/contract.ts";
import type { SidecarService } from "../services.ts";
import { insertCandidate } from "./fusion.ts";
import { formatMetascore, rankBoard } from "./kappa.ts";
import { scoreMethodFiles } from "./methodFiles.ts";
import { formatProblem } from "./resultFile.ts";
import { suiteProblems } from "./suite.ts";
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
      problems: outcome.problems.map((p) => ({ file: p.file, line: p.line ?? 0, column: p.column ?? 0, message: p.message })),
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

function insertCandidateCall(req: InsertCandidateRequest__Output): InsertCandidateResponse {
  const board = (req.board ?? []).map(toStored);
  const candidate = toMethod(req.candidate, "candidate");
  const { original, current } = insertCandidate(board, candidate);
  return { original: original.map(toRankedMsg), current: current.map(toRankedMsg) };
}

/** Wrap a pure handler: known input problems → INVALID_ARGUMENT, anything else → INTERNAL. */
function unary<Req, Res>(name: string, handler: (req: Req) => Res) {
  return (call: grpc.ServerUnaryCall<Req, Res>, callback: grpc.sendUnaryData<Res>) => {
    try {
      callback(null, handler(call.request));
    } catch (err) {
      if (err instanceof InvalidRequest || err instanceof BoardError) {
        callback(grpcError(grpc.status.INVALID_ARGUMENT, `${name}: ${err.message}`));
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
    server.addService(metarankV1(METASCORE_PROTO).Metascore.service, handlers);
  },
};
