import { DataTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";

// Answers of the /UserQuery page (docs/vqa.md), one row per parameter set.
export const up: MigrationFn = async ({ context: qi }) => {
  await qi.createTable("vqa_results", {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    // sha256 of the picture, model, algorithm and normalised question
    params_key: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    picture_id: { type: DataTypes.INTEGER, allowNull: false },
    model_id: { type: DataTypes.STRING(100), allowNull: false },
    algorithm: { type: DataTypes.STRING(64), allowNull: false },
    question: { type: DataTypes.STRING(200), allowNull: false },
    result_json: { type: DataTypes.TEXT("medium"), allowNull: false },
    created_at: { type: DataTypes.DATE, allowNull: false },
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex("vqa_results", ["picture_id"]);
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.dropTable("vqa_results");
};
