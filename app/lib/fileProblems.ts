// Result-file problems as the web app shows them: in the visitor's language.
import { messageRef, type MessageRef } from "./forms/messages.ts";
import type { FileProblem__Output } from "../../proto/generated/metarank/v1/FileProblem.ts";

/**
 * A problem the metascore service found in a result file, as a message: its code and values
 * (sidecar/metascore/resultFile.ts, PROBLEM_TEXT) under submission:fileProblem, after
 * FILE:LINE:COLUMN as the command-line tool prints it; a problem without a code keeps the
 * service's English sentence.
 */
export function problemMessage(p: Pick<FileProblem__Output, "file" | "line" | "column" | "message" | "code" | "args">): MessageRef {
  const where = p.line > 0 ? `${p.file}:${p.line}:${p.column || 1}` : `${p.file}:`;
  if (!p.code) return `${where} ${p.message}`;
  return messageRef(`submission:fileProblem.${p.code}`, { where, ...p.args });
}
