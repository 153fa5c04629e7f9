import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

// The reason an administrator gives with a rejection, shown to the submitter in their history
// (app/.server/submissions.server.ts decideSubmission). Null for approvals, for rejections
// without a reason and for rows decided before this column.
export const up: MigrationFn = async ({ context: qi }) => {
  await qi.addColumn("submissions", "decision_note", { type: DataTypes.TEXT, allowNull: true });
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.removeColumn("submissions", "decision_note");
};
