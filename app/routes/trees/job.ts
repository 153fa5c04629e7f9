// A tree job's state for the page's polling (adjust whole tree: its progress is polled, and the
// page stops after more than 10 failed polls): the caller's own job only, another user's id is a
// 404 like an unknown one (app/.server/trees.server.ts treeJobFor).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/.server/session.server.ts";
import { treeJobFor } from "~/.server/trees.server.ts";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const job = await treeJobFor(user, params.jobId);
  if (!job) return Response.json({ error: "not found" }, { status: 404 });
  return Response.json(job, { headers: { "Cache-Control": "no-store" } });
}
