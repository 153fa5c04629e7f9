// GET /api/v1/suites — every suite with its tasks, evaluation settings and kit address (docs/api.md).
import { apiGet, getOnly, json } from "~/.server/api/endpoint.server.ts";
import { suitesView } from "~/.server/api/views.server.ts";

export const loader = apiGet("public", async () => json({ suites: await suitesView() }));

export const action = getOnly;
