// The submission area's rules (issue 10 §3): the seed's messages (000 §5, §8) plus the few the
// server adds, and every limit, shared by the page (checks before a byte is sent) and the server
// (the authority). The 500 KB upload limit lives here once; app/.server/uploads.server.ts reads it.

/** The seed's words (000 §5, §8) plus the few messages the server side adds. */
export const MSG = {
  nameRequired: "Please input the name of your attribution algorithm!",
  morfRequired: "Please upload your morf result!",
  lerfRequired: "Please upload your lerf result!",
  emailRequired: "Please provide your email address!",
  infoRequired: "Please complete information about your algorithm!",
  csvType: "Please upload a CSV file.",
  csvSize: "Please upload a CSV file with a size less than 500KB.",
  pyType: "Please upload a python file.",
  pySize: "Please upload a python file with a size less than 500KB.",
  oneFile: "Please upload one file per box.",
  uploadFailed: "File upload failed.",
  morfUploaded: "Morf file uploaded successfully.",
  lerfUploaded: "Lerf file uploaded successfully.",
  fileUploaded: "File uploaded successfully.",
  submitted: "Upload algorithm successfully!",
  submitFailed: "Upload algorithm failed!",
  noPython: "You choose not to submit your algorithm file.",
  withPython: "Your algorithm file will be submitted with your results.",
  approved: "You have approved this submission!",
  approveFailed: "Approval failed.",
  rejected: "You have rejected this submission!",
  rejectFailed: "Rejection failed.",
  emailInvalid: "Please provide a valid email address.",
  nameTooLong: "The algorithm name may be at most 200 characters.",
  infoTooLong: "The detailed information may be at most 5000 characters.",
  scoreFirst: "Please get your current scores and meta-rank before submitting.",
  sidecarDown: "The scoring service did not answer, so nothing was scored. Your uploaded files are kept; please try again in a moment.",
} as const;

/** The seeds' "less than 500KB" for result files and the algorithm file (500 × 1024 bytes). */
export const MAX_UPLOAD_BYTES = 512_000;
export const EMAIL_MAX = 255;
export const ALGORITHM_MAX = 200;
/** A few paragraphs with references; an admin reads every one on the approval page (issue 11: 8 MiB was accepted). */
export const INFO_MAX = 5000;
