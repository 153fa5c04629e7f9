// Admin contributor ranking (route /user).
import type { LinksFunction, MetaFunction } from "@remix-run/node";
import metarankHref from "~/styles/metarank.css?url";
import { rankingPageAction, rankingPageLoader } from "~/.server/ranking.server.ts";
import { RankingPage } from "~/components/ContributorRanking.tsx";
import { useTranslation } from "react-i18next";
import { pageTitle } from "~/lib/pageTitle.ts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: metarankHref }];
export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "admin:tabs.ranking");

export const loader = rankingPageLoader;
export const action = rankingPageAction;

export default function UserRanking() {
  const { t } = useTranslation("admin");
  return (
    <RankingPage>
      <h1>{t("tabs.ranking")}</h1>
    </RankingPage>
  );
}
