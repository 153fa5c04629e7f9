// GET /tcav/progress?key=… — how far the /tcav page's running TCAV request is (concept
// activation vectors done of total), for the page's progress bar while its form submits.
// app/.server/progress.server.ts says where the numbers come from; an unknown key is a 404.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { PROGRESS_KEY, readProgress } from "~/.server/progress.server.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  const key = new URL(request.url).searchParams.get("key") ?? "";
  const p = PROGRESS_KEY.test(key) ? await readProgress(key) : null;
  if (!p) return Response.json({ error: "no such request" }, { status: 404, headers: { "Cache-Control": "no-store" } });
  return Response.json(p, { headers: { "Cache-Control": "no-store" } });
}
