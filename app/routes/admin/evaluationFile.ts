// /admin/evaluations/:id/(morf.csv|lerf.csv|images.json) — a finished evaluation run's
// result files, administrators only (403 for anyone else, log in for visitors).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAdmin } from "~/.server/session.server.ts";
import { evaluationFile } from "~/.server/evaluations.server.ts";
import { withTranslatedRefusals } from "~/.server/resourceRefusals.server.ts";
import { MSG } from "~/lib/rules/evaluation.ts";

export const loader = ({ request, params }: LoaderFunctionArgs) => withTranslatedRefusals(request, () => load(request, params));

async function load(request: Request, params: LoaderFunctionArgs["params"]) {
  await requireAdmin(request);
  const file = await evaluationFile(Number(params.id), String(params.file ?? ""));
  if (!file) throw new Response(MSG.noFile, { status: 404 });
  return new Response(file.body, {
    headers: {
      "Content-Type": file.type,
      // The name is built from the suite id, method name and run id, none of them typed freely
      // beyond 100 characters; non-ASCII and quotes are replaced so the header stays well formed.
      "Content-Disposition": `attachment; filename="${file.name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_")}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
