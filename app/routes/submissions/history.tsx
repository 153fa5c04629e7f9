// HISTORY (signed-in): the user's own submissions only, newest first by default.
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import metarankHref from "~/styles/metarank.css?url";
import { requireUser } from "~/.server/session.server.ts";
import { historySortParams, listSubmissions } from "~/.server/submissionReview.server.ts";
import { SubmissionTable } from "~/components/SubmissionTable.tsx";
import { Trans, useTranslation } from "react-i18next";
import { i18nServer, requestLanguage } from "~/.server/i18n.server.ts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: metarankHref }];
export const handle = { i18n: "submission" };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.title ?? "Histories"} — Meta-Rank` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { sort, dir } = historySortParams(new URL(request.url));
  const t = await i18nServer.getFixedT(request, "submission");
  return { title: t("history.title"), rows: await listSubmissions({ userId: user.id }, sort, dir, await requestLanguage(request)), sort, dir };
}

export default function History() {
  const { rows, sort, dir } = useLoaderData<typeof loader>();
  const { t } = useTranslation("submission");
  return (
    <section className="card">
      <h1>{t("history.title")}</h1>
      <SubmissionTable rows={rows} sort={sort} dir={dir} testId="history-table" />
      {rows.length === 0 ? (
        <p className="muted">
          <Trans t={t} i18nKey="history.none" components={{ submit: <Link to="/submission" /> }} />
        </p>
      ) : null}
    </section>
  );
}
