// GET /api/v1/openapi.json — the API's OpenAPI 3.1 document (app/.server/api/openapi.ts).
import { apiGet, getOnly, json } from "~/.server/api/endpoint.server.ts";
import { openApiDocument } from "~/.server/api/openapi.ts";

export const loader = apiGet("public", async () => json(openApiDocument));

export const action = getOnly;
