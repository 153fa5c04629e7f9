// Admin contributor ranking (route /user).
import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import metarankHref from "~/styles/metarank.css?url";
import { rankingPageAction, rankingPageLoader } from "~/.server/ranking.server.ts";
import { ContributorRanking } from "~/components/ContributorRanking.tsx";
import { useTranslation } from "react-i18next";
import { pageTitle } from "~/lib/pageTitle.ts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: metarankHref }];
export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "admin:tabs.ranking");

export const loader = rankingPageLoader;
export const action = rankingPageAction;

export default function UserRanking() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("admin");
  return (
    <section className="card">
      <h1>{t("tabs.ranking")}</h1>
      <ContributorRanking data={data} />
    </section>
  );
}
