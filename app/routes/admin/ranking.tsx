// /admin/ranking — the contributor ranking mounted inside platform management; the same data as
// /user.
import type { LinksFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import metarankHref from "~/styles/metarank.css?url";
import { rankingPageAction, rankingPageLoader } from "~/.server/ranking.server.ts";
import { RankingPage } from "~/components/ContributorRanking.tsx";
import { useTranslation } from "react-i18next";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: metarankHref }];

export const loader = rankingPageLoader;
export const action = rankingPageAction;

export default function AdminRanking() {
  const { t } = useTranslation("admin");
  return (
    <RankingPage>
      <h2>{t("tabs.ranking")}</h2>
      <p className="muted">
        <Link to="/user">{t("ranking.fullPage")}</Link>
      </p>
    </RankingPage>
  );
}
