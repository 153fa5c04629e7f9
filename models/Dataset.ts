import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes } from "sequelize";
import { sequelize } from "./db.ts";

/** A picture collection: a user's own, or one the platform installed (ownerId null). */
export class Dataset extends Model<InferAttributes<Dataset>, InferCreationAttributes<Dataset>> {
  declare id: CreationOptional<number>;
  declare name: string;
  declare ownerId: number | null;
  declare isPublic: boolean;
  declare slug: CreationOptional<string | null>;
  declare dataKind: CreationOptional<string | null>;
  declare classNames: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

Dataset.init(
  {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    name: { type: DataTypes.STRING(100), allowNull: false },
    ownerId: { type: DataTypes.INTEGER, allowNull: true },
    isPublic: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    slug: { type: DataTypes.STRING(64), allowNull: true },
    dataKind: { type: DataTypes.STRING(64), allowNull: true },
    classNames: { type: DataTypes.TEXT, allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "datasets" },
);
