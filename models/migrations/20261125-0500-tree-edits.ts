import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

// Pending tree edits (models/TreeEdit.ts): one row per (user, tree, node), so a second edit of a
// node replaces the first; a user's edits go with the user. tree_id is bounded at 300 characters
// ("user:" + a 200-character user name + ":" + a 64-character model name fits); the unique index
// spans 300 + 64 utf8mb4 characters, inside MariaDB's 3072-byte key limit.
export const up: MigrationFn = async ({ context: qi }) => {
  await qi.createTable("tree_edits", {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    user_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: "users", key: "id" }, onDelete: "CASCADE" },
    tree_id: { type: DataTypes.STRING(300), allowNull: false },
    node_id: { type: DataTypes.STRING(64), allowNull: false },
    candidate_id: { type: DataTypes.STRING(128), allowNull: false, defaultValue: "" },
    favour_class: { type: DataTypes.INTEGER, allowNull: false, defaultValue: -1 },
    created_at: { type: DataTypes.DATE, allowNull: false },
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex("tree_edits", ["user_id", "tree_id", "node_id"], { unique: true, name: "tree_edits_user_tree_node" });
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.dropTable("tree_edits");
};
