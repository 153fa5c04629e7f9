// Downloads of a submission's stored files (/files/submission/:id/morf|lerf|python|maps):
// administrators and the submission's owner only; 403 for anyone else.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/.server/session.server.ts";
import { submissionFile } from "~/.server/submissionReview.server.ts";
import type { FileKind } from "~/.server/submissionFiles.server.ts";
import { withTranslatedRefusals } from "~/.server/resourceRefusals.server.ts";
import { MSG } from "~/lib/rules/submission.ts";

const KINDS: readonly FileKind[] = ["morf", "lerf", "python", "maps"];
const TYPES: Record<FileKind, string> = {
  morf: "text/csv; charset=utf-8",
  lerf: "text/csv; charset=utf-8",
  python: "text/x-python; charset=utf-8",
  maps: "application/zip",
};

export const loader = ({ request, params }: LoaderFunctionArgs) => withTranslatedRefusals(request, () => load(request, params));

async function load(request: Request, params: LoaderFunctionArgs["params"]) {
  const user = await requireUser(request);
  const id = Number(params.id);
  const kind = params.kind as FileKind;
  if (!Number.isInteger(id) || id <= 0 || !KINDS.includes(kind)) throw new Response("common:error.notFoundDetail", { status: 404 });
  const file = await submissionFile(user, id, kind);
  if (file.status === 403) throw new Response(MSG.fileForbidden, { status: 403 });
  if (file.status === 404) throw new Response(MSG.noSuchFile, { status: 404 });
  // The stored name is the client's, cleaned; quote it for the header and give a UTF-8 form too.
  const ascii = file.name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return new Response(file.content, {
    headers: {
      "Content-Type": TYPES[kind],
      "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
