import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type NonAttribute } from "sequelize";
import { sequelize } from "./db.ts";
import type { User } from "./User.ts";

export const TREE_TASK_STATES = ["queued", "running", "completed", "failed", "cancelled"] as const;
export type TreeTaskState = (typeof TREE_TASK_STATES)[number];

/**
 * Which state a task may move to from which (the page, the job and start-up recovery all go
 * through `transitionTreeTask`): queued → running when a worker claims it; running → running when
 * a worker claims it again after the app restarted (bull's stalled-job recovery); running → queued
 * when an attempt failed and will be retried; either → cancelled by its owner, or → failed;
 * running → completed. Finished states are final (the same table as EvaluationRun's).
 */
export const TREE_TASK_TRANSITIONS: Record<TreeTaskState, readonly TreeTaskState[]> = {
  queued: ["running", "cancelled", "failed"],
  running: ["running", "queued", "completed", "failed", "cancelled"],
  completed: [],
  failed: [],
  cancelled: [],
};

/**
 * One prototype-tree training task (docs/tree-service.md "Training tasks and data parallelism"),
 * filled in by the "tree-task" queue job from the sidecar's Tree.Train stream
 * (app/.server/treeTasks.server.ts). `treeId` is set only when the sidecar has written the tree.
 */
export class TreeTask extends Model<InferAttributes<TreeTask>, InferCreationAttributes<TreeTask>> {
  declare id: CreationOptional<number>;
  declare userId: number;
  declare category: string;
  declare name: string;
  declare datasetsJson: string;
  declare depth: number;
  declare iterations: number;
  declare protoDim: number;
  declare remarks: CreationOptional<string>;
  declare ddpTraining: CreationOptional<boolean>;
  declare ddpNum: CreationOptional<number>;
  declare argsJson: string;
  declare state: CreationOptional<TreeTaskState>;
  declare progress: CreationOptional<number>;
  declare error: CreationOptional<string | null>;
  declare jobId: CreationOptional<string | null>;
  declare attempts: CreationOptional<number>;
  /** How often an app restart interrupted it (app/.server/treeTasks.server.ts trains it again, up to a limit). */
  declare restarts: CreationOptional<number>;
  declare sidecar: CreationOptional<string | null>;
  declare treeId: CreationOptional<string | null>;
  declare scalarsJson: CreationOptional<string | null>;
  declare stagesJson: CreationOptional<string | null>;
  declare resultJson: CreationOptional<string | null>;
  declare startedAt: CreationOptional<Date | null>;
  declare completedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
  /** Loaded only with `include: "user"` (models/index.ts). */
  declare user?: NonAttribute<User | null>;
}

TreeTask.init(
  {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    userId: { type: DataTypes.INTEGER, allowNull: false },
    category: { type: DataTypes.STRING(16), allowNull: false },
    name: { type: DataTypes.STRING(64), allowNull: false },
    datasetsJson: { type: DataTypes.STRING(1000), allowNull: false },
    depth: { type: DataTypes.INTEGER, allowNull: false },
    iterations: { type: DataTypes.INTEGER, allowNull: false },
    protoDim: { type: DataTypes.INTEGER, allowNull: false },
    remarks: { type: DataTypes.STRING(500), allowNull: false, defaultValue: "" },
    ddpTraining: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    ddpNum: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 },
    argsJson: { type: DataTypes.TEXT, allowNull: false },
    state: { type: DataTypes.STRING(16), allowNull: false, defaultValue: "queued" },
    progress: { type: DataTypes.DOUBLE, allowNull: false, defaultValue: 0 },
    error: { type: DataTypes.TEXT, allowNull: true },
    jobId: { type: DataTypes.STRING(64), allowNull: true },
    attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    restarts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    sidecar: { type: DataTypes.STRING(255), allowNull: true },
    treeId: { type: DataTypes.STRING(200), allowNull: true },
    scalarsJson: { type: sequelize.getDialect() === "sqlite" ? DataTypes.TEXT : DataTypes.TEXT("medium"), allowNull: true },
    stagesJson: { type: DataTypes.TEXT, allowNull: true },
    resultJson: { type: DataTypes.TEXT, allowNull: true },
    startedAt: { type: DataTypes.DATE, allowNull: true },
    completedAt: { type: DataTypes.DATE, allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "tree_tasks" },
);

/** One line of a task's training log (TrainEvent.log); the job keeps the last lines only. */
export class TreeTaskLog extends Model<InferAttributes<TreeTaskLog>, InferCreationAttributes<TreeTaskLog>> {
  declare id: CreationOptional<number>;
  declare taskId: number;
  declare line: string;
  declare loggedAt: Date;
}

TreeTaskLog.init(
  {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    taskId: { type: DataTypes.INTEGER, allowNull: false },
    line: { type: DataTypes.STRING(1000), allowNull: false },
    loggedAt: { type: DataTypes.DATE, allowNull: false },
  },
  { sequelize, tableName: "tree_task_logs", timestamps: false },
);

/** One image a task sent while training (TrainEvent.image): its PNG is a file under var/tasks/<task id>/. */
export class TreeTaskImage extends Model<InferAttributes<TreeTaskImage>, InferCreationAttributes<TreeTaskImage>> {
  declare id: CreationOptional<number>;
  declare taskId: number;
  declare name: string;
  declare iteration: number;
  declare caption: string;
  declare file: string;
  declare bytes: number;
  declare createdAt: CreationOptional<Date>;
}

TreeTaskImage.init(
  {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    taskId: { type: DataTypes.INTEGER, allowNull: false },
    name: { type: DataTypes.STRING(100), allowNull: false },
    iteration: { type: DataTypes.INTEGER, allowNull: false },
    caption: { type: DataTypes.STRING(300), allowNull: false, defaultValue: "" },
    file: { type: DataTypes.STRING(100), allowNull: false },
    bytes: { type: DataTypes.INTEGER, allowNull: false },
    createdAt: DataTypes.DATE,
  },
  { sequelize, tableName: "tree_task_images", updatedAt: false },
);

/**
 * Moves task `id` to `to` (with `changes`) only if it is in one of `from`: a conditional update,
 * so two writers (the page's cancel, the job, start-up recovery) cannot both make the same move.
 */
export async function transitionTreeTask(
  id: number,
  from: readonly TreeTaskState[],
  to: TreeTaskState,
  changes: Partial<InferCreationAttributes<TreeTask>> = {},
): Promise<boolean> {
  for (const f of from) if (!TREE_TASK_TRANSITIONS[f].includes(to)) throw new Error(`a tree task cannot go from ${f} to ${to}`);
  const [moved] = await TreeTask.update({ ...changes, state: to }, { where: { id, state: [...from] } });
  return moved > 0;
}
