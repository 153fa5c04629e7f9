import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdmin } from "~/.server/session.server.ts";

// /admin shows manage_server; the check first, so a user gets 403, not a redirect.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return redirect("/admin/manage_server");
}

// A page route, not a resource route: without a component Remix sent the thrown 403 as it was (the
// message key in plain text) instead of rendering the layout's translated error page.
export default function AdminIndex() {
  return null;
}
