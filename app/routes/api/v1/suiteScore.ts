// POST /api/v1/suites/{id}/score — the submission page's "Get your current scores and meta-rank"
// for scripts (docs/api.md): multipart `algorithm`, `morf` and `lerf` go through scoreDraft, the
// page's own function, so the files are checked, limited and kept in the caller's draft exactly
// as the page keeps them, and POST …/submit then submits that draft.
import { apiPost, postOnly, json } from "~/.server/api/endpoint.server.ts";
import { isSuiteId, scoreView } from "~/.server/api/views.server.ts";
import { API_MSG, ApiError, bilingual, fieldDetails } from "~/.server/api/errors.server.ts";
import { findSuite, scoreDraft } from "~/.server/submissions.server.ts";
import { filesOf, uploadLimitMessage } from "~/.server/submissionFiles.server.ts";
import { checkFields } from "~/.server/forms.server.ts";
import { MSG } from "~/lib/rules/submission.ts";

export const loader = postOnly;

export const action = apiPost(
  "user",
  async ({ request, params, context, caller }) => {
    const suite = isSuiteId(params.id) ? await findSuite(params.id) : null;
    if (!suite) throw new ApiError(404, "not_found", MSG.unknownSuite);
    const form = context.uploads;
    if (!form || !(request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data"))
      throw new ApiError(400, "bad_request", API_MSG.multipartRequired);
    if (form.error) {
      const field = form.error.field ?? "form";
      const message = uploadLimitMessage(form.error);
      throw new ApiError(413, "payload_too_large", message, { fields: fieldDetails({ [field]: message }) });
    }
    checkFields(form.fields);
    const r = await scoreDraft(caller!.user, suite, { algorithm: form.fields.algorithm ?? "", morf: filesOf(form, "morf"), lerf: filesOf(form, "lerf") });
    if (r.ok) return json(scoreView(suite.id, r.result));
    if (r.message) throw new ApiError(503, "service_unavailable", r.message);
    const first = Object.values(r.errors)[0] ?? MSG.uploadFailed;
    throw new ApiError(400, "validation_failed", first, {
      fields: fieldDetails(r.errors),
      ...(r.fileErrors?.length ? { files: r.fileErrors.map((e) => bilingual(e).en) } : {}),
      ...(Object.keys(r.errors).length === 0 ? { detail: bilingual(MSG.uploadFailed) } : {}),
    });
  },
  { compute: true },
);
