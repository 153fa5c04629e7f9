// /admin/ranking — the contributor ranking mounted inside platform management; the same data as
// /user.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import metarankHref from "~/styles/metarank.css?url";
import { requireAdmin } from "~/.server/session.server.ts";
import { contributorRanking, rankingAction } from "~/.server/ranking.server.ts";
import { ContributorRanking } from "~/components/ContributorRanking.tsx";
import { useTranslation } from "react-i18next";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: metarankHref }];

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

export default function AdminRanking() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("admin");
  return (
    <section className="card">
      <h2>{t("tabs.ranking")}</h2>
      <p className="muted">
        <Link to="/user">{t("ranking.fullPage")}</Link>
      </p>
      <ContributorRanking data={data} />
    </section>
  );
}
