import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

// Where a suite has ground-truth object masks, a baseline also reports the share of its
// positive attribution mass inside the object, per task (seeds/suites/<id>/<method>/localisation.json).
export const up: MigrationFn = async ({ context: qi }) => {
  await qi.addColumn("board_methods", "localisation_json", { type: DataTypes.TEXT, allowNull: true });
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.removeColumn("board_methods", "localisation_json");
};
