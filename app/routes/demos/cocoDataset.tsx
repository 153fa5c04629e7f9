// /coco (one of the per-dataset demo pages): the common demo flow bound to the operator's COCO
// pictures (COCO_DIR, one sub-folder per category, seeded as the dataset "coco") and a classifier
// imported from ONNX with --dataset coco (docs/onnx-import.md). Without either, the page says what
// is missing and what an operator does (app/components/demo/DatasetDemoPage.tsx).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { datasetDemoAction, datasetDemoLoader, demoHeaders, type DatasetDemo } from "~/.server/demoFlow.server.ts";
import { DatasetDemoPage, type DatasetDemoAnswer } from "~/components/demo/DatasetDemoPage.tsx";
import { pageTitle } from "~/lib/pageTitle.ts";

const DEMO: DatasetDemo = { route: "/coco", slug: "coco", modelDataset: "coco", folderEnv: "COCO_DIR", modelsFrom: "import" };

export const handle = { i18n: ["demos", "demo"] };
export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "demos:coco.title");
export const headers = demoHeaders;
export const loader = ({ request }: LoaderFunctionArgs) => datasetDemoLoader(DEMO, request);
export const action = ({ request, context }: ActionFunctionArgs) => datasetDemoAction(DEMO, request, context.ip);

export default function CocoDemo() {
  return <DatasetDemoPage page="coco" route={DEMO.route} d={useLoaderData<typeof loader>()} res={useActionData<typeof action>() as DatasetDemoAnswer} />;
}
