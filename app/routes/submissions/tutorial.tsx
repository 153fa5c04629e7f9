// The tutorial ("Get Started"): how a method is evaluated, what this server holds, how to produce
// the two result files, a sample result, the script generator and submit. Every number on it comes
// from the chosen suite (its tasks, settings and board), and every command runs as written in a
// clone of the platform.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { Button } from "primereact/button";
import { Trans, useTranslation } from "react-i18next";
import { getUser } from "~/.server/session.server.ts";
import { i18nServer, requestLanguage } from "~/.server/i18n.server.ts";
import { chooseSuite, listSuites, suiteBoard } from "~/.server/board.server.ts";
import { DEFAULT_METHOD, SEED_TASKS, generateScript, isMethod, mapsScript } from "~/lib/evaluationTasks.ts";
import { MAPS_MAX_BYTES, mib } from "~/lib/rules/maps.ts";
import { MSG } from "~/lib/rules/accounts.ts";
import { Notice } from "~/components/FieldError.tsx";

export const handle = { i18n: "tutorial" };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.title ?? "Get Started"} — Meta-Rank` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const user = await getUser(request);
  const t = await i18nServer.getFixedT(request, "tutorial");
  const suites = await listSuites(await requestLanguage(request));
  const suite = chooseSuite(suites, url.searchParams.get("suite")) ?? null;
  const base = {
    title: t("title"),
    suites: suites.map((s) => ({ id: s.id, name: s.name })),
    suite,
    sample: suite ? (await suiteBoard(suite.id)).slice(0, 3) : [],
    // The metarank-seed suite's tasks (seeds/suites/metarank-seed) name datasets this server does not ship (its README says how to install them).
    seedData: Boolean(suite && suite.methods === 0 && suite.tasks.every((task) => (SEED_TASKS as readonly string[]).includes(task))),
  };
  if (url.searchParams.get("submit")) {
    if (user) throw redirect("/cifar");
    return { ...base, selected: [], method: DEFAULT_METHOD, script: null, warning: MSG.loginFirst, anchor: "submit" };
  }
  const selected = url.searchParams.getAll("task").filter((task) => suite?.tasks.includes(task));
  const asked = url.searchParams.get("method") ?? DEFAULT_METHOD;
  const method = isMethod(asked) ? asked : DEFAULT_METHOD;
  if (url.searchParams.get("generate") && suite) {
    if (!selected.length) return { ...base, selected, method, script: null, warning: "tutorial:selectTask", anchor: "generator" };
    return { ...base, selected, method, script: generateScript(suite.id, selected, method), warning: null, anchor: "generator" };
  }
  return { ...base, selected, method, script: null, warning: null, anchor: null };
}

export default function GetStarted() {
  const { suite, suites, sample, seedData, selected, method, script, warning, anchor } = useLoaderData<typeof loader>();
  const { t } = useTranslation("tutorial");
  return (
    <article className="card tutorial">
      <h1>{t("title")}</h1>
      <h2>{t("how.title")}</h2>
      <p>
        <Trans t={t} i18nKey="how.p1" components={{ b: <b /> }} />
      </p>
      <p>
        <Trans t={t} i18nKey="how.p2" values={{ tasks: suite?.tasks.length ?? 0, cases: (suite?.tasks.length ?? 0) * 2 }} components={{ b: <b /> }} />
      </p>
      {suite ? (
        // What the suite's numbers mean (a new-user walk found "patch size 2, filler 0 0 0" and the
        // metascore's scale unexplained); the values are this suite's own.
        <p data-testid="how-settings">
          <Trans t={t} i18nKey="how.settings" values={{ patch: suite.patchSize, filler: suite.filler.join(" ") }} components={{ b: <b /> }} />
        </p>
      ) : null}
      <p>
        <Trans t={t} i18nKey="how.metascore" components={{ b: <b /> }} />
      </p>
      {suite ? (
        <>
          <h2>{t("suite.title")}</h2>
          {suites.length > 1 ? (
            <nav className="tabs" aria-label={t("suite.choose")}>
              {suites.map((s) => (
                <Link key={s.id} to={`?suite=${encodeURIComponent(s.id)}`} className={"tab" + (s.id === suite.id ? " active" : "")} preventScrollReset>
                  {s.name}
                </Link>
              ))}
            </nav>
          ) : null}
          <p>
            <Trans
              t={t}
              i18nKey="suite.lead"
              values={{ name: suite.name, tasks: suite.tasks.join(", "), patch: suite.patchSize, filler: suite.filler.join(" "), grid: suite.grid.join(", ") }}
              components={{ b: <b />, board: <Link to={`/leaderboard?suite=${encodeURIComponent(suite.id)}`} />, data: <Link to="/datasetPreview" /> }}
            />
          </p>
          {seedData ? <Notice kind="warn">{t("suite.seedData")}</Notice> : null}
          <h2 id="evaluate">{t("files.title")}</h2>
          <p>
            <Trans t={t} i18nKey="files.paths" components={{ b: <b /> }} />
          </p>
          <SuiteKit suite={suite} />
          <h3>{t("files.selfTitle")}</h3>
          <p>
            <Trans t={t} i18nKey="files.format" values={{ header: `task,${suite.grid.join(",")}` }} components={{ c: <code /> }} />
          </p>
          <p>
            <Trans t={t} i18nKey="files.own" components={{ c: <code />, b: <b /> }} />
          </p>
          <h2>{t("sample.title")}</h2>
          <SampleResult suite={suite} sample={sample} />
          <ScriptGenerator suite={suite} selected={selected} method={method} script={script} warning={anchor === "generator" ? warning : null} />
        </>
      ) : (
        <Notice kind="warn">{t("suite.none")}</Notice>
      )}
      <h2 id="submit">{t("submit.title")}</h2>
      <Form method="get" aria-label={t("submit.title")}>
        <input type="hidden" name="submit" value="1" />
        <Button type="submit" label={t("submit.button")} icon="pi pi-upload" />
      </Form>
      {warning && anchor === "submit" ? (
        <div style={{ marginTop: "1rem" }}>
          <Notice kind="warn">{warning}</Notice>
          {/* Signed in, the same address sends the researcher on to the submission (/cifar, docs/product.md "Tutorial"). */}
          <Link to={`/signin?redirectTo=${encodeURIComponent("/Algorithm?submit=1")}`} data-testid="submit-sign-in">
            {t("submit.signIn")}
          </Link>
        </div>
      ) : null}
    </article>
  );
}

type Suite = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["suite"]>;

/** The suite's kit (the whole suite, or one task), the maps script, and the method module route; or that the suite has none. */
function SuiteKit({ suite }: { suite: Suite }) {
  const { t } = useTranslation("tutorial");
  return suite.splitImages ? (
    <>
      <h3>{t("kit.title")}</h3>
      <p>
        <Trans t={t} i18nKey="kit.lead" values={{ images: suite.splitImages, tasks: suite.tasks.length }} components={{ c: <code /> }} />
      </p>
      <p>
        <a className="p-button p-component" href={`/suites/${encodeURIComponent(suite.id)}/kit.zip`} download data-testid="kit-link">
          <i className="pi pi-download" aria-hidden="true" />
          &nbsp;{t("kit.button", { name: suite.name })}
        </a>
      </p>
      {/* One task's kit (one dataset and its network): a plain GET form, so the choice and the
        download work without JavaScript; the route answers ?task= with that task's zip. */}
      <p>{t("kit.taskLead", { tasks: suite.tasks.length })}</p>
      <form
        method="get"
        action={`/suites/${encodeURIComponent(suite.id)}/kit.zip`}
        aria-label={t("kit.taskForm")}
        data-testid="kit-task-form"
        style={{ display: "flex", flexWrap: "wrap", gap: ".5rem", alignItems: "flex-end", marginBottom: "1rem" }}
      >
        <div className="field" style={{ margin: 0, minWidth: 0 }}>
          <label htmlFor="kit-task">{t("kit.task")}</label>
          <select id="kit-task" name="task" className="p-inputtext" defaultValue={suite.tasks[0]} style={{ maxWidth: "100%" }}>
            {suite.tasks.map((task) => (
              <option key={task} value={task}>
                {task}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="p-button p-component p-button-outlined" data-testid="kit-task-button">
          <i className="pi pi-download" aria-hidden="true" />
          &nbsp;{t("kit.taskButton")}
        </button>
      </form>
      <p className="muted">{t("kit.firstBuild")}</p>
      <pre className="script">{`unzip ${suite.id}-kit.zip -d kit`}</pre>
      <h3>{t("maps.title")}</h3>
      <p>
        <Trans t={t} i18nKey="maps.lead" values={{ images: suite.splitImages, limit: mib(MAPS_MAX_BYTES) }} components={{ b: <b />, c: <code /> }} />
      </p>
      {/* Focusable: with many tasks the script scrolls sideways, and a keyboard must reach it (axe scrollable-region-focusable). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <pre className="script" tabIndex={0} role="region" aria-label={t("maps.title")} data-testid="maps-script">
        {mapsScript(suite.tasks)}
      </pre>
      <p>
        <Trans
          t={t}
          i18nKey="maps.upload"
          components={{ b: <b />, c: <code />, submission: <Link to={`/submission?suite=${encodeURIComponent(suite.id)}#verified`} /> }}
        />
      </p>
      <h3>{t("module.title")}</h3>
      <p>
        <Trans t={t} i18nKey="module.lead" components={{ b: <b />, c: <code /> }} />
      </p>
      <pre className="script">{`make install
npm run -s evaluate -- --suite ${suite.id} --method-module docs/examples/edgeMethod.ts --out results/mine`}</pre>
      <p>
        <Trans t={t} i18nKey="module.upload" components={{ b: <b />, c: <code /> }} />
      </p>
    </>
  ) : (
    <Notice kind="info">{t("kit.none", { name: suite.name })}</Notice>
  );
}

/** The suite's first three board entries, as the result files end up on the board. */
function SampleResult({ suite, sample }: { suite: Suite; sample: ReturnType<typeof useLoaderData<typeof loader>>["sample"] }) {
  const { t } = useTranslation("tutorial");
  return sample.length ? (
    <>
      <p className="muted">{t("sample.lead", { name: suite.name })}</p>
      {/* Five columns do not fit a phone: the table scrolls inside its own region there. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must be reachable by keyboard (axe scrollable-region-focusable) */}
      <div className="table-scroll" tabIndex={0} role="region" aria-label={t("sample.title")}>
        <table className="plain" data-testid="sample-result">
          <thead>
            <tr>
              <th>{t("sample.author")}</th>
              <th>{t("sample.institute")}</th>
              <th>{t("sample.algorithm")}</th>
              <th>{t("sample.metascore")}</th>
              <th>{t("sample.ranking")}</th>
            </tr>
          </thead>
          <tbody>
            {sample.map((r) => (
              <tr key={r.id}>
                <td>{r.contributor}</td>
                <td>{r.institute}</td>
                <td>{r.algorithm}</td>
                <td>{r.metascoreText}</td>
                <td>{r.rank}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  ) : (
    <p className="muted">{t("sample.empty")}</p>
  );
}

/** The script generator: a GET form over the suite's tasks and a method's name, and the script it gave. */
function ScriptGenerator({
  suite,
  selected,
  method,
  script,
  warning,
}: {
  suite: Suite;
  selected: string[];
  method: string;
  script: string | null;
  warning: string | null;
}) {
  const { t } = useTranslation("tutorial");
  return (
    <>
      <h2 id="generator">{t("generator.title")}</h2>
      <p className="muted">{t("generator.settings", { patch: suite.patchSize, filler: suite.filler.join(" "), grid: suite.grid.join(", ") })}</p>
      <Form method="get" preventScrollReset aria-label={t("generator.title")}>
        <input type="hidden" name="generate" value="1" />
        <input type="hidden" name="suite" value={suite.id} />
        <div
          className="task-grid"
          style={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(230px, 1fr))", gap: ".4rem", marginBottom: "1rem" }}
        >
          {suite.tasks.map((task) => (
            <label key={task} style={{ display: "flex", gap: ".5rem", alignItems: "center" }}>
              <input type="checkbox" name="task" value={task} defaultChecked={selected.includes(task)} /> {task}
            </label>
          ))}
        </div>
        <div className="field" style={{ maxWidth: 360 }}>
          <label htmlFor="method">{t("generator.method")}</label>
          <input id="method" name="method" className="p-inputtext" defaultValue={method} maxLength={124} />
        </div>
        <Button type="submit" label={t("generator.button")} icon="pi pi-code" />
      </Form>
      {warning ? (
        <div style={{ marginTop: "1rem" }}>
          <Notice kind="warn">{warning}</Notice>
        </div>
      ) : null}
      {script ? (
        <pre className="script" data-testid="generated-script" style={{ marginTop: "1rem" }}>
          {script}
        </pre>
      ) : null}
    </>
  );
}
