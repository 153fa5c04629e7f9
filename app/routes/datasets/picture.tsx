// A stored picture (or its thumbnail with ?size=thumb), served only to those who may see its
// dataset: another user's private picture is 404, exactly like a picture that does not exist.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getUser } from "~/.server/session.server.ts";
import { findVisiblePicture } from "~/.server/datasets.server.ts";
import { i18nServer } from "~/.server/i18n.server.ts";
import { mimeOfStored, readStored } from "~/.server/pictures.server.ts";
import { DATASET_MSG } from "~/lib/rules/datasets.ts";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await getUser(request);
  // A resource route: its 404 is plain text in the visitor's language (no layout translates it).
  const notFound = async () => {
    const t = await i18nServer.getFixedT(request, "datasets");
    return new Response(t(DATASET_MSG.notFound), { status: 404, statusText: "Not Found", headers: { "Content-Type": "text/plain; charset=utf-8" } });
  };
  const found = await findVisiblePicture(params.pictureId, viewer);
  if (!found) throw await notFound();
  const thumb = new URL(request.url).searchParams.get("size") === "thumb";
  const rel = thumb ? found.picture.thumbPath : found.picture.filePath;
  const bytes = await readStored(rel);
  if (!bytes) throw await notFound();
  return new Response(bytes, {
    headers: {
      "Content-Type": thumb ? "image/png" : found.picture.mimeType || mimeOfStored(rel),
      "Content-Length": String(bytes.length),
      // Private: visibility can change (a picture deleted, a dataset removed), so no shared caches.
      "Cache-Control": "private, max-age=300",
      "X-Content-Type-Options": "nosniff",
      "Content-Disposition": `inline; filename="picture-${found.picture.id}.${rel.split(".").pop()}"`,
    },
  });
}
