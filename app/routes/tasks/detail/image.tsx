// /task_detail/$id/image/$imageId: one training image of the viewer's own task (PNG); another
// user's is 404 like an unknown one.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/.server/session.server.ts";
import { orRefusal } from "~/.server/domainErrors.server.ts";
import { treeTaskImageFile } from "~/.server/treeTaskViews.server.ts";
import { withTranslatedRefusals } from "~/.server/resourceRefusals.server.ts";

export const loader = ({ request, params }: LoaderFunctionArgs) => withTranslatedRefusals(request, () => load(request, params));

async function load(request: Request, params: LoaderFunctionArgs["params"]) {
  const user = await requireUser(request);
  const png = await orRefusal(treeTaskImageFile(user, Number(params.id), Number(params.imageId)));
  return new Response(png, { headers: { "Content-Type": "image/png", "Cache-Control": "private, max-age=3600", "X-Content-Type-Options": "nosniff" } });
}
