// HISTORY (signed-in): the user's own submissions only, newest first by default.
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import metarankHref from "~/styles/metarank.css?url";
import { requireUser } from "~/.server/session.server.ts";
import { historySortParams, listSubmissions } from "~/.server/submissions.server.ts";
import { SubmissionTable } from "~/components/SubmissionTable.tsx";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: metarankHref }];
export const meta: MetaFunction = () => [{ title: "Histories — Meta-Rank" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { sort, dir } = historySortParams(new URL(request.url));
  return { rows: await listSubmissions({ userId: user.id }, sort, dir), sort, dir };
}

export default function History() {
  const { rows, sort, dir } = useLoaderData<typeof loader>();
  return (
    <section className="card">
      <h1>Histories</h1>
      <SubmissionTable rows={rows} sort={sort} dir={dir} testId="history-table" />
      {rows.length === 0 ? (
        <p className="muted">
          You have not submitted an algorithm yet. <Link to="/submission">Submit one</Link>.
        </p>
      ) : null}
    </section>
  );
}
