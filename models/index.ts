// Every model, one import away. Associations live here so each model file stays standalone.
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
export { InspectionRun, CrackDetection, INSPECTION_STATES, type InspectionState } from "./InspectionRun.ts";
export { SearchQuery } from "./SearchQuery.ts";
export { ConceptResult } from "./ConceptResult.ts";
export { VqaResult } from "./VqaResult.ts";
