import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

// Evaluation runs started from the web app (admin /admin/evaluations): one row per run,
// written by the queue job as it goes. Result files live under var/evaluations/<result_dir>/;
// the row points at them only after they are written.
export const up: MigrationFn = async ({ context: qi }) => {
  await qi.createTable("evaluation_runs", {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    user_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: "users", key: "id" }, onDelete: "CASCADE" },
    suite_id: { type: DataTypes.STRING(100), allowNull: false },
    method: { type: DataTypes.STRING(100), allowNull: false },
    // As the admin typed it ("" = the suite's baseline parameters); params_used_json is what ran.
    params_json: { type: DataTypes.TEXT, allowNull: false },
    image_limit: { type: DataTypes.INTEGER, allowNull: false },
    // queued | running | completed | failed | cancelled
    state: { type: DataTypes.STRING(16), allowNull: false, defaultValue: "queued" },
    progress: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    images_done: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    images_total: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    eta_seconds: { type: DataTypes.DOUBLE, allowNull: true },
    current_task: { type: DataTypes.STRING(100), allowNull: true },
    job_id: { type: DataTypes.STRING(64), allowNull: true },
    attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    error: { type: DataTypes.TEXT, allowNull: true },
    sidecar: { type: DataTypes.STRING(255), allowNull: true },
    result_dir: { type: DataTypes.STRING(100), allowNull: true },
    tasks_json: { type: DataTypes.TEXT, allowNull: true },
    localisation_json: { type: DataTypes.TEXT, allowNull: true },
    params_used_json: { type: DataTypes.TEXT, allowNull: true },
    backend: { type: DataTypes.STRING(32), allowNull: true },
    seconds: { type: DataTypes.DOUBLE, allowNull: true },
    metascore: { type: DataTypes.DOUBLE, allowNull: true },
    metascore_rank: { type: DataTypes.INTEGER, allowNull: true },
    board_size: { type: DataTypes.INTEGER, allowNull: true },
    metascore_note: { type: DataTypes.TEXT, allowNull: true },
    started_at: { type: DataTypes.DATE, allowNull: true },
    finished_at: { type: DataTypes.DATE, allowNull: true },
    created_at: { type: DataTypes.DATE, allowNull: false },
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });
  // The page asks "is any run active?" on every refresh.
  await qi.addIndex("evaluation_runs", ["state"]);
  await qi.addIndex("evaluation_runs", ["user_id"]);
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.dropTable("evaluation_runs");
};
