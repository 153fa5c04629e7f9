import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type NonAttribute } from "sequelize";
import { sequelize } from "./db.ts";
import type { Picture } from "./Picture.ts";

export const INSPECTION_STATES = ["queued", "running", "completed", "failed", "cancelled"] as const;
export type InspectionState = (typeof INSPECTION_STATES)[number];

/**
 * One crack-detection run over a dataset (app/.server/inspection.server.ts). The queue job
 * detects its photos one by one through the sidecar's Inspection service and counts them here.
 */
export class InspectionRun extends Model<InferAttributes<InspectionRun>, InferCreationAttributes<InspectionRun>> {
  declare id: CreationOptional<number>;
  declare userId: number | null;
  declare datasetId: number;
  declare modelName: string;
  declare mmPerPixel: number;
  declare state: CreationOptional<InspectionState>;
  declare photosTotal: CreationOptional<number>;
  declare photosDone: CreationOptional<number>;
  declare cracksFound: CreationOptional<number>;
  /** Photos the run could not detect (InspectionSkippedPhoto rows, each with its reason). */
  declare photosSkipped: CreationOptional<number>;
  declare jobId: CreationOptional<string | null>;
  declare error: CreationOptional<string | null>;
  declare startedAt: CreationOptional<Date | null>;
  declare finishedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

InspectionRun.init(
  {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    userId: { type: DataTypes.INTEGER, allowNull: true },
    datasetId: { type: DataTypes.INTEGER, allowNull: false },
    modelName: { type: DataTypes.STRING(100), allowNull: false },
    mmPerPixel: { type: DataTypes.DOUBLE, allowNull: false },
    state: { type: DataTypes.STRING(16), allowNull: false, defaultValue: "queued" },
    photosTotal: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    photosDone: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    cracksFound: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    photosSkipped: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    jobId: { type: DataTypes.STRING(64), allowNull: true },
    error: { type: DataTypes.TEXT, allowNull: true },
    startedAt: { type: DataTypes.DATE, allowNull: true },
    finishedAt: { type: DataTypes.DATE, allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "inspection_runs" },
);

/** One photo's detection (a detection result row); its mask file exists before the row does. */
export class CrackDetection extends Model<InferAttributes<CrackDetection>, InferCreationAttributes<CrackDetection>> {
  declare id: CreationOptional<number>;
  declare runId: number;
  declare pictureId: number;
  declare position: number;
  declare format: string;
  declare width: number;
  declare height: number;
  declare fileSize: number;
  declare isCrack: boolean;
  declare lengthMm: number;
  declare maxWidthMm: number;
  declare meanWidthMm: number;
  declare pieces: number;
  declare maskPath: string;
  declare elapsedMs: number;
  declare detectedAt: Date;
  /** Loaded only with `include: "picture"` (models/index.ts); null when the photo is gone. */
  declare picture?: NonAttribute<Picture | null>;
}

CrackDetection.init(
  {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    runId: { type: DataTypes.INTEGER, allowNull: false },
    pictureId: { type: DataTypes.INTEGER, allowNull: false },
    position: { type: DataTypes.INTEGER, allowNull: false },
    format: { type: DataTypes.STRING(8), allowNull: false },
    width: { type: DataTypes.INTEGER, allowNull: false },
    height: { type: DataTypes.INTEGER, allowNull: false },
    fileSize: { type: DataTypes.INTEGER, allowNull: false },
    isCrack: { type: DataTypes.BOOLEAN, allowNull: false },
    lengthMm: { type: DataTypes.DOUBLE, allowNull: false },
    maxWidthMm: { type: DataTypes.DOUBLE, allowNull: false },
    meanWidthMm: { type: DataTypes.DOUBLE, allowNull: false },
    pieces: { type: DataTypes.INTEGER, allowNull: false },
    maskPath: { type: DataTypes.STRING(255), allowNull: false },
    elapsedMs: { type: DataTypes.DOUBLE, allowNull: false },
    detectedAt: { type: DataTypes.DATE, allowNull: false },
  },
  { sequelize, tableName: "crack_detections", timestamps: false },
);

/**
 * A photo a run could not detect, with the reason as a message ref of the `inspection` namespace
 * (a damaged file, a format the detector cannot read, too many pixels): the run's page says per
 * photo why, instead of counting it silently out.
 */
export class InspectionSkippedPhoto extends Model<InferAttributes<InspectionSkippedPhoto>, InferCreationAttributes<InspectionSkippedPhoto>> {
  declare id: CreationOptional<number>;
  declare runId: number;
  declare pictureId: number;
  declare position: number;
  declare reason: string;
  declare skippedAt: Date;
  /** Loaded only with `include: "picture"` (models/index.ts); null when the photo is gone. */
  declare picture?: NonAttribute<Picture | null>;
}

InspectionSkippedPhoto.init(
  {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    runId: { type: DataTypes.INTEGER, allowNull: false },
    pictureId: { type: DataTypes.INTEGER, allowNull: false },
    position: { type: DataTypes.INTEGER, allowNull: false },
    reason: { type: DataTypes.STRING(500), allowNull: false },
    skippedAt: { type: DataTypes.DATE, allowNull: false },
  },
  { sequelize, tableName: "inspection_skipped_photos", timestamps: false },
);
