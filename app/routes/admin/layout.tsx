// /admin — platform management (staff only; its index redirects to manage_server). Every child
// checks the administrator itself too: loaders run in parallel, and actions alone.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { NavLink, Outlet, useLocation } from "@remix-run/react";
import { requireAdmin } from "~/.server/session.server.ts";
import { useTranslation } from "react-i18next";
import { pageTitle } from "~/lib/pageTitle.ts";

export const handle = { i18n: "admin" };

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "admin:title");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return {};
}

/** The tabs Remix renders (the queues tab, an Express page, is a plain link below). */
const TABS = [
  ["/admin/manage_server", "admin:tabs.servers"],
  ["/admin/ranking", "admin:tabs.ranking"],
  ["/admin/evaluations", "admin:tabs.evaluations"],
  ["/admin/search_queries", "admin:tabs.searches"],
] as const;

export default function Admin() {
  const tab = ({ isActive }: { isActive: boolean }) => "tab" + (isActive ? " active" : "");
  const { t } = useTranslation("admin");
  // Remix renders /admin/queues only without Redis (its explanation page); marked open there too.
  const onQueues = useLocation().pathname === "/admin/queues";
  return (
    <section>
      <h1>{t("title")}</h1>
      <nav className="tabs" aria-label={t("title")}>
        {TABS.map(([to, label]) => (
          <NavLink key={to} to={to} className={tab}>
            {t(label)}
          </NavLink>
        ))}
        {/* bull-board is an Express app beside Remix: a full page load, not a client navigation. */}
        <a href="/admin/queues" className={tab({ isActive: onQueues })} aria-current={onQueues ? "page" : undefined} data-testid="queues-link">
          {t("tabs.queues")}
        </a>
      </nav>
      <Outlet />
    </section>
  );
}
