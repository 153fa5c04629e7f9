import { DataTypes, Model, type InferAttributes, type InferCreationAttributes } from "sequelize";
import { sequelize } from "./db.ts";

/** Failed-login counter per key ("user:NAME" or "ip:ADDR") within a sliding window. */
export class LoginThrottle extends Model<InferAttributes<LoginThrottle>, InferCreationAttributes<LoginThrottle>> {
  declare key: string;
  declare failures: number;
  declare windowStart: Date;
  declare lockedUntil: Date | null;
}

LoginThrottle.init(
  {
    key: { type: DataTypes.STRING(255), primaryKey: true },
    failures: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    windowStart: { type: DataTypes.DATE, allowNull: false },
    lockedUntil: { type: DataTypes.DATE, allowNull: true },
  },
  { sequelize, tableName: "login_throttles", timestamps: false },
);
