// GET /api/v1/jobs/{id} — a maps evaluation started by POST /api/v1/suites/{id}/maps, as its
// owner (or an administrator) sees it: state, progress, and κ and rank once it has finished.
// Anyone else's job is 404.
import { apiGet, getOnly, idParam, json } from "~/.server/api/endpoint.server.ts";
import { API_MSG, ApiError, bilingual } from "~/.server/api/errors.server.ts";
import { mapsRunView } from "~/.server/mapsRuns.server.ts";

export const loader = apiGet("user", async ({ params, caller }) => {
  const view = await mapsRunView(caller!.user, idParam(params));
  if (!view) throw new ApiError(404, "not_found", API_MSG.jobNotFound);
  return json({
    id: view.id,
    suite: view.suiteId,
    method: view.method,
    mapsName: view.mapsName,
    state: view.state,
    progress: view.progress,
    imagesDone: view.imagesDone,
    imagesTotal: view.imagesTotal,
    etaSeconds: view.etaSeconds,
    currentTask: view.currentTask,
    error: view.error ? bilingual(view.error) : null,
    seconds: view.seconds,
    metascore: view.metascore,
    rank: view.rank,
    boardSize: view.boardSize,
    createdAt: view.createdAt,
    finishedAt: view.finishedAt,
  });
});

export const action = getOnly;
