import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type NonAttribute } from "sequelize";
import { sequelize } from "./db.ts";

export const RANKING_ACTIONS = ["select", "unselect", "select-all", "clear", "hide", "restore", "export"] as const;
export type RankingAction = (typeof RANKING_ACTIONS)[number];

/** A board entry as an audit row names it (its own row may be gone later). */
export interface AuditedEntry {
  id: number;
  contributor: string;
  algorithm: string;
}

/** One action of the contributor ranking's edit mode: who, what, on which entries, when. */
export class RankingAudit extends Model<InferAttributes<RankingAudit>, InferCreationAttributes<RankingAudit>> {
  declare id: CreationOptional<number>;
  declare userId: number | null;
  declare username: string;
  declare action: RankingAction;
  declare suiteId: string;
  declare entriesJson: string;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  get entries(): NonAttribute<AuditedEntry[]> {
    return JSON.parse(this.entriesJson) as AuditedEntry[];
  }
}

RankingAudit.init(
  {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    userId: { type: DataTypes.INTEGER, allowNull: true },
    username: { type: DataTypes.STRING(200), allowNull: false },
    action: { type: DataTypes.STRING(16), allowNull: false },
    suiteId: { type: DataTypes.STRING(100), allowNull: false },
    entriesJson: { type: DataTypes.TEXT, allowNull: false },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "ranking_audits" },
);
