import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

// Which onnxruntime execution provider a compute server runs its networks on (cpu, cuda,
// tensorrt, webgpu; docs/engine.md), as its heartbeat reports it; null until a sidecar that
// reports it has beaten.
export const up: MigrationFn = async ({ context: qi }) => {
  await qi.addColumn("servers", "execution_provider", { type: DataTypes.STRING(64), allowNull: true });
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.removeColumn("servers", "execution_provider");
};
