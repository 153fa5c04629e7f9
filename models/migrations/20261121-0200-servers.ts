import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

// Compute server entries (models/Server.ts): created by admins, filled in by heartbeats.
export const up: MigrationFn = async ({ context: qi }) => {
  await qi.createTable("servers", {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    username: { type: DataTypes.STRING(200), allowNull: false, unique: true },
    password_hash: { type: DataTypes.STRING(255), allowNull: false },
    grpc_address: { type: DataTypes.STRING(255), allowNull: true },
    gpu_index: { type: DataTypes.INTEGER, allowNull: true },
    free_compute: { type: DataTypes.DOUBLE, allowNull: true },
    total_memory_mib: { type: DataTypes.BIGINT, allowNull: true },
    driver_version: { type: DataTypes.STRING(64), allowNull: true },
    cuda_version: { type: DataTypes.STRING(64), allowNull: true },
    // TEXT cannot have a default on MySQL; the model always writes it.
    processes_json: { type: DataTypes.TEXT, allowNull: false },
    last_login: { type: DataTypes.DATE, allowNull: true },
    created_at: { type: DataTypes.DATE, allowNull: false },
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });
  // The sidecar chooser asks for recent heartbeats on every call.
  await qi.addIndex("servers", ["last_login"]);
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.dropTable("servers");
};
