import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes } from "sequelize";
import { sequelize } from "./db.ts";

/** A server-side captcha answer: single use, expiring. The browser only ever sees the id and the picture. */
export class Captcha extends Model<InferAttributes<Captcha>, InferCreationAttributes<Captcha>> {
  declare id: string;
  declare answer: string;
  declare expiresAt: Date;
  declare createdAt: CreationOptional<Date>;
}

Captcha.init(
  {
    id: { type: DataTypes.STRING(64), primaryKey: true },
    answer: { type: DataTypes.STRING(16), allowNull: false },
    expiresAt: { type: DataTypes.DATE, allowNull: false },
    createdAt: DataTypes.DATE,
  },
  { sequelize, tableName: "captchas", updatedAt: false },
);
