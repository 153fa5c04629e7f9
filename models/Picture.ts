import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type NonAttribute } from "sequelize";
import { sequelize } from "./db.ts";
import type { Dataset } from "./Dataset.ts";

/** One stored image. Paths are relative to the storage root and server-generated. */
export class Picture extends Model<InferAttributes<Picture>, InferCreationAttributes<Picture>> {
  declare id: CreationOptional<number>;
  declare datasetId: number;
  declare filePath: string;
  declare thumbPath: string;
  declare mimeType: string;
  declare size: number;
  declare width: number;
  declare height: number;
  declare displayName: CreationOptional<string>;
  /** The ground truth: for a user's dataset one of its classes (datasets.class_names), set on /labelPage (app/.server/labels.server.ts). */
  declare label: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
  /** Loaded only with `include: "dataset"` (models/index.ts). */
  declare dataset?: NonAttribute<Dataset | null>;
}

Picture.init(
  {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    datasetId: { type: DataTypes.INTEGER, allowNull: false },
    filePath: { type: DataTypes.STRING(255), allowNull: false },
    thumbPath: { type: DataTypes.STRING(255), allowNull: false },
    mimeType: { type: DataTypes.STRING(32), allowNull: false },
    size: { type: DataTypes.INTEGER, allowNull: false },
    width: { type: DataTypes.INTEGER, allowNull: false },
    height: { type: DataTypes.INTEGER, allowNull: false },
    displayName: { type: DataTypes.STRING(120), allowNull: false, defaultValue: "" },
    label: { type: DataTypes.STRING(100), allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "pictures" },
);
