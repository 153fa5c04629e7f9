// Attribution images of a cached classification result (?kind=heatmap|overlay), served only to
// viewers who may see the explained picture; anyone else gets 404.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getUser } from "~/.server/session.server.ts";
import { resultImage } from "~/.server/classification.server.ts";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await getUser(request);
  const kind = new URL(request.url).searchParams.get("kind") === "overlay" ? "overlay" : "heatmap";
  const png = await resultImage(viewer, params.cacheId, kind);
  if (!png) throw new Response("There is no such result.", { status: 404, statusText: "Not Found" });
  return new Response(png, {
    headers: {
      "Content-Type": "image/png",
      "Content-Length": String(png.length),
      "Cache-Control": "private, max-age=300",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
