// /task → /task/create_task.
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/.server/session.server.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect("/task/create_task");
}
