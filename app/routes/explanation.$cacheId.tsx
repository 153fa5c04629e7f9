// Attribution images of a cached classification result, served only to viewers who may see the
// explained picture; anyone else gets 404. ?kind=heatmap is the sidecar's colour map as stored;
// ?kind=overlay is that map laid over the picture the visitor sees (its own colours, cropped as the
// model saw it, at display size) and ?kind=input that picture alone
// (app/.server/demoResult.server.ts, docs/datasets.md "The demo's result").
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getUser } from "~/.server/session.server.ts";
import { resultImage } from "~/.server/classification.server.ts";
import { shownImages } from "~/.server/demoResult.server.ts";
import { i18nServer } from "~/.server/i18n.server.ts";
import { CLASSIFICATION_MSG } from "~/lib/rules/classification.ts";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await getUser(request);
  const asked = new URL(request.url).searchParams.get("kind");
  const kind = asked === "overlay" || asked === "input" ? asked : "heatmap";
  const png = kind === "heatmap" ? await resultImage(viewer, params.cacheId, kind) : (await shownImages(viewer, params.cacheId))?.[kind];
  if (!png) {
    // A resource route: its 404 is plain text in the visitor's language (no layout translates it).
    const t = await i18nServer.getFixedT(request, "demo");
    throw new Response(t(CLASSIFICATION_MSG.noResult), { status: 404, statusText: "Not Found", headers: { "Content-Type": "text/plain; charset=utf-8" } });
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
