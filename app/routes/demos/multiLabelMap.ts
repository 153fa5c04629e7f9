// Maps of a cached class explanation on /voc: ?kind=heatmap (the attribution as a colour map) or
// overlay (over the input), served only to viewers who may see the picture; anyone else gets 404.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getUser } from "~/.server/session.server.ts";
import { classMapImage } from "~/.server/multilabel.server.ts";
import { noResultResponse, pngResponse } from "~/.server/resultImages.server.ts";
import { MULTILABEL_MSG } from "~/lib/rules/multilabel.ts";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await getUser(request);
  const kind = new URL(request.url).searchParams.get("kind") === "overlay" ? "overlay" : "heatmap";
  const png = await classMapImage(viewer, params.cacheId, kind);
  if (!png) throw await noResultResponse(request, MULTILABEL_MSG.noResult);
  return pngResponse(png);
}
