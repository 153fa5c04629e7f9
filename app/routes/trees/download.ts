// Tree downloads (docs/tree-service.md "Downloads": the HD vector graphic and the node prototypes;
// on the car page each tree step's links): /trees/<tree id>/svg|pdf|zip, ?full=1 for the tree
// before pruning, ?download=1 to save instead of show. The drawing includes the caller's pending
// edits, as the page does. Only a tree the caller may use (platform or their own) is served; any
// other id is the same 404 as an unknown one (app/.server/trees.server.ts).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/.server/session.server.ts";
import { NotFoundError, orRefusal } from "~/.server/domainErrors.server.ts";
import { EXPORT_FORMATS, TreeCallFailed, exportTree, listEdits, listTrees, type ExportFormat } from "~/.server/trees.server.ts";
import { TREE_ID, TREE_MSG } from "~/lib/rules/trees.ts";
import { withTranslatedRefusals } from "~/.server/resourceRefusals.server.ts";

export const loader = ({ request, params }: LoaderFunctionArgs) => withTranslatedRefusals(request, () => load(request, params));

async function load(request: Request, params: LoaderFunctionArgs["params"]) {
  const user = await requireUser(request);
  const treeId = params.treeId ?? "";
  const format = params.format ?? "";
  if (!TREE_ID.test(treeId) || !(format in EXPORT_FORMATS)) throw new Response(TREE_MSG.notFound, { status: 404 });
  const sp = new URL(request.url).searchParams;
  try {
    const visible = await orRefusal(listTrees(user));
    if (!visible.some((t) => t.treeId === treeId)) throw new NotFoundError(TREE_MSG.notFound);
    const file = await orRefusal(exportTree(user, treeId, format as ExportFormat, sp.get("full") === "1", await listEdits(user.id, treeId), request.signal));
    const safeName = file.fileName.replace(/[^\w.-]/g, "_").slice(0, 120) || `tree.${EXPORT_FORMATS[format as ExportFormat]}`;
    const attach = sp.get("download") === "1" || format !== "svg";
    return new Response(file.body, {
      headers: {
        "Content-Type": file.contentType,
        "Content-Length": String(file.body.length),
        "Content-Disposition": `${attach ? "attachment" : "inline"}; filename="${safeName}"`,
        // An SVG from the sidecar is shown as an image; no script in it may run on this origin.
        "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "private, no-store",
      },
    });
  } catch (e) {
    if (e instanceof NotFoundError) throw new Response(TREE_MSG.notFound, { status: 404 });
    if (e instanceof TreeCallFailed) throw new Response(e.detail, { status: e.busy ? 503 : 502 });
    throw e;
  }
}
