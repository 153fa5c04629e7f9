import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes } from "sequelize";
import { sequelize } from "./db.ts";

/**
 * One finished TCAV request of the /tcav page (docs/concepts.md), keyed by its parameters
 * (model, image, concepts, layers), so a repeat is served at once. The result is the sidecar's
 * reply as JSON (scores, p-values, the input image as a data URL); it holds nothing personal.
 */
export class ConceptResult extends Model<InferAttributes<ConceptResult>, InferCreationAttributes<ConceptResult>> {
  declare id: CreationOptional<number>;
  declare paramsKey: string;
  declare modelId: string;
  declare imageIndex: number;
  declare concepts: string;
  declare resultJson: string;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

ConceptResult.init(
  {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    paramsKey: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    modelId: { type: DataTypes.STRING(100), allowNull: false },
    imageIndex: { type: DataTypes.INTEGER, allowNull: false },
    concepts: { type: DataTypes.STRING(400), allowNull: false },
    resultJson: { type: DataTypes.TEXT("medium"), allowNull: false },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "concept_results" },
);
