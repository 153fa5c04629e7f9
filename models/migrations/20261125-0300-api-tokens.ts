import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

// Personal API tokens (docs/api.md "Tokens"): the SHA-256 of each secret, unique, so a bearer token
// is found by one indexed look-up; a user's tokens go with the user.
export const up: MigrationFn = async ({ context: qi }) => {
  await qi.createTable("api_tokens", {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    user_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: "users", key: "id" }, onDelete: "CASCADE" },
    name: { type: DataTypes.STRING(100), allowNull: false },
    token_hash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    prefix: { type: DataTypes.STRING(16), allowNull: false },
    last_used_at: { type: DataTypes.DATE, allowNull: true },
    created_at: { type: DataTypes.DATE, allowNull: false },
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex("api_tokens", ["user_id"]);
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.dropTable("api_tokens");
};
