import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type NonAttribute } from "sequelize";
import { sequelize } from "./db.ts";
import type { Provenance } from "../lib/provenance.ts";

// MEDIUMTEXT on MariaDB (TEXT stops at 64 KB); SQLite has one TEXT and warns about sizes.
const LONG_TEXT = sequelize.getDialect() === "sqlite" ? DataTypes.TEXT : DataTypes.TEXT("medium");

/** One case score row as the Metascore service speaks it: areas per task and protocol. */
export interface TaskScore {
  task: string;
  morf: number;
  lerf: number;
}

/**
 * A method on a suite's board: a baseline (sourceKey = its folder) or an approved submission. κ is
 * stored at full precision; every insertion rewrites all of a suite's κ (docs/metascore.md "History
 * fusion").
 */
export class BoardMethod extends Model<InferAttributes<BoardMethod>, InferCreationAttributes<BoardMethod>> {
  declare id: CreationOptional<number>;
  declare suiteId: string;
  declare sourceKey: string | null;
  declare submissionId: number | null;
  declare contributor: string;
  declare institute: string;
  declare algorithm: string;
  declare scoresJson: string;
  declare metascore: number;
  declare morfMetascore: number;
  declare lerfMetascore: number;
  /** Task → share of positive attribution mass inside the object mask; null without ground truth. */
  declare localisationJson: CreationOptional<string | null>;
  /** { morf: { task: accuracy per grid point }, lerf: {...} } (the leaderboard's curves); null until known. */
  declare curvesJson: CreationOptional<string | null>;
  /** The contributor ranking's edit mode: selected by an administrator. */
  declare selected: CreationOptional<boolean>;
  /** Kept off the public board (leaderboard, tutorial sample); its κ stays fused with the others'. */
  declare hidden: CreationOptional<boolean>;
  /** An approved submission's provenance ("verified" | "self-reported"); null for a baseline. */
  declare provenance: CreationOptional<Provenance | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  get scores(): NonAttribute<TaskScore[]> {
    return JSON.parse(this.scoresJson) as TaskScore[];
  }

  /** Mean localisation over the tasks that have one, or null. */
  get meanLocalisation(): NonAttribute<number | null> {
    if (!this.localisationJson) return null;
    // A task whose maps had no positive mass has no share (null): left out of the mean.
    const values = Object.values(JSON.parse(this.localisationJson) as Record<string, number | null>).filter((v): v is number => typeof v === "number");
    return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
  }
}

BoardMethod.init(
  {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    suiteId: { type: DataTypes.STRING(100), allowNull: false },
    sourceKey: { type: DataTypes.STRING(200), allowNull: true },
    submissionId: { type: DataTypes.INTEGER, allowNull: true },
    contributor: { type: DataTypes.STRING(200), allowNull: false },
    institute: { type: DataTypes.STRING(255), allowNull: false },
    algorithm: { type: DataTypes.STRING(200), allowNull: false },
    scoresJson: { type: LONG_TEXT, allowNull: false },
    metascore: { type: DataTypes.DOUBLE, allowNull: false },
    morfMetascore: { type: DataTypes.DOUBLE, allowNull: false },
    lerfMetascore: { type: DataTypes.DOUBLE, allowNull: false },
    localisationJson: { type: DataTypes.TEXT, allowNull: true },
    curvesJson: { type: LONG_TEXT, allowNull: true },
    selected: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    hidden: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    provenance: { type: DataTypes.STRING(16), allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "board_methods" },
);
