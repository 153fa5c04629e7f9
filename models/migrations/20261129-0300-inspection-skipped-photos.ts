import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

// Crack detection's photos that a run could not detect (a damaged file, a format the detector
// cannot read, more pixels than it scales down): one row per photo with the reason, a message ref
// of the `inspection` namespace, so the run's page says per photo why in the visitor's language
// (docs/crack-detection.md "Runs, results and getResults"). The (run, picture) pair is unique, as
// for detections, so a run continued after an interruption neither repeats nor loses a photo.
export const up: MigrationFn = async ({ context: qi }) => {
  await qi.createTable("inspection_skipped_photos", {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    run_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: "inspection_runs", key: "id" }, onDelete: "CASCADE" },
    picture_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: "pictures", key: "id" }, onDelete: "CASCADE" },
    // 1-based position of the photo in its run, as crack_detections.position
    position: { type: DataTypes.INTEGER, allowNull: false },
    // a message ref ("inspection:skipped.unreadable", optionally "|" and its values as JSON)
    reason: { type: DataTypes.STRING(500), allowNull: false },
    skipped_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex("inspection_skipped_photos", ["run_id", "picture_id"], { unique: true });
  await qi.addIndex("inspection_skipped_photos", ["run_id", "position"]);
  await qi.addColumn("inspection_runs", "photos_skipped", { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 });
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.removeColumn("inspection_runs", "photos_skipped");
  await qi.dropTable("inspection_skipped_photos");
};
