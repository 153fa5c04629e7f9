import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

const ts = {
  createdAt: { type: DataTypes.DATE, allowNull: false, field: "created_at" },
  updatedAt: { type: DataTypes.DATE, allowNull: false, field: "updated_at" },
};

export const up: MigrationFn = async ({ context: qi }) => {
  await qi.createTable("users", {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    username: { type: DataTypes.STRING(200), allowNull: false, unique: true },
    password_hash: { type: DataTypes.STRING(255), allowNull: false },
    telephone: { type: DataTypes.STRING(11), allowNull: false },
    institute: { type: DataTypes.STRING(255), allowNull: false, defaultValue: "" },
    authority: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    created_at: ts.createdAt,
    updated_at: ts.updatedAt,
  });
  await qi.createTable("sessions", {
    id: { type: DataTypes.STRING(64), primaryKey: true },
    user_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: "users", key: "id" }, onDelete: "CASCADE" },
    expires_at: { type: DataTypes.DATE, allowNull: false },
    ip: { type: DataTypes.STRING(64), allowNull: true },
    user_agent: { type: DataTypes.STRING(255), allowNull: true },
    created_at: ts.createdAt,
    updated_at: ts.updatedAt,
  });
  await qi.addIndex("sessions", ["user_id"]);
  await qi.createTable("captchas", {
    id: { type: DataTypes.STRING(64), primaryKey: true },
    answer: { type: DataTypes.STRING(16), allowNull: false },
    expires_at: { type: DataTypes.DATE, allowNull: false },
    created_at: ts.createdAt,
  });
  await qi.createTable("login_throttles", {
    key: { type: DataTypes.STRING(255), primaryKey: true },
    failures: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    window_start: { type: DataTypes.DATE, allowNull: false },
    locked_until: { type: DataTypes.DATE, allowNull: true },
  });
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.dropTable("login_throttles");
  await qi.dropTable("captchas");
  await qi.dropTable("sessions");
  await qi.dropTable("users");
};
