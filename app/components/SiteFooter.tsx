import { useTranslation } from "react-i18next";

/** Team and contact come from the server's configuration (SITE_TEAM, SITE_CONTACT in the README). */
export function SiteFooter({ site }: { site: { team: string | null; contact: string | null } | null }) {
  const { t } = useTranslation();
  return (
    <footer className="site-footer">
      {site ? (
        <>
          <p>{t("footer.team", { team: site.team ?? t("footer.defaultTeam") })}</p>
          {/* Unset, there is no one to name: a line saying so on every page helped nobody. */}
          {site.contact ? <p>{t("footer.contact", { contact: site.contact })}</p> : null}
        </>
      ) : null}
      <p>{t("footer.copyright", { year: 2023 })}</p>
    </footer>
  );
}
