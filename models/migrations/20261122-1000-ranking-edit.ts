import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

// The contributor ranking's edit mode (a selected flag per entry): an administrator selects board
// entries, hides them from the public board or restores them, and exports the selection as CSV.
// `selected` is that flag, `hidden` keeps an entry off the public board (its fused κ stays: the
// others' scores do not change); every action is a row of ranking_audits, which outlives the
// entries and the admin it names.
export const up: MigrationFn = async ({ context: qi }) => {
  await qi.addColumn("board_methods", "selected", { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false });
  await qi.addColumn("board_methods", "hidden", { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false });
  await qi.createTable("ranking_audits", {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    user_id: { type: DataTypes.INTEGER, allowNull: true, references: { model: "users", key: "id" }, onDelete: "SET NULL" },
    // The admin's name when it happened (a later rename or deletion does not rewrite history).
    username: { type: DataTypes.STRING(200), allowNull: false },
    // select | unselect | select-all | clear | hide | restore | export
    action: { type: DataTypes.STRING(16), allowNull: false },
    suite_id: { type: DataTypes.STRING(100), allowNull: false },
    // JSON: [{ id, contributor, algorithm }] of the entries the action touched.
    entries_json: { type: DataTypes.TEXT, allowNull: false },
    created_at: { type: DataTypes.DATE, allowNull: false },
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex("ranking_audits", ["suite_id", "created_at"]);
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.dropTable("ranking_audits");
  await qi.removeColumn("board_methods", "hidden");
  await qi.removeColumn("board_methods", "selected");
};
