// /admin/ranking/selection.csv?suite=… — the contributor ranking's selected entries as CSV (edit
// mode), administrators only; each export is audited.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireAdmin } from "~/.server/session.server.ts";
import { exportSelection } from "~/.server/ranking.server.ts";
import { withTranslatedRefusals } from "~/.server/resourceRefusals.server.ts";

export const loader = ({ request }: LoaderFunctionArgs) => withTranslatedRefusals(request, () => load(request));

async function load(request: Request) {
  const admin = await requireAdmin(request);
  const suiteId = new URL(request.url).searchParams.get("suite") ?? "";
  const csv = suiteId ? await exportSelection(admin, suiteId) : null;
  // Nothing selected: back to the edit mode, which says so.
  if (csv === null) return redirect(`/admin/ranking?${new URLSearchParams({ suite: suiteId, edit: "1", msg: "select-first" })}`);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="ranking-selection-${suiteId.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 100)}.csv"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
