import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

// Which network and data each task of a suite is, so the leaderboard says which data and model
// produced what it shows: JSON { task: { checkpoint, arch, dataset, input, testAccuracy, testSize,
// … } | null }, written by the seeding step from the checkpoints' manifests (seeds/importSuite.ts),
// shown in the leaderboard's tasks table. Null for rows written before this column or suites
// without models here.
export const up: MigrationFn = async ({ context: qi }) => {
  await qi.addColumn("suites", "task_models_json", { type: DataTypes.TEXT, allowNull: true });
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.removeColumn("suites", "task_models_json");
};
