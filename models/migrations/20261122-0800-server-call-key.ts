import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

// The key a registered sidecar expects on every gRPC call (sidecar/grpc/callAuth.ts). It arrives
// with each password-authenticated heartbeat and changes at every sidecar start.
export const up: MigrationFn = async ({ context: qi }) => {
  await qi.addColumn("servers", "call_key", { type: DataTypes.STRING(256), allowNull: true });
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.removeColumn("servers", "call_key");
};
