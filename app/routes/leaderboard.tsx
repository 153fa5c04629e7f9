// LEADERBOARD (public, server-rendered): every suite's board — overall, MoRF-only and
// LeRF-only — 8 rows a page, each table paged by its own query parameter.
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import metarankHref from "~/styles/metarank.css?url";
import { chooseSuite, listSuites, pageParam, paginate, suiteBoards } from "~/.server/board.server.ts";
import { RankTable, useHrefWith } from "~/components/RankTable.tsx";
import { HEATMAP_METHODS, suiteInconsistency } from "~/.server/inconsistency.server.ts";
import { Inconsistency } from "~/components/Inconsistency.tsx";

export const handle = { i18n: ["common", "board"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: metarankHref }];
export const meta: MetaFunction = () => [{ title: "Leaderboard — Meta-Rank" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const suites = await listSuites();
  const suite = chooseSuite(suites, url.searchParams.get("suite"));
  if (!suite) return { suites: [], suite: null, boards: null, inconsistency: null };
  const [{ overall, morf, lerf }, inconsistency] = await Promise.all([suiteBoards(suite.id, ["overall", "morf", "lerf"] as const), suiteInconsistency(suite)]);
  return {
    suites: suites.map((s) => ({ id: s.id, name: s.name, methods: s.methods })),
    suite,
    boards: {
      overall: paginate(overall, pageParam(url, "page")),
      morf: paginate(morf, pageParam(url, "morfPage")),
      lerf: paginate(lerf, pageParam(url, "lerfPage")),
    },
    inconsistency: inconsistency ? { ...inconsistency, limit: HEATMAP_METHODS } : null,
  };
}

export default function Leaderboard() {
  const { suites, suite, boards, inconsistency } = useLoaderData<typeof loader>();
  const hrefWith = useHrefWith();
  if (!suite || !boards) {
    return (
      <section className="card">
        <h1>Leaderboard</h1>
        <p>
          No benchmark suite is installed yet. An operator seeds them from <code>seeds/suites/</code> (see its README).
        </p>
      </section>
    );
  }
  const empty = boards.overall.total === 0;
  return (
    <section className="card">
      <h1>Leaderboard</h1>
      {suites.length > 1 ? (
        <nav className="tabs" aria-label="Suites">
          {suites.map((s) => (
            <Link
              key={s.id}
              to={`?suite=${encodeURIComponent(s.id)}`}
              className={"tab" + (s.id === suite.id ? " active" : "")}
              aria-current={s.id === suite.id ? "page" : undefined}
            >
              {s.name} <span className="muted">({s.methods})</span>
            </Link>
          ))}
        </nav>
      ) : null}
      <h2 data-testid="suite-name">{suite.name}</h2>
      <p className="muted">{suite.description}</p>
      <p className="muted">
        {suite.tasks.length} tasks × MoRF and LeRF = {suite.tasks.length * 2} cases · patch size {suite.patchSize} · filler {suite.filler.join(" ")} · removal
        fractions {suite.grid.join(", ")}. Metascore κ: pairwise wins over every case, through a logit; higher is better (
        <Link to="/Algorithm">how it works</Link>).
      </p>
      {empty ? (
        <div className="empty-board" data-testid="empty-board">
          <p>
            <strong>This suite has no baseline methods yet, so its board is empty.</strong> No published baseline numbers are shipped with it and none are
            invented.
          </p>
          <p>
            An operator imports baselines by putting one folder per method (<code>morf.csv</code>, <code>lerf.csv</code>, <code>method.json</code> with
            contributor, institute and algorithm) next to a copy of this suite's <code>suite.json</code> and running{" "}
            <code>make import-baselines DIR=path/to/that-folder</code>. Every file is checked as submissions are; nothing is imported if any file has a problem.
            Signed-in researchers can also <Link to={`/submission?suite=${encodeURIComponent(suite.id)}`}>submit their algorithm</Link>; approved submissions
            join this board.
          </p>
        </div>
      ) : null}
      <RankTable title="Meta-Rank" page={boards.overall} param="page" testId="board-overall" />
      <div className="boards-2">
        <RankTable title="MoRF-only ranking" page={boards.morf} param="morfPage" testId="board-morf" showLocalisation={false} />
        <RankTable title="LeRF-only ranking" page={boards.lerf} param="lerfPage" testId="board-lerf" showLocalisation={false} />
      </div>
      <p className="muted">
        The MoRF-only and LeRF-only boards apply the same metascore to one removal order's cases.{" "}
        <Link to={hrefWith({ page: null, morfPage: null, lerfPage: null })}>First pages</Link>
      </p>
      {inconsistency ? <Inconsistency data={inconsistency} suiteId={suite.id} limit={inconsistency.limit} /> : null}
    </section>
  );
}
