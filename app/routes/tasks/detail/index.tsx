// /task_detail/$id → basic_task_info; the parent route has checked the task is the viewer's.
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/.server/session.server.ts";
import { orRefusal } from "~/.server/domainErrors.server.ts";
import { ownTask } from "~/.server/treeTasks.server.ts";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const task = await orRefusal(ownTask(user, Number(params.id)));
  return redirect(`/task_detail/${task.id}/basic_task_info`);
}
