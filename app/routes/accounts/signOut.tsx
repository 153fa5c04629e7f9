import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { endSession } from "~/.server/session.server.ts";

export async function action({ request }: ActionFunctionArgs) {
  return redirect("/homepage", { headers: { "Set-Cookie": await endSession(request) } });
}

export async function loader() {
  return redirect("/homepage");
}
