// What the demos' result-picture routes answer (/explanation/<id>, /segmentation/<id>,
// /voc/map/<id>): the stored PNG, kept by the browser for five minutes and only for this viewer
// (the picture's visibility was checked), never sniffed as another type; or, when the viewer may
// not see it or it does not exist, a 404 whose plain-text body is the demo's "no result" message
// in the visitor's language (a resource route has no page to translate it: docs/i18n.md "Messages from rules").
import { translateRefusal } from "~/.server/resourceRefusals.server.ts";

/** A stored result picture as the route's answer. */
export function pngResponse(png: Buffer): Response {
  return new Response(png, {
    headers: {
      "Content-Type": "image/png",
      "Content-Length": String(png.length),
      "Cache-Control": "private, max-age=300",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** The route's 404: `noResult` (the demo's message ref) translated for the request, as every resource route's refusal is. */
export function noResultResponse(request: Request, noResult: string): Promise<Response> {
  return translateRefusal(request, new Response(noResult, { status: 404, statusText: "Not Found", headers: { "Content-Type": "text/plain; charset=utf-8" } }));
}
