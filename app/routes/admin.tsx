// /admin — platform management (seed 000 §2: staff only; its index redirects to manage_server).
// Every child checks the administrator itself too: loaders run in parallel, and actions alone.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { NavLink, Outlet } from "@remix-run/react";
import { requireAdmin } from "~/.server/session.server.ts";

export const meta: MetaFunction = () => [{ title: "Platform management — Meta-Rank" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return {};
}

export default function Admin() {
  const tab = ({ isActive }: { isActive: boolean }) => "tab" + (isActive ? " active" : "");
  return (
    <section>
      <h1>Platform management</h1>
      <nav className="tabs" aria-label="Platform management">
        <NavLink to="/admin/manage_server" className={tab}>
          Server management
        </NavLink>
        <NavLink to="/admin/ranking" className={tab}>
          Contributor ranking
        </NavLink>
        <NavLink to="/admin/evaluations" className={tab}>
          Evaluations
        </NavLink>
        {/* bull-board is an Express app beside Remix: a full page load, not a client navigation. */}
        <a href="/admin/queues" className="tab" data-testid="queues-link">
          Job queues
        </a>
      </nav>
      <Outlet />
    </section>
  );
}
