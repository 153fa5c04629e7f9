import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

// The accuracy curves behind a board method's case scores (the leaderboard shows each method's MoRF
// and LeRF curves per task). JSON { morf: { task: [acc at each grid point] }, lerf: {...} }; null
// for rows written before this column, filled on first read from the submission's files
// (app/.server/curves.server.ts) or by re-seeding for baselines.
export const up: MigrationFn = async ({ context: qi }) => {
  const long = qi.sequelize.getDialect() === "sqlite" ? DataTypes.TEXT : DataTypes.TEXT("medium");
  await qi.addColumn("board_methods", "curves_json", { type: long, allowNull: true });
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.removeColumn("board_methods", "curves_json");
};
