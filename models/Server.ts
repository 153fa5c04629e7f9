import { DataTypes, Model, type NonAttribute, type CreationOptional, type InferAttributes, type InferCreationAttributes } from "sequelize";
import { sequelize } from "./db.ts";

/** A GPU process as the sidecar last reported it (processes_info, colour derived in the view). */
export interface ServerProcess {
  pid: number;
  name: string;
  memoryMiB: number | null;
  gpuIndex: number;
}

/**
 * A compute server entry. An admin creates it with a name and a password; the sidecar started with
 * those credentials heartbeats, which fills in where it can be reached and how busy it is.
 * `lastLogin` is the last accepted heartbeat: the server is online while it is recent (see
 * servers.server.ts), so "online" is never stored.
 */
export class Server extends Model<InferAttributes<Server>, InferCreationAttributes<Server>> {
  declare id: CreationOptional<number>;
  declare username: string;
  declare passwordHash: string;
  declare grpcAddress: CreationOptional<string | null>;
  /** The key its sidecar expects on every gRPC call; from its latest heartbeat. Never shown. */
  declare callKey: CreationOptional<string | null>;
  declare gpuIndex: CreationOptional<number | null>;
  declare freeCompute: CreationOptional<number | null>;
  declare totalMemoryMiB: CreationOptional<number | null>;
  declare driverVersion: CreationOptional<string | null>;
  declare cudaVersion: CreationOptional<string | null>;
  /** The onnxruntime execution provider the sidecar serves with (cpu, cuda, tensorrt, webgpu). */
  declare executionProvider: CreationOptional<string | null>;
  declare processesJson: CreationOptional<string>;
  declare lastLogin: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  get processes(): NonAttribute<ServerProcess[]> {
    try {
      const list = JSON.parse(this.processesJson || "[]");
      return Array.isArray(list) ? list : [];
    } catch {
      return [];
    }
  }
}

Server.init(
  {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    username: { type: DataTypes.STRING(200), allowNull: false, unique: true },
    passwordHash: { type: DataTypes.STRING(255), allowNull: false },
    grpcAddress: { type: DataTypes.STRING(255), allowNull: true },
    callKey: { type: DataTypes.STRING(256), allowNull: true, field: "call_key" },
    gpuIndex: { type: DataTypes.INTEGER, allowNull: true },
    freeCompute: { type: DataTypes.DOUBLE, allowNull: true },
    totalMemoryMiB: { type: DataTypes.BIGINT, allowNull: true, field: "total_memory_mib" },
    driverVersion: { type: DataTypes.STRING(64), allowNull: true },
    cudaVersion: { type: DataTypes.STRING(64), allowNull: true },
    executionProvider: { type: DataTypes.STRING(64), allowNull: true },
    processesJson: { type: DataTypes.TEXT, allowNull: false, defaultValue: "[]", field: "processes_json" },
    lastLogin: { type: DataTypes.DATE, allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "servers" },
);
