// A submission's states, shared by the model, the server and the pages, so no component spells a
// status itself. Every submission starts In Process; an admin's decision moves it once, to Approved
// or Rejected (app/.server/submissions.server.ts decideSubmission). No imports: models/ and client
// bundles both read it; it is in lib/, outside app/, because models/ imports nothing from app/
// (README.md "Layout").

export const SubmissionStatus = { inProcess: "In Process", rejected: "Rejected", approved: "Approved" } as const;
export type SubmissionStatus = (typeof SubmissionStatus)[keyof typeof SubmissionStatus];
export const SUBMISSION_STATUSES: readonly SubmissionStatus[] = Object.values(SubmissionStatus);
