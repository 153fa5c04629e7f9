// POST /api/v1/submissions/{id}/decision — an administrator approves or rejects an In Process
// submission through decideSubmission, the approval page's race-safe path: of two decisions at
// once exactly one wins, and an approval joins the board in the same transaction.
import { apiPost, postOnly, idParam, json, readBodyFields } from "~/.server/api/endpoint.server.ts";
import { ApiError, bilingual } from "~/.server/api/errors.server.ts";
import { decideSubmission } from "~/.server/submissionReview.server.ts";
import { SubmissionStatus } from "../../../../lib/submissionStatus.ts";
import { MSG, decisionSchema } from "~/lib/rules/submission.ts";
import { parseForm } from "~/lib/forms/parse.ts";

export const loader = postOnly;

export const action = apiPost("admin", async ({ request, params, context, caller }) => {
  const id = idParam(params);
  const fields = await readBodyFields(request, context);
  // The approval page's rules, with the path's id: approve or reject, and a reason only with a rejection, bounded.
  const checked = parseForm({ decision: fields.decision ?? "", note: fields.note ?? "", id: String(id) }, decisionSchema);
  if (!checked.ok) {
    const problem = checked.errors.note;
    if (!problem) throw new ApiError(400, "validation_failed", MSG.unknownDecision);
    throw new ApiError(400, "validation_failed", problem, { fields: { note: bilingual(problem) } });
  }
  const { decision, note } = checked.value;
  const r = await decideSubmission(caller!.user, id, decision, note);
  if (!r.ok) throw new ApiError(409, "conflict", r.message, r.detail ? { detail: bilingual(r.detail) } : undefined);
  return json({
    id,
    status: decision === "approve" ? SubmissionStatus.approved : SubmissionStatus.rejected,
    note: note || null,
    message: bilingual(r.message),
  });
});
