// LEADERBOARD (public, server-rendered): every suite's board — overall, MoRF-only and
// LeRF-only — 8 rows a page, each table paged by its own query parameter.
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import metarankHref from "~/styles/metarank.css?url";
import reactVisCss from "react-vis/dist/style.css?url";
import { chooseSuite, listSuites, pageParam, paginate, suiteBoards } from "~/.server/board.server.ts";
import { RankTable, useHrefWith } from "~/components/RankTable.tsx";
import { HEATMAP_METHODS, suiteInconsistency } from "~/.server/inconsistency.server.ts";
import { Inconsistency } from "~/components/Inconsistency.tsx";
import { taskCurves } from "~/.server/curves.server.ts";
import { MethodCurves } from "~/components/MethodCurves.tsx";
import { TaskModels } from "~/components/TaskModels.tsx";
import { Trans, useTranslation } from "react-i18next";
import { i18nServer, requestLanguage } from "~/.server/i18n.server.ts";

export const handle = { i18n: ["common", "board"] };

// react-vis's own stylesheet: without it its line series are filled black (app/components/MethodCurves.tsx).
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: metarankHref },
  { rel: "stylesheet", href: reactVisCss },
];
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.title ?? "Leaderboard"} — Meta-Rank` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const suites = await listSuites(await requestLanguage(request));
  const suite = chooseSuite(suites, url.searchParams.get("suite"));
  const title = (await i18nServer.getFixedT(request, "board"))("title");
  if (!suite) return { title, suites: [], suite: null, boards: null, inconsistency: null, curves: null };
  // The curves' task: the one asked for if the suite has it, else its first.
  const asked = url.searchParams.get("curvesTask");
  const curvesTask = asked && suite.tasks.includes(asked) ? asked : suite.tasks[0];
  const [{ overall, morf, lerf }, inconsistency, curves] = await Promise.all([
    suiteBoards(suite.id, ["overall", "morf", "lerf"] as const),
    suiteInconsistency(suite),
    curvesTask ? taskCurves(suite, curvesTask) : null,
  ]);
  return {
    title,
    suites: suites.map((s) => ({ id: s.id, name: s.name, methods: s.methods })),
    suite,
    boards: {
      overall: paginate(overall, pageParam(url, "page")),
      morf: paginate(morf, pageParam(url, "morfPage")),
      lerf: paginate(lerf, pageParam(url, "lerfPage")),
    },
    inconsistency: inconsistency ? { ...inconsistency, limit: HEATMAP_METHODS } : null,
    curves: curves && curves.methods.length > 0 ? curves : null,
  };
}

export default function Leaderboard() {
  const { suites, suite, boards, inconsistency, curves } = useLoaderData<typeof loader>();
  const hrefWith = useHrefWith();
  const { t } = useTranslation("board");
  if (!suite || !boards) {
    return (
      <section className="card">
        <h1>{t("title")}</h1>
        <p>
          <Trans t={t} i18nKey="noSuite" components={{ c: <code /> }} />
        </p>
      </section>
    );
  }
  const empty = boards.overall.total === 0;
  return (
    <section className="card">
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
      {inconsistency ? <Inconsistency data={inconsistency} suiteId={suite.id} limit={inconsistency.limit} /> : null}
      {curves ? <MethodCurves data={curves} suiteId={suite.id} tasks={suite.tasks} /> : null}
    </section>
  );
}
