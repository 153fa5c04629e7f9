// /task ("explainable tasks"): the tasks area for signed-in users, with its two pages as tabs:
// create_task and my_tasks (/task itself redirects to create_task).
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { NavLink, Outlet } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/.server/session.server.ts";
import { i18nServer } from "~/.server/i18n.server.ts";

export const handle = { i18n: ["tasks"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Meta-Rank" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const t = await i18nServer.getFixedT(request, "tasks");
  return { title: t("metaTitle") };
}

export default function TasksLayout() {
  const { t } = useTranslation("tasks");
  return (
    <section className="card tasks">
      <h1>{t("title")}</h1>
      <nav className="tabs" aria-label={t("title")} style={{ display: "flex", gap: "1rem", marginBottom: "1rem" }}>
        <NavLink to="/task/create_task" prefetch="intent">
          {t("createTab")}
        </NavLink>
        <NavLink to="/task/my_tasks" prefetch="intent">
          {t("myTasksTab")}
        </NavLink>
      </nav>
      <Outlet />
    </section>
  );
}
