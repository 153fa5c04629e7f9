import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes } from "sequelize";
import { sequelize } from "./db.ts";

/** One finished explanation, keyed by (picture, model, algorithm, parameters), so a repeat is served at once. */
export class InferenceCache extends Model<InferAttributes<InferenceCache>, InferCreationAttributes<InferenceCache>> {
  declare id: CreationOptional<number>;
  declare pictureId: number;
  declare modelId: string;
  declare algorithm: string;
  declare paramsKey: string;
  declare paramsJson: string;
  declare predictedClass: string;
  declare predictedIndex: number;
  declare probability: number;
  declare heatmapPath: string;
  declare overlayPath: string;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

InferenceCache.init(
  {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    pictureId: { type: DataTypes.INTEGER, allowNull: false },
    modelId: { type: DataTypes.STRING(100), allowNull: false },
    algorithm: { type: DataTypes.STRING(64), allowNull: false },
    paramsKey: { type: DataTypes.STRING(64), allowNull: false },
    paramsJson: { type: DataTypes.TEXT, allowNull: false },
    predictedClass: { type: DataTypes.STRING(100), allowNull: false },
    predictedIndex: { type: DataTypes.INTEGER, allowNull: false },
    probability: { type: DataTypes.DOUBLE, allowNull: false },
    heatmapPath: { type: DataTypes.STRING(255), allowNull: false },
    overlayPath: { type: DataTypes.STRING(255), allowNull: false },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "inference_cache" },
);
