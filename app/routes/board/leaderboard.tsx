// LEADERBOARD (public, server-rendered): every suite's board — overall, MoRF-only and
// LeRF-only — 8 rows a page, each table paged by its own query parameter.
// Nothing on this page is personal but the top bar (app/root.tsx): the boards are one shared
// fragment and the rest of the loader's data is shared too, both kept per content version,
// language and query (app/.server/fragments.server.tsx), so a signed-in researcher's request
// renders only the top bar and the small interactive parts; the plots are lazy SVG images of
// their own (app/routes/board/plot.ts; docs/performance.md "Plots", "Fragments").
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import metarankHref from "~/styles/metarank.css?url";
import { chooseSuite, listSuites, pageParam, paginate, suiteBoards, type SuiteSummary } from "~/.server/board.server.ts";
import { RankTable, useHrefWith, type PageInfo, type RankTableRow } from "~/components/RankTable.tsx";
import { HEATMAP_METHODS, suiteInconsistency } from "~/.server/inconsistency.server.ts";
import { Inconsistency } from "~/components/Inconsistency.tsx";
import { taskCurves } from "~/.server/curves.server.ts";
import { MethodCurves, summariseCurves } from "~/components/MethodCurves.tsx";
import { TaskModels } from "~/components/TaskModels.tsx";
import { SharedHtml } from "~/components/SharedHtml.tsx";
import { Trans, useTranslation } from "react-i18next";
import { i18nServer, requestLanguage } from "~/.server/i18n.server.ts";
import { fragmentKey, sharedData, sharedFragment } from "~/.server/fragments.server.tsx";
import { publicContentVersion } from "~/.server/publicPages.server.ts";

export const handle = { i18n: ["common", "board"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: metarankHref }];
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.title ?? "Leaderboard"} — Meta-Rank` }];

interface BoardsOfSuite {
  suites: { id: string; name: string; methods: number }[];
  suite: SuiteSummary;
  boards: { overall: PageInfo<RankTableRow>; morf: PageInfo<RankTableRow>; lerf: PageInfo<RankTableRow> };
}

/** Everything the page shows for this query and language (the same for every viewer). */
async function loadBoardPage(request: Request, url: URL) {
  const suites = await listSuites(await requestLanguage(request));
  const suite = chooseSuite(suites, url.searchParams.get("suite"));
  const title = (await i18nServer.getFixedT(request, "board"))("title");
  if (!suite) return { title, body: null, inconsistency: null, curves: null, curvesTotal: 0 };
  // The curves' task: the one asked for if the suite has it, else its first.
  const asked = url.searchParams.get("curvesTask");
  const curvesTask = asked && suite.tasks.includes(asked) ? asked : suite.tasks[0];
  const [{ overall, morf, lerf }, inconsistency, curves] = await Promise.all([
    suiteBoards(suite.id, ["overall", "morf", "lerf"] as const),
    suiteInconsistency(suite),
    curvesTask ? taskCurves(suite, curvesTask) : null,
  ]);
  const body: BoardsOfSuite = {
    suites: suites.map((s) => ({ id: s.id, name: s.name, methods: s.methods })),
    suite,
    boards: {
      overall: paginate(overall, pageParam(url, "page")),
      morf: paginate(morf, pageParam(url, "morfPage")),
      lerf: paginate(lerf, pageParam(url, "lerfPage")),
    },
  };
  return {
    title,
    body,
    // The page needs the matrices' sizes and the spread table; the matrices are images.
    inconsistency: inconsistency
      ? { cases: inconsistency.cases.length, methods: inconsistency.methods.length, meanTau: inconsistency.agreement.meanTau, spread: inconsistency.spread }
      : null,
    curves: curves && curves.methods.length > 0 ? summariseCurves(curves) : null,
    curvesTotal: curves?.methods.length ?? 0,
  };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const lng = await requestLanguage(request);
  // Read before the data: a write meanwhile makes the next request load again, never this one's keep stale data.
  const version = publicContentVersion();
  const page = await sharedData(fragmentKey("leaderboard-data", lng, url.search), () => loadBoardPage(request, url));
  const { title, body, inconsistency, curves, curvesTotal } = page;
  if (!body) return { title, suiteId: null, tasks: [], version, board: null, inconsistency: null, limit: HEATMAP_METHODS, curves: null, curvesTotal: 0 };
  const board = await sharedFragment(request, context, {
    name: "leaderboard",
    lng,
    inputs: url.search,
    url: url.pathname + url.search,
    render: async () => <BoardBody {...body} />,
  });
  return { title, suiteId: body.suite.id, tasks: body.suite.tasks, version, board, inconsistency, limit: HEATMAP_METHODS, curves, curvesTotal };
}

/** The boards: the shared fragment of the page (rendered once, static HTML; links work without JavaScript). */
function BoardBody({ suites, suite, boards }: BoardsOfSuite) {
  const hrefWith = useHrefWith();
  const { t } = useTranslation("board");
  const empty = boards.overall.total === 0;
  return (
    <>
      <h1>{t("title")}</h1>
      {suites.length > 1 ? (
        <nav className="tabs" aria-label={t("suites")}>
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
      {/* The suite's description is long (how every number was made): behind a summary, so the
          board's own line and the tables come first. */}
      <details className="suite-about" data-testid="suite-description">
        <summary>{t("aboutSuite")}</summary>
        <p className="muted">{suite.description}</p>
      </details>
      <p className="muted">
        <Trans
          t={t}
          i18nKey="settings"
          values={{
            tasks: suite.tasks.length,
            cases: suite.tasks.length * 2,
            patch: suite.patchSize,
            filler: suite.filler.join(" "),
            grid: suite.grid.join(", "),
          }}
          components={{ how: <Link to="/Algorithm" /> }}
        />
      </p>
      <TaskModels tasks={suite.tasks} models={suite.taskModels} images={suite.splitImages} />
      {suite.splitImages ? (
        <p className="muted" data-testid="kit-line">
          <Trans
            t={t}
            i18nKey="kitLine"
            components={{
              // Trans puts the translated link text inside this anchor.
              // eslint-disable-next-line jsx-a11y/anchor-has-content
              kit: <a href={`/suites/${encodeURIComponent(suite.id)}/kit.zip`} download />,
              tutorial: <Link to={`/Algorithm?suite=${encodeURIComponent(suite.id)}#evaluate`} />,
            }}
          />
        </p>
      ) : null}
      {empty ? (
        <div className="empty-board" data-testid="empty-board">
          <p>
            <Trans t={t} i18nKey="emptySuite" components={{ b: <strong /> }} />
          </p>
          <p>
            <Trans t={t} i18nKey="emptySuiteImport" components={{ c: <code />, submit: <Link to={`/submission?suite=${encodeURIComponent(suite.id)}`} /> }} />
          </p>
        </div>
      ) : null}
      <RankTable title={t("boardOverall")} page={boards.overall} param="page" testId="board-overall" />
      <div className="boards-2">
        <RankTable title={t("boardMorf")} page={boards.morf} param="morfPage" testId="board-morf" showLocalisation={false} />
        <RankTable title={t("boardLerf")} page={boards.lerf} param="lerfPage" testId="board-lerf" showLocalisation={false} />
      </div>
      <p className="muted">
        {t("sideBoards")} <Link to={hrefWith({ page: null, morfPage: null, lerfPage: null })}>{t("firstPages")}</Link>
      </p>
    </>
  );
}

export default function Leaderboard() {
  const { suiteId, tasks, version, board, inconsistency, limit, curves, curvesTotal } = useLoaderData<typeof loader>();
  const { t } = useTranslation("board");
  if (!suiteId || !board) {
    return (
      <section className="card">
        <h1>{t("title")}</h1>
        <p>
          <Trans t={t} i18nKey="noSuite" components={{ c: <code /> }} />
        </p>
      </section>
    );
  }
  return (
    <section className="card">
      <SharedHtml fragment={board} className="shared-fragment" />
      {inconsistency ? <Inconsistency data={inconsistency} suiteId={suiteId} limit={limit} version={version} /> : null}
      {curves ? <MethodCurves data={curves} total={curvesTotal} suiteId={suiteId} tasks={tasks} version={version} /> : null}
    </section>
  );
}
