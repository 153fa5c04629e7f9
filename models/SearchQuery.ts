import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes } from "sequelize";
import { sequelize } from "./db.ts";

/** Totals of one normalised dataset-search keyword (app/.server/searchAnalytics.server.ts); no personal data. */
export class SearchQuery extends Model<InferAttributes<SearchQuery>, InferCreationAttributes<SearchQuery>> {
  declare id: CreationOptional<number>;
  declare keyword: string;
  declare impressions: CreationOptional<number>;
  declare clicks: CreationOptional<number>;
  declare rankSum: CreationOptional<number>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

SearchQuery.init(
  {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    keyword: { type: DataTypes.STRING(100), allowNull: false, unique: true },
    impressions: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    clicks: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    rankSum: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "search_queries" },
);
