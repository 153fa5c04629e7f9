// A detection's crack mask, served only to those who may see its run's dataset (404 otherwise,
// exactly like a mask that does not exist). ?style=overlay gives the mask as red on transparent,
// which the results grid lays over the photo.
import type { LoaderFunctionArgs } from "@remix-run/node";
import sharp from "sharp";
import { visibleMask } from "~/.server/inspection.server.ts";
import { getUser } from "~/.server/session.server.ts";

const notFound = () => new Response("Not Found", { status: 404, statusText: "Not Found", headers: { "Content-Type": "text/plain; charset=utf-8" } });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const mask = await visibleMask(params.detectionId, await getUser(request));
  if (!mask) throw notFound();
  const overlay = new URL(request.url).searchParams.get("style") === "overlay";
  let bytes: Buffer = mask;
  if (overlay) {
    const grey = sharp(mask).extractChannel(0);
    const { width, height } = await grey.metadata();
    const alpha = await grey.raw().toBuffer();
    bytes = await sharp({ create: { width: width!, height: height!, channels: 3, background: { r: 239, g: 68, b: 68 } } })
      .joinChannel(alpha, { raw: { width: width!, height: height!, channels: 1 } })
      .png()
      .toBuffer();
  }
  return new Response(bytes, {
    headers: {
      "Content-Type": "image/png",
      "Content-Length": String(bytes.length),
      "Cache-Control": "private, max-age=300",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
