// Shared vocabulary of the scoring code (docs/metascore.md).

/** MoRF: most relevant removed first (lower area is better); LeRF: least relevant first (higher is better). */
export type Protocol = "morf" | "lerf";
export const PROTOCOLS: readonly Protocol[] = ["morf", "lerf"];

/** A method's case scores: one area under the accuracy curve per task, per protocol. */
export interface CaseScores {
  morf: Record<string, number>;
  lerf: Record<string, number>;
}

/** A method on a board, identified by an id the caller chooses (a database id, a folder name). */
export interface MethodScores {
  id: string;
  scores: CaseScores;
}

/** Which cases a metascore is computed over: all of them, or one protocol's. */
export type Scope = "overall" | Protocol;
export const SCOPES: readonly Scope[] = ["overall", "morf", "lerf"];

/** κ of one method on the overall, MoRF-only and LeRF-only boards. */
export type Kappas = Record<Scope, number>;

/** A method as a board stores it: case scores plus the κ last computed for it. */
export interface StoredMethod extends MethodScores {
  kappa: Kappas;
}

/** One row of a ranked board. Ranks are 1-based and shared by equal κ (1, 2, 2, 4). */
export interface RankedRow {
  id: string;
  metascore: number;
  rank: number;
  morf: number;
  morfRank: number;
  lerf: number;
  lerfRank: number;
}

/** A board whose methods do not share one set of cases, or whose scores are unusable. */
export class BoardError extends Error {
  override name = "BoardError";
}
