import { Form, NavLink } from "@remix-run/react";
import type { CurrentUser } from "~/.server/session.server.ts";

const ENTRIES = [
  { to: "/homepage", label: "HOME" },
  { to: "/Algorithm", label: "TUTORIAL" },
  { to: "/leaderboard", label: "LEADERBOARD" },
  { to: "/datasetPreview", label: "DATASETS" },
  { to: "/submission", label: "SUBMISSION" },
  { to: "/history", label: "HISTORY" },
];

export function TopMenu({ user }: { user: CurrentUser | null }) {
  const entries = user?.isAdmin ? [...ENTRIES, { to: "/approval", label: "APPROVAL" }] : ENTRIES;
  return (
    <header className="topbar">
      <a className="brand" href="/homepage">
        <span className="brand-mark">M</span> Meta-Rank
      </a>
      <nav className="topnav" aria-label="Main">
        {entries.map((e) => (
          <NavLink key={e.to} to={e.to} className={({ isActive }) => "topnav-item" + (isActive ? " active" : "")}>
            {e.label}
          </NavLink>
        ))}
      </nav>
      <div className="topbar-right">
        {user ? (
          // <details> opens without JavaScript; the sign-out button is a real form POST.
          <details className="user-menu">
            <summary>
              <i className="pi pi-user" /> {user.username}
            </summary>
            <div className="user-menu-panel">
              <a href="/profile">Your profile</a>
              {user.isAdmin ? <a href="/admin">Platform management</a> : null}
              <Form method="post" action="/signout">
                <button type="submit" className="linklike">
                  Sign out
                </button>
              </Form>
            </div>
          </details>
        ) : (
          <a className="login-link" href="/signin">
            Log in / Register
          </a>
        )}
      </div>
    </header>
  );
}
