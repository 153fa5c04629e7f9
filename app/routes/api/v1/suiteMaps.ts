// POST /api/v1/suites/{id}/maps — a verified evaluation for scripts (docs/api.md "Endpoints",
// docs/evaluation.md "Path 2: attribution maps from any framework"): multipart `maps` (a zip of one
// `<task>.npy` per task, streamed to disk by the multipart middleware with the maps' own limits)
// and `method`, handed to startMapsRun — the submission page's own path — which checks the zip and
// queues the run. Answers 202 with the job to poll at GET /api/v1/jobs/{id}; when it succeeds the
// draft holds the verified files.
import fs from "node:fs/promises";
import { apiPost, postOnly, json } from "~/.server/api/endpoint.server.ts";
import { isSuiteId } from "~/.server/api/views.server.ts";
import { ApiError, fieldDetails, bilingual, type ErrorCode } from "~/.server/api/errors.server.ts";
import { API_MSG } from "~/.server/api/errors.server.ts";
import { findSuite } from "~/.server/submissions.server.ts";
import { filesOf, uploadLimitMessage } from "~/.server/submissionFiles.server.ts";
import { startMapsRun } from "~/.server/mapsRuns.server.ts";
import { checkFields } from "~/.server/forms.server.ts";
import { MAPS_MAX_BYTES, mapsMessage, mib } from "~/lib/rules/maps.ts";
import { MSG } from "~/lib/rules/submission.ts";

const CODES: Record<number, ErrorCode> = {
  400: "validation_failed",
  409: "conflict",
  413: "payload_too_large",
  429: "rate_limited",
  503: "service_unavailable",
};

export const loader = postOnly;

export const action = apiPost(
  "user",
  async ({ request, params, context, caller }) => {
    const uploads = context.uploads;
    try {
      const suite = isSuiteId(params.id) ? await findSuite(params.id) : null;
      if (!suite) throw new ApiError(404, "not_found", MSG.unknownSuite);
      if (!uploads || !(request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data"))
        throw new ApiError(400, "bad_request", API_MSG.multipartRequired);
      if (uploads.error) {
        const message = uploads.error.code === "LIMIT_FILE_SIZE" ? mapsMessage("tooLarge", { limit: mib(MAPS_MAX_BYTES) }) : uploadLimitMessage(uploads.error);
        throw new ApiError(413, "payload_too_large", message, { fields: fieldDetails({ maps: message }) });
      }
      checkFields(uploads.fields);
      const file = filesOf(uploads, "maps")[0];
      const r = await startMapsRun(
        caller!.user,
        suite,
        file?.path ? { path: file.path, originalName: file.originalName, size: file.size } : null,
        uploads.fields.method ?? "",
      );
      if (r.ok) return json({ job: r.id, url: `/api/v1/jobs/${r.id}` }, 202, { Location: `/api/v1/jobs/${r.id}` });
      const field = r.message.startsWith("submission:maps.") ? "maps" : "method";
      throw new ApiError(r.status, CODES[r.status] ?? "bad_request", r.message, {
        fields: fieldDetails({ [field]: r.message }),
        ...(r.errors?.length ? { problems: r.errors.map(bilingual) } : {}),
      });
    } finally {
      // startMapsRun moves or deletes the file it is given; anything else streamed here goes.
      for (const f of uploads?.files ?? []) if (f.path) await fs.rm(f.path, { force: true }).catch(() => undefined);
    }
  },
  { compute: true },
);
