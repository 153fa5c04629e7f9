import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes } from "sequelize";
import { sequelize } from "./db.ts";

/**
 * One answered and explained question of the /UserQuery page (docs/vqa.md), keyed by its parameters
 * (picture, model, algorithm, question), so a repeat or a reload of the result URL is served from here.
 * The picture's id is kept so a result is shown only to viewers who may see the picture.
 */
export class VqaResult extends Model<InferAttributes<VqaResult>, InferCreationAttributes<VqaResult>> {
  declare id: CreationOptional<number>;
  declare paramsKey: string;
  declare pictureId: number;
  declare modelId: string;
  declare algorithm: string;
  declare question: string;
  declare resultJson: string;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

VqaResult.init(
  {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    paramsKey: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    pictureId: { type: DataTypes.INTEGER, allowNull: false },
    modelId: { type: DataTypes.STRING(100), allowNull: false },
    algorithm: { type: DataTypes.STRING(64), allowNull: false },
    question: { type: DataTypes.STRING(200), allowNull: false },
    resultJson: { type: DataTypes.TEXT("medium"), allowNull: false },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "vqa_results", indexes: [{ fields: ["picture_id"] }] },
);
