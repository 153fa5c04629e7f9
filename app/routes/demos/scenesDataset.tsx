// /scenes, the scene demo (a route this platform added): the common demo flow bound to the
// platform's generated scenes (seeded as the installed dataset "scenes") and the classifiers
// trained on them here (sidecar/zoo/checkpoints/*-scenes), with the classic attribution algorithms.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { Trans, useTranslation } from "react-i18next";
import { datasetDemoAction, datasetDemoLoader, demoHeaders, type DatasetDemo } from "~/.server/demoFlow.server.ts";
import { DatasetDemoPage, type DatasetDemoAnswer } from "~/components/demo/DatasetDemoPage.tsx";
import { pageTitle } from "~/lib/pageTitle.ts";

// The scene demo's other models, SearchSpaceModel and NeuralDecisionTree with DI and SPI, are tree
// models (docs/sebow.md): they are served on /scenesebow (app/routes/trees/sebowScenes.tsx), which this
// page links to; its note used to say they were still to come.
const DEMO: DatasetDemo = { route: "/scenes", slug: "scenes", modelDataset: "scenes", modelsFrom: "train" };

export const handle = { i18n: ["demos", "demo"] };
export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "demos:scenes.title");
export const headers = demoHeaders;
export const loader = ({ request }: LoaderFunctionArgs) => datasetDemoLoader(DEMO, request);
export const action = ({ request, context }: ActionFunctionArgs) => datasetDemoAction(DEMO, request, context.ip);

export default function ScenesDemo() {
  const { t } = useTranslation("demos");
  return (
    <DatasetDemoPage page="scenes" route={DEMO.route} d={useLoaderData<typeof loader>()} res={useActionData<typeof action>() as DatasetDemoAnswer}>
      <p className="muted" data-testid="tree-models">
        <Trans t={t} i18nKey="scenes.treeModels" components={{ sebow: <Link to="/scenesebow" /> }} />
      </p>
    </DatasetDemoPage>
  );
}
