// The submission area's rules (docs/architecture.md "Rules per area"): the page's messages plus the
// few the server adds, and every limit, shared by the page (checks before a byte is sent) and the
// server (the authority). The 500 KB upload limit lives here once; app/.server/uploads.server.ts
// reads it.

import { messageRef, type MessageRef } from "../forms/messages.ts";
import { formSchema, type FieldErrors } from "../forms/parse.ts";
import { checkText, normalizeLineBreaks } from "../forms/text.ts";

/** The page's messages plus the few the server adds, as message refs (app/locales/<lng>/submission.json). */
export const MSG = {
  nameRequired: "submission:msg.nameRequired",
  morfRequired: "submission:msg.morfRequired",
  lerfRequired: "submission:msg.lerfRequired",
  emailRequired: "submission:msg.emailRequired",
  infoRequired: "submission:msg.infoRequired",
  csvType: "submission:msg.csvType",
  csvSize: "submission:msg.csvSize",
  pyType: "submission:msg.pyType",
  pySize: "submission:msg.pySize",
  oneFile: "submission:msg.oneFile",
  uploadFailed: "submission:msg.uploadFailed",
  morfUploaded: "submission:msg.morfUploaded",
  lerfUploaded: "submission:msg.lerfUploaded",
  fileUploaded: "submission:msg.fileUploaded",
  submitted: "submission:msg.submitted",
  submitFailed: "submission:msg.submitFailed",
  noPython: "submission:msg.noPython",
  withPython: "submission:msg.withPython",
  approved: "submission:msg.approved",
  approveFailed: "submission:msg.approveFailed",
  rejected: "submission:msg.rejected",
  rejectFailed: "submission:msg.rejectFailed",
  emailInvalid: "submission:msg.emailInvalid",
  nameTooLong: "submission:msg.nameTooLong",
  infoTooLong: "submission:msg.infoTooLong",
  scoreFirst: "submission:msg.scoreFirst",
  sidecarDown: "submission:msg.sidecarDown",
  dailyLimit: "submission:msg.dailyLimit",
  dailyLimitOne: "submission:msg.dailyLimitOne",
  unknownSuite: "submission:msg.unknownSuite",
  unknownAction: "submission:msg.unknownAction",
  verifiedOnly: "submission:msg.verifiedOnly",
  selfReportedApproval: "submission:msg.selfReportedApproval",
  noteOnlyOnReject: "submission:msg.noteOnlyOnReject",
  fileForbidden: "submission:msg.fileForbidden",
  noSuchFile: "submission:msg.noSuchFile",
  unknownDecision: "submission:approval.unknownDecision",
} as const;

/** The upload limit "less than 500KB" (docs/product.md "Submission, history and approval") for result files and the algorithm file (500 × 1024 bytes). */
export const MAX_UPLOAD_BYTES = 512_000;
export const EMAIL_MAX = 255;
export const ALGORITHM_MAX = 200;
/** A few paragraphs with references; an admin reads every one on the approval page (without a limit, 8 MiB was accepted). */
export const INFO_MAX = 5000;

/** A rejection's reason for the submitter: a few sentences, multi-line (the approval form's maxLength too). */
export const DECISION_NOTE_MAX = 1000;

/** A method's name (the score and submit forms, the maps upload): required, at most ALGORITHM_MAX once trimmed. */
export function checkAlgorithmName(name: string): MessageRef | undefined {
  if (!name.trim()) return MSG.nameRequired;
  if (name.trim().length > ALGORITHM_MAX) return MSG.nameTooLong;
  return undefined;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * "Get your current scores": the method's name. The two result files are files, checked as files
 * after upload (app/.server/submissionFiles.server.ts checkCsvFile) and then by the scoring service.
 */
export const scoreSchema = formSchema({ algorithm: "trim" }, (v): FieldErrors => {
  const algorithm = checkAlgorithmName(v.algorithm);
  return algorithm ? { algorithm } : {};
});

/**
 * "Submit your algorithm": email and information, and the name as typed. An empty name means the
 * draft's, so the server checks the name it resolves (checkAlgorithmName) where the draft is.
 */
export const submitSchema = formSchema({ algorithm: "trim", email: "trim", info: "trim" }, (v): FieldErrors => {
  const errors: FieldErrors = {};
  if (v.algorithm) errors.algorithm = checkAlgorithmName(v.algorithm);
  if (!v.email) errors.email = MSG.emailRequired;
  else if (v.email.length > EMAIL_MAX || !EMAIL.test(v.email)) errors.email = MSG.emailInvalid;
  if (!v.info) errors.info = MSG.infoRequired;
  else if (v.info.length > INFO_MAX) errors.info = MSG.infoTooLong;
  return errors;
});

/** The maps upload's method name (the zip is a file, checked as one: app/.server/mapsRuns.server.ts). */
export const mapsMethodSchema = formSchema({ method: "trim" }, (v): FieldErrors => {
  const method = checkAlgorithmName(v.method);
  return method ? { method } : {};
});

/**
 * A decision's note as sent (a form field or the API's `note`) → the note to store, and what is
 * wrong with it, if anything: it goes with a rejection only (an approval's message is the board
 * itself), at most DECISION_NOTE_MAX characters, no control characters. Line breaks count once
 * (normalizeLineBreaks), as the form's maxLength counts them.
 */
export function readDecisionNote(decision: DecisionChoice, sent: string): { note: string; problem?: MessageRef } {
  const note = sentDecisionNote(sent);
  if (note && decision !== "reject") return { note, problem: MSG.noteOnlyOnReject };
  return { note, problem: checkText(note, { max: DECISION_NOTE_MAX, multiline: true, trim: false }) };
}

/** A note as readDecisionNote reads it (line breaks counted once, trimmed): what a refused form shows back. */
export const sentDecisionNote = (sent: string) => normalizeLineBreaks(sent).trim();

export type DecisionChoice = "approve" | "reject";
const isDecision = (v: string): v is DecisionChoice => v === "approve" || v === "reject";

export interface DecisionInput {
  id: string;
  decision: string;
  note: string;
}

/**
 * A decision (the approval page's Confirm, the API's decision endpoint with the id of its path):
 * a submission's id and approve or reject, else nothing else is said (unknownDecision, the form's);
 * then the note through readDecisionNote.
 */
export function validateDecision(v: DecisionInput): FieldErrors {
  const id = Number(v.id);
  if (!Number.isInteger(id) || id <= 0 || !isDecision(v.decision)) return { form: MSG.unknownDecision };
  const { problem } = readDecisionNote(v.decision, v.note);
  return problem ? { note: problem } : {};
}

/** parseForm(form, decisionSchema): the checked decision (id, approve or reject, the note to store) or its message. */
export const decisionSchema = formSchema({ id: "raw", decision: "raw", note: "raw" }, validateDecision).transform((v) => {
  const decision = v.decision as DecisionChoice;
  return { id: Number(v.id), decision, note: readDecisionNote(decision, v.note).note };
});

export const dailyLimitMessage = (n: number) => (n === 1 ? MSG.dailyLimitOne : messageRef(MSG.dailyLimit, { count: n }));
