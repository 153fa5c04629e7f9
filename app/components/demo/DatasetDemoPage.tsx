// The view of a per-dataset demo page (/imagenet, /coco, the scene demo): the common flow's pool,
// model and algorithm (DemoSteps.tsx), and the classification result, bound to one dataset by
// app/.server/demoFlow.server.ts (DatasetDemo). Where this server lacks the pictures or a model
// trained on them, the page says which, what an operator does, and links to the demos that run
// here; it shows no picture and no prediction it does not have.
import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { Trans, useTranslation } from "react-i18next";
import type { datasetDemoLoader } from "~/.server/demoFlow.server.ts";
import { DemoFailurePanel, type DemoFailure } from "~/components/DemoFailurePanel.tsx";
import { DatasetStyles } from "~/components/datasets/styles.tsx";
import { ClassificationResults } from "./ClassificationResults.tsx";
import { DemoToasts, PoolStep, RunCard, SuccessNotice } from "./DemoSteps.tsx";
import { CLASSIFICATION_MSG } from "~/lib/rules/classification.ts";

export type DatasetDemoData = SerializeFrom<typeof datasetDemoLoader>;
export type DatasetDemoAnswer = { errors?: { model?: string; algorithm?: string; image?: string }; failure?: DemoFailure } | undefined;

/** The demos whose data and models this platform makes itself (seeded and trained here), so they run on any installation. */
const RUNS_HERE = [
  { to: "/scenes", key: "demos:scenes.title" },
  { to: "/UserImgclassification", key: "demos:runsHere.classification" },
  { to: "/UserImgsegmentation", key: "demos:runsHere.segmentation" },
] as const;

/**
 * `page`: the key of the page's words in the `demos` namespace ("imagenet", "coco", "scenes");
 * `route`: its address; `children`: what the page adds under the flow (e.g. where more models join).
 */
export function DatasetDemoPage({
  page,
  route,
  d,
  res,
  children,
}: {
  page: string;
  route: string;
  d: DatasetDemoData;
  res: DatasetDemoAnswer;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation(["demos", "demo"]);
  return (
    <section>
      <DatasetStyles />
      <h1>{t(`${page}.title`)}</h1>
      <p className="muted">{t(`${page}.lead`)}</p>
      {d.installed ? (
        <>
          <DemoToasts resultId={d.ok && d.result ? d.result.id : null} success={CLASSIFICATION_MSG.success} failure={res?.failure} />
          <SuccessNotice show={Boolean(d.ok && d.result)} message={CLASSIFICATION_MSG.success} />
          <div className="ds-steps">
            <PoolStep
              pool={d.pool}
              seed={d.seed}
              href={({ pool, picture }) => `${route}?pool=${pool}${picture ? `&picture=${picture}` : ""}`}
              introSlug={d.slug}
              picture={d.picture}
            />
            <RunCard title={t("demo:step2Run")} intent="run" startLabel={t("demo:start")} choice={d} errors={res?.errors}>
              {children}
            </RunCard>
            {res?.failure ? <DemoFailurePanel failure={res.failure} /> : null}
            {d.result ? <ClassificationResults result={d.result} provenance={d.provenance} poolFlow /> : null}
          </div>
        </>
      ) : (
        <NotInstalled d={d} page={page} />
      )}
    </section>
  );
}

function NotInstalled({ d, page }: { d: Extract<DatasetDemoData, { installed: false }>; page: string }) {
  const { t } = useTranslation("demos");
  const data = t(`${page}.data`);
  return (
    <div
      className="card notice-warn"
      data-testid="not-installed"
      data-missing-data={d.missing.data ? "1" : undefined}
      data-missing-model={d.missing.model ? "1" : undefined}
    >
      <h2 style={{ marginTop: 0 }}>{t("notInstalled.title")}</h2>
      <ul>
        {d.missing.data ? <li data-testid="missing-data">{t("notInstalled.noData", { data })}</li> : null}
        {d.missing.model ? <li data-testid="missing-model">{t("notInstalled.noModel", { data })}</li> : null}
      </ul>
      <h3>{t("notInstalled.operator")}</h3>
      <ol>
        {d.missing.data ? (
          <li>
            {d.folderEnv ? (
              <Trans t={t} i18nKey="notInstalled.folder" values={{ env: d.folderEnv, slug: d.slug }} components={{ code: <code /> }} />
            ) : (
              <Trans t={t} i18nKey="notInstalled.seed" components={{ code: <code /> }} />
            )}
          </li>
        ) : null}
        {d.missing.model ? (
          <li>
            {d.modelsFrom === "import" ? (
              <Trans t={t} i18nKey="notInstalled.import" values={{ id: d.modelDataset }} components={{ code: <code />, doc: <Link to="/document" /> }} />
            ) : (
              <Trans t={t} i18nKey="notInstalled.train" values={{ id: d.modelDataset }} components={{ code: <code /> }} />
            )}
          </li>
        ) : null}
      </ol>
      <h3>{t("notInstalled.runsHere")}</h3>
      <ul data-testid="runs-here">
        {RUNS_HERE.filter((l) => l.to !== `/${page}`).map((l) => (
          <li key={l.to}>
            <Link to={l.to}>{t(l.key)}</Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
