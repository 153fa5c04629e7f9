import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type NonAttribute } from "sequelize";
import { sequelize } from "./db.ts";
import type { User } from "./User.ts";

export const EVALUATION_KINDS = ["method", "maps"] as const;
export type EvaluationKind = (typeof EVALUATION_KINDS)[number];

export const EVALUATION_STATES = ["queued", "running", "completed", "failed", "cancelled"] as const;
export type EvaluationState = (typeof EVALUATION_STATES)[number];

/**
 * Which state a run may move to from which (the page, the job and start-up recovery all go
 * through `transitionRun`): queued → running when a worker claims it; running → queued when an
 * attempt failed and will be retried; either → cancelled by an admin, or → failed; running →
 * completed. Finished states are final.
 */
export const EVALUATION_TRANSITIONS: Record<EvaluationState, readonly EvaluationState[]> = {
  queued: ["running", "cancelled", "failed"],
  running: ["running", "queued", "completed", "failed", "cancelled"],
  completed: [],
  failed: [],
  cancelled: [],
};

/**
 * One MoRF/LeRF evaluation run started from the web app (app/.server/evaluations.server.ts).
 * The queue job fills it in as the sidecar reports progress; `resultDir` (a folder under
 * var/evaluations holding morf.csv, lerf.csv, images.json) is set only once the files are
 * on disk, so a row never points at a half-written result.
 */
export class EvaluationRun extends Model<InferAttributes<EvaluationRun>, InferCreationAttributes<EvaluationRun>> {
  declare id: CreationOptional<number>;
  declare userId: number;
  declare suiteId: string;
  /** "method": a registry method run by the sidecar; "maps": the researcher's uploaded attribution maps (a verified evaluation). */
  declare kind: CreationOptional<EvaluationKind>;
  /** kind "maps": the uploaded zip (a name under var/uploads/maps) and its client file name. */
  declare mapsFile: CreationOptional<string | null>;
  declare mapsName: CreationOptional<string | null>;
  declare method: string;
  declare paramsJson: string;
  declare imageLimit: number;
  declare state: CreationOptional<EvaluationState>;
  declare progress: CreationOptional<number>;
  declare imagesDone: CreationOptional<number>;
  declare imagesTotal: CreationOptional<number>;
  declare etaSeconds: CreationOptional<number | null>;
  declare currentTask: CreationOptional<string | null>;
  declare jobId: CreationOptional<string | null>;
  declare attempts: CreationOptional<number>;
  declare error: CreationOptional<string | null>;
  declare sidecar: CreationOptional<string | null>;
  declare resultDir: CreationOptional<string | null>;
  declare tasksJson: CreationOptional<string | null>;
  declare localisationJson: CreationOptional<string | null>;
  declare paramsUsedJson: CreationOptional<string | null>;
  declare backend: CreationOptional<string | null>;
  declare seconds: CreationOptional<number | null>;
  declare metascore: CreationOptional<number | null>;
  declare metascoreRank: CreationOptional<number | null>;
  declare boardSize: CreationOptional<number | null>;
  declare metascoreNote: CreationOptional<string | null>;
  declare startedAt: CreationOptional<Date | null>;
  declare finishedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
  /** Loaded only with `include: "user"` (models/index.ts). */
  declare user?: NonAttribute<User | null>;
}

EvaluationRun.init(
  {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    userId: { type: DataTypes.INTEGER, allowNull: false },
    suiteId: { type: DataTypes.STRING(100), allowNull: false },
    kind: { type: DataTypes.STRING(16), allowNull: false, defaultValue: "method" },
    mapsFile: { type: DataTypes.STRING(100), allowNull: true },
    mapsName: { type: DataTypes.STRING(255), allowNull: true },
    method: { type: DataTypes.STRING(200), allowNull: false },
    paramsJson: { type: DataTypes.TEXT, allowNull: false },
    imageLimit: { type: DataTypes.INTEGER, allowNull: false },
    state: { type: DataTypes.STRING(16), allowNull: false, defaultValue: "queued" },
    progress: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    imagesDone: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    imagesTotal: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    etaSeconds: { type: DataTypes.DOUBLE, allowNull: true },
    currentTask: { type: DataTypes.STRING(100), allowNull: true },
    jobId: { type: DataTypes.STRING(64), allowNull: true },
    attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    error: { type: DataTypes.TEXT, allowNull: true },
    sidecar: { type: DataTypes.STRING(255), allowNull: true },
    resultDir: { type: DataTypes.STRING(100), allowNull: true },
    tasksJson: { type: DataTypes.TEXT, allowNull: true },
    localisationJson: { type: DataTypes.TEXT, allowNull: true },
    paramsUsedJson: { type: DataTypes.TEXT, allowNull: true },
    backend: { type: DataTypes.STRING(32), allowNull: true },
    seconds: { type: DataTypes.DOUBLE, allowNull: true },
    metascore: { type: DataTypes.DOUBLE, allowNull: true },
    metascoreRank: { type: DataTypes.INTEGER, allowNull: true },
    boardSize: { type: DataTypes.INTEGER, allowNull: true },
    metascoreNote: { type: DataTypes.TEXT, allowNull: true },
    startedAt: { type: DataTypes.DATE, allowNull: true },
    finishedAt: { type: DataTypes.DATE, allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "evaluation_runs" },
);

/**
 * Moves run `id` to `to` (with `changes`) only if it is in one of `from` — a conditional update,
 * so two writers cannot both make the same move. Returns whether the row moved. A move the table
 * does not allow is a programming error and throws.
 */
export async function transitionRun(
  id: number,
  from: readonly EvaluationState[],
  to: EvaluationState,
  changes: Partial<InferCreationAttributes<EvaluationRun>> = {},
): Promise<boolean> {
  for (const f of from) if (!EVALUATION_TRANSITIONS[f].includes(to)) throw new Error(`an evaluation run cannot go from ${f} to ${to}`);
  const [moved] = await EvaluationRun.update({ ...changes, state: to }, { where: { id, state: [...from] } });
  return moved > 0;
}
