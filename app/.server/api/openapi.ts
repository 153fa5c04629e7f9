// The OpenAPI 3.1 document of /api/v1, served at /api/v1/openapi.json. tests/integration/api.test.ts
// checks every answer of every endpoint against it (ajv, JSON Schema 2020-12) and that its paths
// are exactly the route files app/routes/api.v1.*: change an endpoint and this together.
import { ALGORITHM_MAX, DECISION_NOTE_MAX, EMAIL_MAX, INFO_MAX, MAX_UPLOAD_BYTES } from "~/lib/rules/submission.ts";
import { SUBMISSION_STATUSES } from "../../../lib/submissionStatus.ts";
import { PROVENANCES } from "../../../lib/provenance.ts";
import { API_COMPUTE_PER_HOUR, API_RATE_PER_MINUTE } from "./limits.server.ts";
import { MAPS_DAILY_LIMIT, MAPS_MAX_BYTES } from "~/lib/rules/maps.ts";
import { EVALUATION_STATES } from "../../../models/EvaluationRun.ts";

type Schema = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** The refusals every endpoint may answer with, by status: each is one of components.responses. */
const REFUSALS = {
  "400": "BadRequest",
  "401": "Unauthorized",
  "403": "Forbidden",
  "404": "NotFound",
  "409": "Conflict",
  "413": "TooLarge",
  "429": "RateLimited",
  "503": "Unavailable",
} as const;
/** An endpoint's `responses`: the refusals it may answer with, and its one success. */
const answers = (refusals: (keyof typeof REFUSALS)[], status: "200" | "201" | "202", success: Schema) => ({
  [status]: success,
  ...Object.fromEntries(refusals.map((code) => [code, { $ref: `#/components/responses/${REFUSALS[code]}` }])),
});
const object = (properties: Record<string, Schema>, required = Object.keys(properties)): Schema => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});
const jsonBody = (schema: Schema, description: string) => ({ description, content: { "application/json": { schema } } });
/** A request body sent as JSON or as a url-encoded form, both with the named schema (then any other media types given). */
const jsonOrFormBody = (schema: string, more: Record<string, { schema: Schema }> = {}) => ({
  required: true,
  content: { "application/json": { schema: ref(schema) }, "application/x-www-form-urlencoded": { schema: ref(schema) }, ...more },
});
const nullable = (schema: Schema): Schema => ({ oneOf: [schema, { type: "null" }] });

const str = (extra: Schema = {}): Schema => ({ type: "string", ...extra });
const int = (extra: Schema = {}): Schema => ({ type: "integer", ...extra });
const num: Schema = { type: "number" };

const SUITE_ID = {
  name: "id",
  in: "path",
  required: true,
  description: "Suite id (see GET /api/v1/suites).",
  schema: str({ pattern: "^[A-Za-z0-9._-]{1,100}$" }),
};
const SUBMISSION_ID = { name: "id", in: "path", required: true, description: "Submission id.", schema: int({ minimum: 1, maximum: 2147483647 }) };

/** A method's row as a board ranks it: a board's row and a scored board's row begin with these. */
const RANKED_ROW = {
  rank: int({ minimum: 1 }),
  algorithm: str(),
  contributor: str(),
  institute: str(),
  metascore: num,
  metascoreText: str(),
};

const PUBLIC = [{}, { bearerAuth: [] }];
const TOKEN = [{ bearerAuth: [] }];

const RATE_TEXT =
  `Rate limits: ${API_RATE_PER_MINUTE} calls per minute per user, all of its tokens together (per client address for calls without a token), every endpoint together; ` +
  `scoring and maps uploads also spend a compute allowance of ${API_COMPUTE_PER_HOUR} per hour per user. Over a limit the answer is 429 with Retry-After (seconds).`;

export const openApiDocument = {
  openapi: "3.1.0",
  info: {
    title: "Meta-Rank API",
    version: "1.0.0",
    summary: "Suites, boards, scoring, submissions and decisions for scripts.",
    description:
      "The JSON API of Meta-Rank (docs/api.md). Authenticate with a personal API token created on /profile: `Authorization: Bearer mr_…`. " +
      "A token carries its user's rights (an administrator's token may decide submissions). The session cookie is never accepted. " +
      `Errors are \`{ "error": { "code", "message": { "en", "zh" }, "details"? } }\` with the pages' own messages. ${RATE_TEXT}`,
    "x-rate-limit": { callsPerMinute: API_RATE_PER_MINUTE, computePerHour: API_COMPUTE_PER_HOUR, key: "token, else client address" },
  },
  servers: [{ url: "/" }],
  security: TOKEN,
  paths: {
    "/api/v1/openapi.json": {
      get: {
        operationId: "openapi",
        summary: "This document.",
        security: PUBLIC,
        responses: answers(["429"], "200", jsonBody({ type: "object", required: ["openapi", "paths"] }, "The OpenAPI 3.1 document.")),
      },
    },
    "/api/v1/suites": {
      get: {
        operationId: "listSuites",
        summary: "Every benchmark suite with its tasks, evaluation settings and kit address.",
        security: PUBLIC,
        responses: answers(["401", "429"], "200", jsonBody(object({ suites: { type: "array", items: ref("Suite") } }), "The suites, in leaderboard order.")),
      },
    },
    "/api/v1/suites/{id}/board": {
      get: {
        operationId: "suiteBoard",
        summary: "The suite's public board as the leaderboard shows it (hidden entries left out).",
        security: PUBLIC,
        parameters: [SUITE_ID],
        responses: answers(
          ["401", "404", "429"],
          "200",
          jsonBody(object({ suite: str(), rows: { type: "array", items: ref("BoardRow") } }), "Rows best first."),
        ),
      },
    },
    "/api/v1/suites/{id}/score": {
      post: {
        operationId: "score",
        summary: "Check two result files and rank them against the suite's board (the submission page's 'Get your current scores').",
        description:
          `The files are kept in the caller's draft for this suite, exactly as the submission page keeps them; POST …/submit submits that draft. ` +
          `Each file: CSV, at most ${MAX_UPLOAD_BYTES} bytes. A file sent again replaces the draft's. Spends the compute allowance.`,
        parameters: [SUITE_ID],
        requestBody: {
          required: true,
          content: {
            "multipart/form-data": {
              schema: object(
                {
                  algorithm: str({ maxLength: ALGORITHM_MAX, description: "The method's name." }),
                  morf: str({ contentMediaType: "text/csv", description: "MoRF result file (task,grid… header)." }),
                  lerf: str({ contentMediaType: "text/csv", description: "LeRF result file." }),
                },
                ["algorithm"],
              ),
            },
          },
        },
        responses: answers(
          ["400", "401", "404", "413", "429", "503"],
          "200",
          jsonBody(ref("ScoreResult"), "κ (metascore), rank and the board the method was inserted into."),
        ),
      },
    },
    "/api/v1/suites/{id}/submit": {
      post: {
        operationId: "submit",
        summary: "Submit the scored draft for approval (the submission page's 'Submit your algorithm').",
        description: "JSON or a form (url-encoded, or multipart with an optional `python` file of at most the same size). The daily submission limit applies.",
        parameters: [SUITE_ID],
        requestBody: jsonOrFormBody("SubmitRequest", {
          "multipart/form-data": {
            schema: object(
              {
                algorithm: str({ maxLength: ALGORITHM_MAX }),
                email: str({ maxLength: EMAIL_MAX }),
                info: str({ maxLength: INFO_MAX }),
                python: str({ contentMediaType: "text/x-python", description: `The algorithm's .py file, at most ${MAX_UPLOAD_BYTES} bytes.` }),
              },
              ["email", "info"],
            ),
          },
        }),
        responses: answers(["400", "401", "404", "409", "413", "429", "503"], "201", jsonBody(ref("SubmitResult"), "The submission, In Process.")),
      },
    },
    "/api/v1/suites/{id}/maps": {
      post: {
        operationId: "uploadMaps",
        summary: "Have the platform evaluate your attribution maps (a verified result): returns a job to poll.",
        description:
          `Multipart: \`maps\`, a zip with one \`<task>.npy\` per task of the suite (float32 or float16, N×H×W or N×H×W×C, in the kit's image order), ` +
          `at most ${MAPS_MAX_BYTES} bytes; \`method\`, the method's name. One run at a time per user, ${MAPS_DAILY_LIMIT} a day. ` +
          "When the job completes, the caller's draft for the suite holds the platform's result files (verified) and POST …/submit submits them. Spends the compute allowance.",
        parameters: [SUITE_ID],
        requestBody: {
          required: true,
          content: {
            "multipart/form-data": {
              schema: object({ method: str({ maxLength: ALGORITHM_MAX }), maps: str({ contentMediaType: "application/zip" }) }),
            },
          },
        },
        responses: answers(["400", "401", "404", "409", "413", "429", "503"], "202", {
          ...jsonBody(object({ job: int({ minimum: 1 }), url: str() }), "Queued; poll the job."),
          headers: { Location: { schema: str() } },
        }),
      },
    },
    "/api/v1/jobs/{id}": {
      get: {
        operationId: "getJob",
        summary: "A maps evaluation's state and progress; κ and rank once completed (the caller's own; administrators: any).",
        parameters: [{ name: "id", in: "path", required: true, schema: int({ minimum: 1, maximum: 2147483647 }) }],
        responses: answers(["400", "401", "404", "429"], "200", jsonBody(ref("Job"), "The job.")),
      },
    },
    "/api/v1/submissions": {
      get: {
        operationId: "listSubmissions",
        summary: "The caller's submissions (history); `all=1` (administrators) lists everyone's.",
        parameters: [
          { name: "all", in: "query", required: false, schema: str({ enum: ["0", "1"] }) },
          { name: "sort", in: "query", required: false, schema: str({ enum: ["time", "metascore", "ranking"] }) },
          { name: "dir", in: "query", required: false, schema: str({ enum: ["asc", "desc"] }) },
        ],
        responses: answers(
          ["401", "403", "429"],
          "200",
          jsonBody(object({ submissions: { type: "array", items: ref("Submission") } }), "Newest first unless sorted otherwise."),
        ),
      },
    },
    "/api/v1/submissions/{id}": {
      get: {
        operationId: "getSubmission",
        summary: "One submission (the caller's own; administrators: any).",
        parameters: [SUBMISSION_ID],
        responses: answers(["400", "401", "404", "429"], "200", jsonBody(ref("Submission"), "The submission.")),
      },
    },
    "/api/v1/submissions/{id}/decision": {
      post: {
        operationId: "decide",
        summary: "Administrators: approve or reject an In Process submission (once; an approval joins the board).",
        parameters: [SUBMISSION_ID],
        requestBody: jsonOrFormBody("DecisionRequest"),
        responses: answers(["400", "401", "403", "409", "429"], "200", jsonBody(ref("DecisionResult"), "Decided.")),
      },
    },
    "/api/v1/decisions": {
      get: {
        operationId: "listDecisions",
        summary: "Administrators: decided submissions with who decided and when, newest first.",
        parameters: [{ name: "limit", in: "query", required: false, schema: int({ minimum: 1, maximum: 1000, default: 200 }) }],
        responses: answers(["401", "403", "429"], "200", jsonBody(object({ decisions: { type: "array", items: ref("DecisionRecord") } }), "Decisions.")),
      },
    },
  } as Record<string, unknown>,
  components: {
    securitySchemes: {
      bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "mr_ + 43 base64url characters", description: "A personal API token from /profile." },
    },
    responses: {
      BadRequest: jsonBody(ref("Error"), "The input is not valid (codes bad_request, validation_failed); details name the fields and file problems."),
      Unauthorized: {
        ...jsonBody(ref("Error"), "No token, or a token that is malformed, revoked or whose user is gone."),
        headers: { "WWW-Authenticate": { schema: str() } },
      },
      Forbidden: jsonBody(ref("Error"), "The token's user lacks the role (administrators only)."),
      NotFound: jsonBody(ref("Error"), "No such suite, submission or job (or not the caller's)."),
      Conflict: jsonBody(ref("Error"), "The state does not allow it: already decided, daily limit reached, nothing scored, files changed."),
      TooLarge: jsonBody(ref("Error"), `A file is over its limit (${MAX_UPLOAD_BYTES} bytes per result file) or too many files were sent.`),
      RateLimited: {
        ...jsonBody(ref("Error"), RATE_TEXT),
        headers: { "Retry-After": { description: "Seconds until the allowance is back.", schema: int({ minimum: 1 }) } },
      },
      Unavailable: jsonBody(ref("Error"), "The scoring service (compute server) cannot be reached; try again later."),
    },
    schemas: {
      Bilingual: object({ en: str(), zh: str() }),
      Error: object({
        error: object(
          {
            code: str({
              enum: [
                "bad_request",
                "validation_failed",
                "unauthorized",
                "forbidden",
                "not_found",
                "method_not_allowed",
                "conflict",
                "payload_too_large",
                "rate_limited",
                "service_unavailable",
                "internal",
              ],
            }),
            message: ref("Bilingual"),
            details: object(
              {
                fields: { type: "object", additionalProperties: ref("Bilingual"), description: "Message per input field." },
                files: { type: "array", items: str(), description: "Result-file problems as FILE:LINE:COLUMN message." },
                problems: { type: "array", items: ref("Bilingual"), description: "Every problem found in an uploaded maps zip." },
                detail: ref("Bilingual"),
              },
              [],
            ),
          },
          ["code", "message"],
        ),
      }),
      Suite: object({
        id: str(),
        name: str(),
        description: str(),
        tasks: { type: "array", items: str() },
        grid: { type: "array", items: num, description: "Fractions of the image perturbed (the CSV header after `task`)." },
        patchSize: int(),
        filler: { type: "array", items: num },
        isDefault: { type: "boolean" },
        acceptsSelfReported: { type: "boolean", description: "false: the suite takes only verified results (maps evaluated by the platform)." },
        methods: int({ minimum: 0 }),
        kitUrl: str({ description: "Download of the suite's kit (images, labels, models)." }),
        taskKitUrls: {
          type: "object",
          additionalProperties: str(),
          description: "Each task's own kit (that task's images, labels and model only): task → download address.",
        },
        mapsImages: nullable(
          int({
            minimum: 1,
            description: "Maps per task a maps zip holds (the evaluation split's size); null: the platform cannot evaluate maps for this suite.",
          }),
        ),
        taskInputs: {
          type: "object",
          additionalProperties: nullable({ type: "array", items: int({ minimum: 1 }), minItems: 3, maxItems: 3 }),
          description: "Each task's input [height, width, channels]: its maps are N×H×W or N×H×W×C. Null where the task's network is not on this server.",
        },
      }),
      BoardRow: object({
        ...RANKED_ROW,
        morfMetascore: nullable(num),
        morfRank: nullable(int({ minimum: 1 })),
        lerfMetascore: nullable(num),
        lerfRank: nullable(int({ minimum: 1 })),
        source: nullable(str({ enum: ["platform", ...PROVENANCES] })),
      }),
      ScoredRow: object({
        ...RANKED_ROW,
        candidate: { type: "boolean", description: "The row of the scored files." },
      }),
      ScoreResult: object({
        suite: str(),
        algorithm: str(),
        metascore: { type: "number", description: "κ of the method on the board it joined." },
        metascoreText: str(),
        rank: int({ minimum: 1 }),
        boardSize: int({ minimum: 1 }),
        board: { type: "array", items: ref("ScoredRow"), description: "The current board with the method fused in." },
        original: { type: "array", items: ref("ScoredRow"), description: "The board with the method inserted and no history fusion." },
      }),
      SubmitRequest: object(
        {
          algorithm: str({ maxLength: ALGORITHM_MAX, description: "Defaults to the scored draft's name." }),
          email: str({ maxLength: EMAIL_MAX }),
          info: str({ maxLength: INFO_MAX }),
        },
        ["email", "info"],
      ),
      SubmitResult: object({ id: int({ minimum: 1 }), suite: str(), status: str({ enum: ["In Process"] }), withPython: { type: "boolean" } }),
      Submission: object({
        id: int({ minimum: 1 }),
        suite: str(),
        algorithm: str(),
        username: str(),
        institute: str(),
        status: str({ enum: [...SUBMISSION_STATUSES] }),
        provenance: str({ enum: [...PROVENANCES], description: "verified: the platform computed the result files from uploaded maps." }),
        metascore: num,
        metascoreText: str(),
        ranking: int(),
        submitTime: str({ format: "date-time" }),
        morfName: str(),
        lerfName: str(),
        pythonName: nullable(str()),
        email: str(),
        info: str(),
        current: nullable(object({ metascoreText: str(), rank: int({ minimum: 1 }), boardSize: int({ minimum: 1 }) })),
        decisionNote: nullable(str({ description: "The administrator's reason for a rejection, when one was given." })),
      }),
      Job: object({
        id: int({ minimum: 1 }),
        suite: str(),
        method: str(),
        mapsName: nullable(str()),
        state: str({ enum: [...EVALUATION_STATES] }),
        progress: { type: "number", minimum: 0, maximum: 100 },
        imagesDone: int({ minimum: 0 }),
        imagesTotal: int({ minimum: 0 }),
        etaSeconds: nullable(num),
        currentTask: nullable(str()),
        error: nullable(ref("Bilingual")),
        seconds: nullable(num),
        metascore: nullable(num),
        rank: nullable(int({ minimum: 1 })),
        boardSize: nullable(int({ minimum: 1 })),
        createdAt: str({ format: "date-time" }),
        finishedAt: nullable(str({ format: "date-time" })),
      }),
      DecisionRequest: object(
        {
          decision: str({ enum: ["approve", "reject"] }),
          note: str({ maxLength: DECISION_NOTE_MAX, description: "With a rejection only: the reason, shown to the submitter in their history." }),
        },
        ["decision"],
      ),
      DecisionResult: object({ id: int({ minimum: 1 }), status: str({ enum: ["Approved", "Rejected"] }), note: nullable(str()), message: ref("Bilingual") }),
      DecisionRecord: object({
        id: int({ minimum: 1 }),
        suite: str(),
        algorithm: str(),
        username: str(),
        status: str({ enum: ["Approved", "Rejected"] }),
        decidedBy: nullable(str()),
        decidedAt: nullable(str({ format: "date-time" })),
        note: nullable(str()),
      }),
    } as Record<string, unknown>,
  },
};
