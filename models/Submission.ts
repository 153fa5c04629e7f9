import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type NonAttribute } from "sequelize";
import { sequelize } from "./db.ts";
import type { EvaluationRun } from "./EvaluationRun.ts";
import type { User } from "./User.ts";

// MEDIUMTEXT on MariaDB (TEXT stops at 64 KB); SQLite has one TEXT and warns about sizes.
const LONG_TEXT = sequelize.getDialect() === "sqlite" ? DataTypes.TEXT : DataTypes.TEXT("medium");

import { SUBMISSION_STATUSES, SubmissionStatus } from "../lib/submissionStatus.ts";
import { PROVENANCES, type Provenance } from "../lib/provenance.ts";

export { SUBMISSION_STATUSES, SubmissionStatus, PROVENANCES, type Provenance };

/**
 * A submitted algorithm (a history record). Files live under var/uploads/ with generated names
 * (`*File`); `*Name` keeps the client's file name for downloads only.
 */
export class Submission extends Model<InferAttributes<Submission>, InferCreationAttributes<Submission>> {
  declare id: CreationOptional<number>;
  declare userId: number;
  declare suiteId: string;
  declare algorithm: string;
  declare status: CreationOptional<SubmissionStatus>;
  declare metascore: number;
  declare ranking: number;
  declare scoresJson: string;
  declare morfFile: string;
  declare morfName: string;
  declare lerfFile: string;
  declare lerfName: string;
  declare pythonFile: string | null;
  declare pythonName: string | null;
  declare email: string;
  declare info: string;
  declare decidedBy: CreationOptional<number | null>;
  declare decidedAt: CreationOptional<Date | null>;
  /** The administrator's reason for a rejection, shown to the submitter (null: none given). */
  declare decisionNote: CreationOptional<string | null>;
  /** "verified": the files are the platform's own evaluation of the submitted maps; else "self-reported". */
  declare provenance: CreationOptional<Provenance>;
  /** The maps evaluation run that computed the files (verified only). */
  declare evaluationRunId: CreationOptional<number | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
  /** Loaded only with `include: "user"` (models/index.ts); null when the account is gone. */
  declare user?: NonAttribute<User | null>;
  /** Loaded only with `include: "evaluationRun"`: the run a verified submission came from. */
  declare evaluationRun?: NonAttribute<EvaluationRun | null>;
}

Submission.init(
  {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    userId: { type: DataTypes.INTEGER, allowNull: false },
    suiteId: { type: DataTypes.STRING(100), allowNull: false },
    algorithm: { type: DataTypes.STRING(200), allowNull: false },
    status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: SubmissionStatus.inProcess },
    metascore: { type: DataTypes.DOUBLE, allowNull: false },
    ranking: { type: DataTypes.INTEGER, allowNull: false },
    scoresJson: { type: LONG_TEXT, allowNull: false },
    morfFile: { type: DataTypes.STRING(100), allowNull: false },
    morfName: { type: DataTypes.STRING(255), allowNull: false },
    lerfFile: { type: DataTypes.STRING(100), allowNull: false },
    lerfName: { type: DataTypes.STRING(255), allowNull: false },
    pythonFile: { type: DataTypes.STRING(100), allowNull: true },
    pythonName: { type: DataTypes.STRING(255), allowNull: true },
    email: { type: DataTypes.STRING(255), allowNull: false },
    info: { type: DataTypes.TEXT, allowNull: false },
    decidedBy: { type: DataTypes.INTEGER, allowNull: true },
    decidedAt: { type: DataTypes.DATE, allowNull: true },
    decisionNote: { type: DataTypes.TEXT, allowNull: true },
    provenance: { type: DataTypes.STRING(16), allowNull: false, defaultValue: "self-reported" },
    evaluationRunId: { type: DataTypes.INTEGER, allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "submissions" },
);

/** What a user has uploaded and scored on a suite but not yet submitted. */
export class SubmissionDraft extends Model<InferAttributes<SubmissionDraft>, InferCreationAttributes<SubmissionDraft>> {
  declare id: CreationOptional<number>;
  declare userId: number;
  declare suiteId: string;
  declare algorithm: CreationOptional<string>;
  declare morfFile: CreationOptional<string | null>;
  declare morfName: CreationOptional<string | null>;
  declare lerfFile: CreationOptional<string | null>;
  declare lerfName: CreationOptional<string | null>;
  declare pythonFile: CreationOptional<string | null>;
  declare pythonName: CreationOptional<string | null>;
  declare resultJson: CreationOptional<string | null>;
  /** Set while morfFile/lerfFile are that maps evaluation run's result files (any CSV upload clears it). */
  declare evaluationRunId: CreationOptional<number | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

SubmissionDraft.init(
  {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    userId: { type: DataTypes.INTEGER, allowNull: false },
    suiteId: { type: DataTypes.STRING(100), allowNull: false },
    algorithm: { type: DataTypes.STRING(200), allowNull: false, defaultValue: "" },
    morfFile: { type: DataTypes.STRING(100), allowNull: true },
    morfName: { type: DataTypes.STRING(255), allowNull: true },
    lerfFile: { type: DataTypes.STRING(100), allowNull: true },
    lerfName: { type: DataTypes.STRING(255), allowNull: true },
    pythonFile: { type: DataTypes.STRING(100), allowNull: true },
    pythonName: { type: DataTypes.STRING(255), allowNull: true },
    resultJson: { type: LONG_TEXT, allowNull: true },
    evaluationRunId: { type: DataTypes.INTEGER, allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "submission_drafts" },
);
