import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes } from "sequelize";
import { sequelize } from "./db.ts";

/**
 * One pending edit of a user to a tree (docs/tree-service.md "Edits"; proto/metarank/v1/tree.proto
 * TreeEdit): the Tree service is stateless about edits, so the app keeps each user's list per tree
 * and sends it with every call that should see it (app/.server/trees.server.ts). One edit per node:
 * a node's prototype replaced by a candidate (`candidateId`, favourClass −1), or a leaf moved to
 * favour a class (`favourClass` ≥ 0, candidateId ""). At most MAX_EDITS per (user, tree).
 */
export class TreeEdit extends Model<InferAttributes<TreeEdit>, InferCreationAttributes<TreeEdit>> {
  declare id: CreationOptional<number>;
  declare userId: number;
  declare treeId: string;
  declare nodeId: string;
  declare candidateId: string;
  declare favourClass: number;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

TreeEdit.init(
  {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    userId: { type: DataTypes.INTEGER, allowNull: false },
    treeId: { type: DataTypes.STRING(300), allowNull: false },
    nodeId: { type: DataTypes.STRING(64), allowNull: false },
    candidateId: { type: DataTypes.STRING(128), allowNull: false, defaultValue: "" },
    favourClass: { type: DataTypes.INTEGER, allowNull: false, defaultValue: -1 },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "tree_edits" },
);
