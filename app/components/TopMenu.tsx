import { Form, NavLink } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { CurrentUser } from "~/.server/session.server.ts";
import type { Language } from "~/i18n/config.ts";

const ENTRIES = [
  { to: "/homepage", key: "menu.home" },
  { to: "/Algorithm", key: "menu.tutorial" },
  { to: "/leaderboard", key: "menu.leaderboard" },
  { to: "/datasetPreview", key: "menu.datasets" },
  { to: "/submission", key: "menu.submission" },
  { to: "/history", key: "menu.history" },
] as const;

export function TopMenu({ user, locale, path }: { user: CurrentUser | null; locale: Language; path: string }) {
  const { t } = useTranslation();
  const entries = user?.isAdmin ? [...ENTRIES, { to: "/approval", key: "menu.approval" } as const] : ENTRIES;
  return (
    <header className="topbar">
      <a className="brand" href="/homepage">
        <span className="brand-mark">M</span> {t("brand")}
      </a>
      <nav className="topnav" aria-label={t("menu.label")}>
        {entries.map((e) => (
          <NavLink key={e.to} to={e.to} className={({ isActive }) => "topnav-item" + (isActive ? " active" : "")}>
            {t(e.key)}
          </NavLink>
        ))}
      </nav>
      <div className="topbar-right">
        {/* A plain form: the toggle works without JavaScript (app/routes/language.tsx). */}
        <Form method="post" action="/language" className="language-toggle">
          <input type="hidden" name="lng" value={locale === "zh" ? "en" : "zh"} />
          <input type="hidden" name="redirectTo" value={path} />
          <button type="submit" className="linklike" title={t("language.switchToName")} lang={locale === "zh" ? "en" : "zh-CN"}>
            <i className="pi pi-globe" aria-hidden="true" /> {t("language.switchTo")}
          </button>
        </Form>
        {user ? (
          // <details> opens without JavaScript; the sign-out button is a real form POST.
          <details className="user-menu">
            <summary>
              <i className="pi pi-user" /> {user.username}
            </summary>
            <div className="user-menu-panel">
              <a href="/profile">{t("user.profile")}</a>
              {user.isAdmin ? <a href="/admin">{t("user.admin")}</a> : null}
              <Form method="post" action="/signout">
                <button type="submit" className="linklike">
                  {t("user.signOut")}
                </button>
              </Form>
            </div>
          </details>
        ) : (
          <a className="login-link" href="/signin">
            {t("user.signIn")}
          </a>
        )}
      </div>
    </header>
  );
}
