import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdmin } from "~/.server/session.server.ts";

// /admin shows manage_server (seed 000 §2); the check first, so a user gets 403, not a redirect.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return redirect("/admin/manage_server");
}
