// GET /api/v1/decisions — administrators: decided submissions, newest decision first, with who
// decided and when. ?limit= (1–1000, default 200) bounds the answer.
import { apiGet, getOnly, json } from "~/.server/api/endpoint.server.ts";
import { decisionsView } from "~/.server/api/views.server.ts";

export const loader = apiGet("admin", async ({ request }) => {
  const n = Number(new URL(request.url).searchParams.get("limit") ?? "200");
  const limit = Number.isInteger(n) ? Math.min(1000, Math.max(1, n)) : 200;
  return json({ decisions: await decisionsView(limit) });
});

export const action = getOnly;
