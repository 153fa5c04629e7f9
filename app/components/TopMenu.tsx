// The top bar: every area of the platform (app/lib/navigation.ts), the language toggle and the
// user menu. Everything opens without JavaScript: groups are <details>, the phone-width menu is
// a checkbox and its label, the toggle and sign-out are plain forms.
import { Form, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef, type MouseEvent as ReactMouseEvent } from "react";
import { useTranslation } from "react-i18next";
import type { CurrentUser } from "~/.server/session.server.ts";
import type { Language } from "~/i18n/config.ts";
import { isGroup, menuFor } from "~/lib/navigation.ts";

export function TopMenu({ user, locale, path }: { user: CurrentUser | null; locale: Language; path: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  const header = useRef<HTMLElement>(null);
  // An open menu closes when one of its links is followed or the user clicks outside it. This is
  // done on the click itself, not in an effect on the new location: such an effect ran after the
  // navigation had committed and closed a group the user had opened meanwhile (a full page load
  // starts closed anyway).
  useEffect(() => {
    const closeOutside = (ev: MouseEvent) => {
      const target = ev.target as Node | null;
      header.current?.querySelectorAll("details[open]").forEach((d) => {
        if (!target || !d.contains(target)) d.removeAttribute("open");
      });
    };
    document.addEventListener("click", closeOutside);
    return () => document.removeEventListener("click", closeOutside);
  }, []);
  const closeMenus = (ev: ReactMouseEvent<HTMLElement>) => {
    ev.currentTarget.closest("details")?.removeAttribute("open");
    const toggle = header.current?.querySelector<HTMLInputElement>("#topnav-toggle");
    if (toggle) toggle.checked = false;
  };
  const entries = menuFor(user);
  return (
    <header className="topbar" ref={header}>
      <a className="brand" href="/homepage">
        <span className="brand-mark">M</span> {t("brand")}
      </a>
      <input type="checkbox" id="topnav-toggle" className="topnav-toggle" aria-hidden="true" tabIndex={-1} />
      <label htmlFor="topnav-toggle" className="topnav-toggle-label">
        <i className="pi pi-bars" aria-hidden="true" /> {t("menu.open")}
      </label>
      <nav className="topnav" aria-label={t("menu.label")}>
        {entries.map((e) =>
          isGroup(e) ? (
            <details key={e.key} className="topnav-group">
              <summary className={"topnav-item" + (e.links.some((l) => location.pathname === l.to) ? " active" : "")}>
                {t(e.key)} <i className="pi pi-angle-down" aria-hidden="true" />
              </summary>
              <div className="topnav-panel">
                {e.links.map((l) => (
                  <NavLink key={l.to} to={l.to} onClick={closeMenus}>
                    {t(l.key)}
                  </NavLink>
                ))}
              </div>
            </details>
          ) : (
            <NavLink key={e.to} to={e.to} onClick={closeMenus} className={({ isActive }) => "topnav-item" + (isActive ? " active" : "")}>
              {t(e.key)}
            </NavLink>
          ),
        )}
      </nav>
      <div className="topbar-right">
        <Form method="post" action="/language" className="language-toggle">
          <input type="hidden" name="lng" value={locale === "zh" ? "en" : "zh"} />
          <input type="hidden" name="redirectTo" value={path} />
          <button type="submit" className="linklike" title={t("language.switchToName")} lang={locale === "zh" ? "en" : "zh-CN"}>
            <i className="pi pi-globe" aria-hidden="true" /> {t("language.switchTo")}
          </button>
        </Form>
        {user ? (
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
