// GET /api/v1/suites/{id}/board — the suite's public board as the leaderboard shows it (docs/api.md).
import { apiGet, getOnly, json } from "~/.server/api/endpoint.server.ts";
import { boardView, isSuiteId } from "~/.server/api/views.server.ts";
import { ApiError } from "~/.server/api/errors.server.ts";
import { findSuite } from "~/.server/submissions.server.ts";
import { MSG } from "~/lib/rules/submission.ts";

export const loader = apiGet("public", async ({ params }) => {
  const suite = isSuiteId(params.id) ? await findSuite(params.id) : null;
  if (!suite) throw new ApiError(404, "not_found", MSG.unknownSuite);
  return json({ suite: suite.id, rows: await boardView(suite.id) });
});

export const action = getOnly;
