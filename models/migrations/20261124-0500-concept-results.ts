import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

// TCAV results of the /tcav page (docs/concepts.md "Service and caching"), one row per parameter set.
export const up: MigrationFn = async ({ context: qi }) => {
  await qi.createTable("concept_results", {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    // sha256 of the model, image, sorted concepts and layers
    params_key: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    model_id: { type: DataTypes.STRING(100), allowNull: false },
    image_index: { type: DataTypes.INTEGER, allowNull: false },
    concepts: { type: DataTypes.STRING(400), allowNull: false },
    result_json: { type: DataTypes.TEXT("medium"), allowNull: false },
    created_at: { type: DataTypes.DATE, allowNull: false },
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.dropTable("concept_results");
};
