// Every model, one import away. Associations live here so each model file stays standalone
// (a model file only declares the property an `include` fills, by a type-only import).
export { sequelize, isSqlite, databaseUrl } from "./db.ts";
export { User, usernameKey } from "./User.ts";
export { Session } from "./Session.ts";
export { Captcha } from "./Captcha.ts";
export { Suite } from "./Suite.ts";
export { BoardMethod, type TaskScore } from "./BoardMethod.ts";
export { RankingAudit, RANKING_ACTIONS, type AuditedEntry, type RankingAction } from "./RankingAudit.ts";
export { Submission, SubmissionDraft, SUBMISSION_STATUSES, SubmissionStatus, PROVENANCES, type Provenance } from "./Submission.ts";
export { Server, type ServerProcess } from "./Server.ts";
export { Dataset } from "./Dataset.ts";
export { Picture } from "./Picture.ts";
export { InferenceCache } from "./InferenceCache.ts";
export {
  EvaluationRun,
  EVALUATION_KINDS,
  EVALUATION_STATES,
  EVALUATION_TRANSITIONS,
  transitionRun,
  type EvaluationKind,
  type EvaluationState,
} from "./EvaluationRun.ts";
export { InspectionRun, CrackDetection, InspectionSkippedPhoto, INSPECTION_STATES, type InspectionState } from "./InspectionRun.ts";
export { SearchQuery } from "./SearchQuery.ts";
export { ConceptResult } from "./ConceptResult.ts";
export { VqaResult } from "./VqaResult.ts";
export { TreeTask, TreeTaskLog, TreeTaskImage, TREE_TASK_STATES, TREE_TASK_TRANSITIONS, transitionTreeTask, type TreeTaskState } from "./TreeTask.ts";

import { User } from "./User.ts";
import { Submission } from "./Submission.ts";
import { EvaluationRun } from "./EvaluationRun.ts";
import { Dataset } from "./Dataset.ts";
import { Picture } from "./Picture.ts";
import { CrackDetection, InspectionSkippedPhoto } from "./InspectionRun.ts";
import { TreeTask } from "./TreeTask.ts";

// The joins the app reads through `include` instead of loading rows by id by hand. The tables'
// foreign keys (and what a delete does to them) belong to the migrations, so these associations
// add no constraints of their own (`constraints: false`): declaring them changes no schema.
Submission.belongsTo(User, { as: "user", foreignKey: "userId", constraints: false });
Submission.belongsTo(EvaluationRun, { as: "evaluationRun", foreignKey: "evaluationRunId", constraints: false });
EvaluationRun.belongsTo(User, { as: "user", foreignKey: "userId", constraints: false });
Picture.belongsTo(Dataset, { as: "dataset", foreignKey: "datasetId", constraints: false });
CrackDetection.belongsTo(Picture, { as: "picture", foreignKey: "pictureId", constraints: false });
InspectionSkippedPhoto.belongsTo(Picture, { as: "picture", foreignKey: "pictureId", constraints: false });
TreeTask.belongsTo(User, { as: "user", foreignKey: "userId", constraints: false });
