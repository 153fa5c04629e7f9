import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

// Failure counters of the throttles (app/.server/throttle.server.ts), kept by rate-limiter-flexible
// in the app's own database with its table layout (key, points consumed, expiry in ms since the
// epoch), updated atomically by the library. Replaces the read-modify-write login_throttles.
export const up: MigrationFn = async ({ context: qi }) => {
  await qi.createTable("rate_limits", {
    key: { type: DataTypes.STRING(255), primaryKey: true, allowNull: false },
    points: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    expire: { type: DataTypes.BIGINT, allowNull: true },
  });
  await qi.dropTable("login_throttles");
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.dropTable("rate_limits");
  await qi.createTable("login_throttles", {
    key: { type: DataTypes.STRING(255), primaryKey: true },
    failures: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    window_start: { type: DataTypes.DATE, allowNull: false },
    locked_until: { type: DataTypes.DATE, allowNull: true },
  });
};
