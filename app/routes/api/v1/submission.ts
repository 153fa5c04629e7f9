// GET /api/v1/submissions/{id} — one submission: its owner's or, for an administrator, anyone's.
// Anyone else gets 404, so ids of other people's submissions are not confirmed to exist.
import { apiGet, getOnly, idParam, json } from "~/.server/api/endpoint.server.ts";
import { submissionView } from "~/.server/api/views.server.ts";
import { API_MSG, ApiError } from "~/.server/api/errors.server.ts";
import { Submission } from "~/.server/db.server.ts";
import { listSubmissions } from "~/.server/submissionReview.server.ts";

export const loader = apiGet("user", async ({ params, caller }) => {
  const id = idParam(params);
  const sub = await Submission.findByPk(id, { attributes: ["id", "userId"] });
  if (!sub || (sub.userId !== caller!.user.id && !caller!.user.isAdmin)) throw new ApiError(404, "not_found", API_MSG.submissionNotFound);
  // The owner's history rows, so the numbers are the history page's (today's standing included).
  const row = (await listSubmissions({ userId: sub.userId }, "time", "desc")).find((r) => r.id === id);
  if (!row) throw new ApiError(404, "not_found", API_MSG.submissionNotFound);
  return json(submissionView(row));
});

export const action = getOnly;
