// GET /api/v1/submissions — the caller's submissions (the history page); an administrator may
// ask for everyone's with ?all=1 (the approval page's list). ?sort=time|metascore|ranking&dir=asc|desc.
import { apiGet, getOnly, json } from "~/.server/api/endpoint.server.ts";
import { submissionView } from "~/.server/api/views.server.ts";
import { API_MSG, ApiError } from "~/.server/api/errors.server.ts";
import { historySortParams, listSubmissions } from "~/.server/submissionReview.server.ts";

export const loader = apiGet("user", async ({ request, caller }) => {
  const url = new URL(request.url);
  const all = url.searchParams.get("all") === "1";
  if (all && !caller!.user.isAdmin) throw new ApiError(403, "forbidden", API_MSG.forbidden);
  const { sort, dir } = historySortParams(url);
  const rows = await listSubmissions(all ? {} : { userId: caller!.user.id }, sort, dir);
  return json({ submissions: rows.map(submissionView) });
});

export const action = getOnly;
