// Images of a cached segmentation result (/UserImgsegmentation): ?kind=segmentation (the
// prediction, a colour per class), heatmap or overlay (the attribution of one part), served only
// to viewers who may see the picture; anyone else gets 404.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getUser } from "~/.server/session.server.ts";
import { segImage } from "~/.server/segmentation.server.ts";
import { i18nServer } from "~/.server/i18n.server.ts";
import { SEGMENTATION_MSG } from "~/lib/rules/segmentation.ts";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await getUser(request);
  const asked = new URL(request.url).searchParams.get("kind");
  const kind = asked === "overlay" ? "overlay" : "heatmap";
  const png = await segImage(viewer, params.cacheId, kind);
  if (!png) {
    const t = await i18nServer.getFixedT(request, "demo");
    throw new Response(t(SEGMENTATION_MSG.noResult), { status: 404, statusText: "Not Found", headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  return new Response(png, {
    headers: {
      "Content-Type": "image/png",
      "Content-Length": String(png.length),
      "Cache-Control": "private, max-age=300",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
