// A stored picture (or its thumbnail with ?size=thumb), served only to those who may see its
// dataset: another user's private picture is 404, exactly like a picture that does not exist.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getUser } from "~/.server/session.server.ts";
import { findVisiblePicture, notFound } from "~/.server/datasets.server.ts";
import { mimeOfStored, readStored } from "~/.server/pictures.server.ts";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await getUser(request);
  const found = await findVisiblePicture(params.pictureId, viewer);
  if (!found) throw notFound();
  const thumb = new URL(request.url).searchParams.get("size") === "thumb";
  const rel = thumb ? found.picture.thumbPath : found.picture.filePath;
  const bytes = await readStored(rel);
  if (!bytes) throw notFound();
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
