import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type NonAttribute } from "sequelize";
import { sequelize } from "./db.ts";

/** A benchmark (seeds/suites/<id>/suite.json): tasks and evaluation settings. */
export class Suite extends Model<InferAttributes<Suite>, InferCreationAttributes<Suite>> {
  declare id: string;
  declare name: string;
  declare description: string;
  declare tasksJson: string;
  declare gridJson: string;
  declare fillerJson: string;
  declare patchSize: number;
  declare isDefault: CreationOptional<boolean>;
  declare position: CreationOptional<number>;
  /** False: only results the platform computed itself (verified) may be submitted (docs/evaluation.md "Evaluating your own method"). */
  declare acceptsSelfReported: CreationOptional<boolean>;
  /** Images per task of the evaluation split (suite.json evaluation.images): how many maps a task needs; null when the suite has no evaluation block. */
  declare splitImages: CreationOptional<number | null>;
  /** Task → the network that defines it (seeds/importSuite.ts taskModels), JSON; null when unknown. */
  declare taskModelsJson: CreationOptional<string | null>;
  /** Language → { name?, description? } (suite.json "translations"), JSON; null when it has none. */
  declare translationsJson: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  get tasks(): NonAttribute<string[]> {
    return JSON.parse(this.tasksJson) as string[];
  }
  get grid(): NonAttribute<number[]> {
    return JSON.parse(this.gridJson) as number[];
  }
}

Suite.init(
  {
    id: { type: DataTypes.STRING(100), primaryKey: true },
    name: { type: DataTypes.STRING(255), allowNull: false },
    description: { type: DataTypes.TEXT, allowNull: false },
    tasksJson: { type: DataTypes.TEXT, allowNull: false },
    gridJson: { type: DataTypes.TEXT, allowNull: false },
    fillerJson: { type: DataTypes.TEXT, allowNull: false },
    patchSize: { type: DataTypes.INTEGER, allowNull: false },
    isDefault: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    position: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    acceptsSelfReported: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
    splitImages: { type: DataTypes.INTEGER, allowNull: true },
    taskModelsJson: { type: DataTypes.TEXT, allowNull: true },
    translationsJson: { type: DataTypes.TEXT, allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "suites" },
);
