import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

// Where a submission's result files came from (docs/evaluation.md "Evaluating your own method").
// "verified": the platform computed them from the researcher's attribution maps (an EvaluationRun
// of kind "maps"); "self-reported": CSV files uploaded as they are (the original flow). A suite may
// refuse self-reported results.
export const up: MigrationFn = async ({ context: qi }) => {
  await qi.addColumn("suites", "accepts_self_reported", { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true });
  // The evaluation split's size (suite.json evaluation.images): how many maps a task needs.
  await qi.addColumn("suites", "split_images", { type: DataTypes.INTEGER, allowNull: true });
  await qi.addColumn("submissions", "provenance", { type: DataTypes.STRING(16), allowNull: false, defaultValue: "self-reported" });
  await qi.addColumn("submissions", "evaluation_run_id", { type: DataTypes.INTEGER, allowNull: true });
  // Set while the draft's two files are the result files of that run (cleared by any CSV upload).
  // Copied from the submission when it joins the board; null for the platform's baselines.
  await qi.addColumn("board_methods", "provenance", { type: DataTypes.STRING(16), allowNull: true });
  await qi.addColumn("submission_drafts", "evaluation_run_id", { type: DataTypes.INTEGER, allowNull: true });
  // A maps run carries the researcher's method name (submission names go to 200 characters);
  // SQLite does not enforce VARCHAR lengths, and its changeColumn rebuilds the table.
  if (qi.sequelize.getDialect() !== "sqlite") await qi.changeColumn("evaluation_runs", "method", { type: DataTypes.STRING(200), allowNull: false });
  await qi.addColumn("evaluation_runs", "kind", { type: DataTypes.STRING(16), allowNull: false, defaultValue: "method" });
  // The uploaded maps zip (a name under var/uploads/maps), kept until the run has finished.
  await qi.addColumn("evaluation_runs", "maps_file", { type: DataTypes.STRING(100), allowNull: true });
  await qi.addColumn("evaluation_runs", "maps_name", { type: DataTypes.STRING(255), allowNull: true });
  await qi.addIndex("evaluation_runs", ["user_id", "kind", "state"]);
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.removeIndex("evaluation_runs", ["user_id", "kind", "state"]);
  for (const c of ["maps_name", "maps_file", "kind"]) await qi.removeColumn("evaluation_runs", c);
  await qi.removeColumn("submission_drafts", "evaluation_run_id");
  await qi.removeColumn("board_methods", "provenance");
  await qi.removeColumn("submissions", "evaluation_run_id");
  await qi.removeColumn("submissions", "provenance");
  await qi.removeColumn("suites", "split_images");
  await qi.removeColumn("suites", "accepts_self_reported");
};
