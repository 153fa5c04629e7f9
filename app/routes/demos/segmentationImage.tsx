// Images of a cached segmentation result (/UserImgsegmentation): ?kind=segmentation (the
// prediction, a colour per class), heatmap or overlay (the attribution of one part), served only
// to viewers who may see the picture; anyone else gets 404.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getUser } from "~/.server/session.server.ts";
import { segImage } from "~/.server/segmentation.server.ts";
import { noResultResponse, pngResponse } from "~/.server/resultImages.server.ts";
import { SEGMENTATION_MSG } from "~/lib/rules/segmentation.ts";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await getUser(request);
  const asked = new URL(request.url).searchParams.get("kind");
  const kind = asked === "overlay" ? "overlay" : "heatmap";
  const png = await segImage(viewer, params.cacheId, kind);
  if (!png) throw await noResultResponse(request, SEGMENTATION_MSG.noResult);
  return pngResponse(png);
}
