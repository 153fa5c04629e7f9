import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

// When a personal API token stops working (docs/api.md "Tokens"): chosen by its owner when it is
// created (30, 90 or 365 days, or never). Tokens made before this column have none, which the
// tokens page shows as "never", so their owners see them and can revoke them.
export const up: MigrationFn = async ({ context: qi }) => {
  await qi.addColumn("api_tokens", "expires_at", { type: DataTypes.DATE, allowNull: true });
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.removeColumn("api_tokens", "expires_at");
};
