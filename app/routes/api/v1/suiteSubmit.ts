// POST /api/v1/suites/{id}/submit — the submission page's "Submit your algorithm" for scripts
// (docs/api.md): the scored draft becomes an In Process submission through submitDraft, with the
// page's fields (algorithm, email, info), rules, messages and daily limit.
import { apiPost, postOnly, json } from "~/.server/api/endpoint.server.ts";
import { isSuiteId } from "~/.server/api/views.server.ts";
import { ApiError, bilingual, fieldDetails } from "~/.server/api/errors.server.ts";
import { readBodyFields } from "~/.server/api/endpoint.server.ts";
import { findSuite, submitDraft } from "~/.server/submissions.server.ts";
import { filesOf, uploadLimitMessage } from "~/.server/submissionFiles.server.ts";
import { MSG } from "~/lib/rules/submission.ts";
import { SubmissionStatus } from "../../../../lib/submissionStatus.ts";

export const loader = postOnly;

export const action = apiPost("user", async ({ request, params, context, caller }) => {
  const suite = isSuiteId(params.id) ? await findSuite(params.id) : null;
  if (!suite) throw new ApiError(404, "not_found", MSG.unknownSuite);
  if (context.uploads?.error) {
    const message = uploadLimitMessage({ ...context.uploads.error, field: "python" });
    throw new ApiError(413, "payload_too_large", message, { fields: fieldDetails({ python: message }) });
  }
  const fields = await readBodyFields(request, context);
  const r = await submitDraft(caller!.user, suite, {
    algorithm: fields.algorithm ?? "",
    email: fields.email ?? "",
    info: fields.info ?? "",
    python: context.uploads ? filesOf(context.uploads, "python") : [],
  });
  if (r.ok) return json({ id: r.id, suite: suite.id, status: SubmissionStatus.inProcess, withPython: r.withPython }, 201);
  if (r.message) {
    const unavailable = r.message === MSG.sidecarDown;
    throw new ApiError(
      unavailable ? 503 : 409,
      unavailable ? "service_unavailable" : "conflict",
      r.message,
      r.fileErrors?.length ? { files: r.fileErrors.map((e) => bilingual(e).en) } : undefined,
    );
  }
  throw new ApiError(400, "validation_failed", Object.values(r.errors)[0] ?? MSG.submitFailed, { fields: fieldDetails(r.errors) });
});
