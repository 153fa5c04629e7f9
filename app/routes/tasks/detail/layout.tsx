// /task_detail/$id: one of the signed-in user's tasks, with tabs basic_task_info, training_log,
// vis_scalars, vis_images and vis_stages (/task_detail/$id itself redirects to basic_task_info).
// Another user's task, or an unknown one, is 任务不存在或无权限 with status 404. While the task is queued or
// running the page reloads its data every 3 s with JavaScript (every tab is live); without
// JavaScript a refresh link does.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/.server/session.server.ts";
import { orRefusal } from "~/.server/domainErrors.server.ts";
import { i18nServer } from "~/.server/i18n.server.ts";
import { ownTask } from "~/.server/treeTasks.server.ts";
import { toTaskRecord } from "~/.server/treeTaskViews.server.ts";
import { TaskProgress } from "~/components/tasks/TaskProgress.tsx";
import { usePeriodicRevalidation } from "~/lib/usePeriodicRevalidation.ts";

export const handle = { i18n: ["tasks"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Meta-Rank" }];

export const TABS = ["basic_task_info", "training_log", "vis_scalars", "vis_images", "vis_stages"] as const;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const task = toTaskRecord(await orRefusal(ownTask(user, Number(params.id))));
  const t = await i18nServer.getFixedT(request, "tasks");
  return { task, title: t("detail.metaTitle", { name: task.name }), active: task.state === "queued" || task.state === "running" };
}

export default function TaskDetail() {
  const { task, active } = useLoaderData<typeof loader>();
  const { t } = useTranslation("tasks");
  usePeriodicRevalidation(3000, active);
  return (
    <section className="card task-detail" data-task-id={task.id} data-state={task.state}>
      <p>
        <Link to="/task/my_tasks">← {t("myTasksTab")}</Link>
      </p>
      <h1>{t("detail.title", { name: task.name })}</h1>
      <TaskProgress task={task} />
      {active ? (
        <p>
          <a href="?" data-testid="refresh">
            {t("refresh")}
          </a>
        </p>
      ) : null}
      <nav className="tabs" aria-label={t("detail.tabs")} style={{ display: "flex", gap: "1rem", flexWrap: "wrap", margin: "1rem 0" }}>
        {TABS.map((tab) => (
          <NavLink key={tab} to={`/task_detail/${task.id}/${tab}`} prefetch="intent">
            {t(`detail.tab.${tab}`)}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </section>
  );
}
