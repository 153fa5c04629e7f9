import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

// Crack-detection runs (/twodresult, docs/crack-detection.md): one row per run over a dataset, one
// row per photo detected. A detection row is written only after its mask file is on disk, and the
// unique (run, picture) pair lets an interrupted run continue where it stopped.
export const up: MigrationFn = async ({ context: qi }) => {
  await qi.createTable("inspection_runs", {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    // null = a run the platform started itself (over its generated inspection photos)
    user_id: { type: DataTypes.INTEGER, allowNull: true, references: { model: "users", key: "id" }, onDelete: "CASCADE" },
    dataset_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: "datasets", key: "id" }, onDelete: "CASCADE" },
    // The detector as the sidecar named it (POST /algorithm/getResults looks runs up by it).
    model_name: { type: DataTypes.STRING(100), allowNull: false },
    mm_per_pixel: { type: DataTypes.DOUBLE, allowNull: false },
    // queued | running | completed | failed | cancelled
    state: { type: DataTypes.STRING(16), allowNull: false, defaultValue: "queued" },
    photos_total: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    photos_done: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    cracks_found: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    job_id: { type: DataTypes.STRING(64), allowNull: true },
    error: { type: DataTypes.TEXT, allowNull: true },
    started_at: { type: DataTypes.DATE, allowNull: true },
    finished_at: { type: DataTypes.DATE, allowNull: true },
    created_at: { type: DataTypes.DATE, allowNull: false },
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex("inspection_runs", ["model_name"]);
  await qi.addIndex("inspection_runs", ["dataset_id"]);
  await qi.createTable("crack_detections", {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    run_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: "inspection_runs", key: "id" }, onDelete: "CASCADE" },
    picture_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: "pictures", key: "id" }, onDelete: "CASCADE" },
    // 1-based position of the photo in its run (the result rows' "index", docs/product.md "Crack detection and the dam viewer")
    position: { type: DataTypes.INTEGER, allowNull: false },
    format: { type: DataTypes.STRING(8), allowNull: false },
    width: { type: DataTypes.INTEGER, allowNull: false },
    height: { type: DataTypes.INTEGER, allowNull: false },
    file_size: { type: DataTypes.INTEGER, allowNull: false },
    is_crack: { type: DataTypes.BOOLEAN, allowNull: false },
    length_mm: { type: DataTypes.DOUBLE, allowNull: false },
    max_width_mm: { type: DataTypes.DOUBLE, allowNull: false },
    mean_width_mm: { type: DataTypes.DOUBLE, allowNull: false },
    pieces: { type: DataTypes.INTEGER, allowNull: false },
    mask_path: { type: DataTypes.STRING(255), allowNull: false },
    elapsed_ms: { type: DataTypes.DOUBLE, allowNull: false },
    detected_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex("crack_detections", ["run_id", "picture_id"], { unique: true });
  await qi.addIndex("crack_detections", ["run_id", "position"]);
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.dropTable("crack_detections");
  await qi.dropTable("inspection_runs");
};
