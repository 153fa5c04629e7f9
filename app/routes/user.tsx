// Admin contributor ranking (route /user).
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import metarankHref from "~/styles/metarank.css?url";
import { requireAdmin } from "~/.server/session.server.ts";
import { contributorRanking, rankingAction } from "~/.server/ranking.server.ts";
import { ContributorRanking } from "~/components/ContributorRanking.tsx";
import { useTranslation } from "react-i18next";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: metarankHref }];
export const meta: MetaFunction = () => [{ title: "Contributor ranking — Meta-Rank" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return contributorRanking(new URL(request.url));
}

/** The edit mode's forms (select, select all, clear, hide, restore): app/.server/ranking.server.ts. */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const r = await rankingAction(request, admin);
  return "back" in r ? redirect(r.back) : r.quiet;
}

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
