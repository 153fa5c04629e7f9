// Suites, their boards and the submission workflow (docs/metascore.md). Scores and suite settings
// are JSON text: they are read and written whole, never queried by content.
import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

const createdAt = { type: DataTypes.DATE, allowNull: false };
const updatedAt = { type: DataTypes.DATE, allowNull: false };

export const up: MigrationFn = async ({ context: qi }) => {
  // MEDIUMTEXT on MariaDB (TEXT stops at 64 KB); SQLite has one TEXT and warns about sizes.
  const longText = qi.sequelize.getDialect() === "sqlite" ? DataTypes.TEXT : DataTypes.TEXT("medium");
  await qi.createTable("suites", {
    id: { type: DataTypes.STRING(100), primaryKey: true },
    name: { type: DataTypes.STRING(255), allowNull: false },
    description: { type: DataTypes.TEXT, allowNull: false },
    tasks_json: { type: DataTypes.TEXT, allowNull: false },
    grid_json: { type: DataTypes.TEXT, allowNull: false },
    filler_json: { type: DataTypes.TEXT, allowNull: false },
    patch_size: { type: DataTypes.INTEGER, allowNull: false },
    is_default: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    position: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    created_at: createdAt,
    updated_at: updatedAt,
  });
  await qi.createTable("submissions", {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    user_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: "users", key: "id" }, onDelete: "CASCADE" },
    suite_id: { type: DataTypes.STRING(100), allowNull: false, references: { model: "suites", key: "id" }, onDelete: "CASCADE" },
    algorithm: { type: DataTypes.STRING(200), allowNull: false },
    status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: "In Process" },
    metascore: { type: DataTypes.DOUBLE, allowNull: false },
    ranking: { type: DataTypes.INTEGER, allowNull: false },
    scores_json: { type: longText, allowNull: false },
    morf_file: { type: DataTypes.STRING(100), allowNull: false },
    morf_name: { type: DataTypes.STRING(255), allowNull: false },
    lerf_file: { type: DataTypes.STRING(100), allowNull: false },
    lerf_name: { type: DataTypes.STRING(255), allowNull: false },
    python_file: { type: DataTypes.STRING(100), allowNull: true },
    python_name: { type: DataTypes.STRING(255), allowNull: true },
    email: { type: DataTypes.STRING(255), allowNull: false },
    info: { type: DataTypes.TEXT, allowNull: false },
    decided_by: { type: DataTypes.INTEGER, allowNull: true, references: { model: "users", key: "id" }, onDelete: "SET NULL" },
    decided_at: { type: DataTypes.DATE, allowNull: true },
    created_at: createdAt,
    updated_at: updatedAt,
  });
  await qi.addIndex("submissions", ["user_id", "created_at"]);
  await qi.addIndex("submissions", ["status"]);
  await qi.createTable("board_methods", {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    suite_id: { type: DataTypes.STRING(100), allowNull: false, references: { model: "suites", key: "id" }, onDelete: "CASCADE" },
    // Baselines: the method's folder name (so re-seeding is idempotent); submissions: null.
    source_key: { type: DataTypes.STRING(200), allowNull: true },
    submission_id: { type: DataTypes.INTEGER, allowNull: true, unique: true, references: { model: "submissions", key: "id" }, onDelete: "SET NULL" },
    contributor: { type: DataTypes.STRING(200), allowNull: false },
    institute: { type: DataTypes.STRING(255), allowNull: false },
    algorithm: { type: DataTypes.STRING(200), allowNull: false },
    scores_json: { type: longText, allowNull: false },
    metascore: { type: DataTypes.DOUBLE, allowNull: false },
    morf_metascore: { type: DataTypes.DOUBLE, allowNull: false },
    lerf_metascore: { type: DataTypes.DOUBLE, allowNull: false },
    created_at: createdAt,
    updated_at: updatedAt,
  });
  await qi.addIndex("board_methods", ["suite_id", "source_key"], { unique: true, name: "board_methods_suite_source" });
  // The scored-but-not-submitted files of a user on a suite, so the submit step needs no re-upload.
  await qi.createTable("submission_drafts", {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    user_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: "users", key: "id" }, onDelete: "CASCADE" },
    suite_id: { type: DataTypes.STRING(100), allowNull: false, references: { model: "suites", key: "id" }, onDelete: "CASCADE" },
    algorithm: { type: DataTypes.STRING(200), allowNull: false, defaultValue: "" },
    morf_file: { type: DataTypes.STRING(100), allowNull: true },
    morf_name: { type: DataTypes.STRING(255), allowNull: true },
    lerf_file: { type: DataTypes.STRING(100), allowNull: true },
    lerf_name: { type: DataTypes.STRING(255), allowNull: true },
    python_file: { type: DataTypes.STRING(100), allowNull: true },
    python_name: { type: DataTypes.STRING(255), allowNull: true },
    result_json: { type: longText, allowNull: true },
    created_at: createdAt,
    updated_at: updatedAt,
  });
  await qi.addIndex("submission_drafts", ["user_id", "suite_id"], { unique: true, name: "submission_drafts_user_suite" });
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.dropTable("submission_drafts");
  await qi.dropTable("board_methods");
  await qi.dropTable("submissions");
  await qi.dropTable("suites");
};
