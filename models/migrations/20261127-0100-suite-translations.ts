import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

// A suite's name and description in the interface's other languages (suite.json "translations":
// { "zh": { "name", "description" } }), written by the seeding step (seeds/importSuite.ts) and
// picked by the leaderboard for the visitor's language (app/.server/board.server.ts). Null for
// rows written before this column or suites without translations: the English text is shown.
export const up: MigrationFn = async ({ context: qi }) => {
  await qi.addColumn("suites", "translations_json", { type: DataTypes.TEXT, allowNull: true });
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.removeColumn("suites", "translations_json");
};
