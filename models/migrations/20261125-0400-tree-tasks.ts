import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

// Prototype-tree training tasks (docs/tree-service.md "Training tasks and data parallelism"): one
// row per task, its training log (bounded: the job keeps the last lines only,
// app/.server/treeTasks.server.ts) and its images (PNG files under var/tasks/<id>/, each written
// before the row that names it). A task's log and images go with the task, and a user's tasks with
// the user.
export const up: MigrationFn = async ({ context: qi }) => {
  await qi.createTable("tree_tasks", {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    user_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: "users", key: "id" }, onDelete: "CASCADE" },
    // "ProtPTree" | "SeBoW" (the form's category names, docs/product.md "Training tasks"; tree.proto TreeAlgorithm.id)
    category: { type: DataTypes.STRING(16), allowNull: false },
    // the model name the finished tree is listed under (tree id "user:<owner>:<name>")
    name: { type: DataTypes.STRING(64), allowNull: false },
    // JSON list of dataset ids (a task record lists datasets; the form picks one)
    datasets_json: { type: DataTypes.STRING(1000), allowNull: false },
    depth: { type: DataTypes.INTEGER, allowNull: false },
    iterations: { type: DataTypes.INTEGER, allowNull: false },
    proto_dim: { type: DataTypes.INTEGER, allowNull: false },
    remarks: { type: DataTypes.STRING(500), allowNull: false, defaultValue: "" },
    ddp_training: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    ddp_num: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 },
    // the advanced options by name, as text (TrainRequest.args)
    args_json: { type: DataTypes.TEXT, allowNull: false },
    // queued | running | completed | failed | cancelled
    state: { type: DataTypes.STRING(16), allowNull: false, defaultValue: "queued" },
    // 0..1 as the sidecar reports it
    progress: { type: DataTypes.DOUBLE, allowNull: false, defaultValue: 0 },
    error: { type: DataTypes.TEXT, allowNull: true },
    job_id: { type: DataTypes.STRING(64), allowNull: true },
    attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    // how often an app restart interrupted it (each time it trains again from the beginning)
    restarts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    sidecar: { type: DataTypes.STRING(255), allowNull: true },
    tree_id: { type: DataTypes.STRING(200), allowNull: true },
    // bounded JSON: the per-iteration scalars, the five stages, the TrainDone figures
    scalars_json: { type: DataTypes.TEXT("medium"), allowNull: true },
    stages_json: { type: DataTypes.TEXT, allowNull: true },
    result_json: { type: DataTypes.TEXT, allowNull: true },
    started_at: { type: DataTypes.DATE, allowNull: true },
    completed_at: { type: DataTypes.DATE, allowNull: true },
    created_at: { type: DataTypes.DATE, allowNull: false },
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex("tree_tasks", ["user_id", "started_at"]);
  await qi.addIndex("tree_tasks", ["state"]);
  await qi.createTable("tree_task_logs", {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    task_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: "tree_tasks", key: "id" }, onDelete: "CASCADE" },
    line: { type: DataTypes.STRING(1000), allowNull: false },
    logged_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex("tree_task_logs", ["task_id", "id"]);
  await qi.createTable("tree_task_images", {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    task_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: "tree_tasks", key: "id" }, onDelete: "CASCADE" },
    // "prototype-3", "sample-12", ... (TrainImage.name)
    name: { type: DataTypes.STRING(100), allowNull: false },
    iteration: { type: DataTypes.INTEGER, allowNull: false },
    caption: { type: DataTypes.STRING(300), allowNull: false, defaultValue: "" },
    // a file name under var/tasks/<task id>/
    file: { type: DataTypes.STRING(100), allowNull: false },
    bytes: { type: DataTypes.INTEGER, allowNull: false },
    created_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex("tree_task_images", ["task_id", "name", "iteration"], { unique: true });
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.dropTable("tree_task_images");
  await qi.dropTable("tree_task_logs");
  await qi.dropTable("tree_tasks");
};
