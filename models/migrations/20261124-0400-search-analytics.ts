import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

// Dataset-search analytics (the admin's sortable search-queries table): one row per normalised
// keyword with counters, and nothing else. No user, address, session or time of a single search is
// stored: only totals per keyword and when the row was first and last touched.
export const up: MigrationFn = async ({ context: qi }) => {
  await qi.createTable("search_queries", {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    // trimmed, spaces collapsed, lower-cased, at most 100 characters (a dataset name's length)
    keyword: { type: DataTypes.STRING(100), allowNull: false, unique: true },
    impressions: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    clicks: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    // sum of the 1-based positions of the opened results (average rank = rank_sum / clicks)
    rank_sum: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    created_at: { type: DataTypes.DATE, allowNull: false },
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.dropTable("search_queries");
};
