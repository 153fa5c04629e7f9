// Attribution images of a cached classification result, served only to viewers who may see the
// explained picture; anyone else gets 404. ?kind=heatmap is the sidecar's colour map as stored;
// ?kind=overlay is that map laid over the picture the visitor sees (its own colours, cropped as the
// model saw it, at display size) and ?kind=input that picture alone
// (app/.server/demoResult.server.ts, docs/datasets.md "The demo's result").
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getUser } from "~/.server/session.server.ts";
import { resultImage } from "~/.server/classification.server.ts";
import { shownImages } from "~/.server/demoResult.server.ts";
import { noResultResponse, pngResponse } from "~/.server/resultImages.server.ts";
import { CLASSIFICATION_MSG } from "~/lib/rules/classification.ts";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await getUser(request);
  const asked = new URL(request.url).searchParams.get("kind");
  const kind = asked === "overlay" || asked === "input" ? asked : "heatmap";
  const png = kind === "heatmap" ? await resultImage(viewer, params.cacheId, kind) : (await shownImages(viewer, params.cacheId))?.[kind];
  // A resource route: its 404 is plain text in the visitor's language (no layout translates it).
  if (!png) throw await noResultResponse(request, CLASSIFICATION_MSG.noResult);
  return pngResponse(png);
}
